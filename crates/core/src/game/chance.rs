//! Chance as data: a game's dice, the rolls they can show and their probabilities.
//! Search (expectimax), exact analysis and random play all read the same table.

use rand::Rng;
use std::fmt;

/// The most dice one roll may have.
pub const MAX_DICE: usize = 4;

/// A throw of `count` fair dice with `faces` faces each (numbered 1..=faces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    pub count: u8,
    pub faces: u8,
}

/// The values a throw of dice showed, in the order given.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Roll {
    values: [u8; MAX_DICE],
    len: u8,
}

impl Roll {
    /// A roll of the given values (at most [`MAX_DICE`]; more are an error).
    pub fn new(values: &[u8]) -> Result<Roll, RollError> {
        if values.len() > MAX_DICE {
            return Err(RollError::Count {
                expected: MAX_DICE as u8,
                got: values.len(),
            });
        }
        let mut roll = Roll::default();
        roll.values[..values.len()].copy_from_slice(values);
        roll.len = values.len() as u8;
        Ok(roll)
    }
    pub fn values(&self) -> &[u8] {
        &self.values[..usize::from(self.len)]
    }
}

impl fmt::Debug for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Roll{:?}", self.values())
    }
}

/// The roll as players say it: `6-1`.
impl Roll {
    /// The roll as players say it: the highest die first (`6-1`), whatever order it came in.
    pub fn spoken(&self) -> String {
        let mut values = self.values().to_vec();
        values.sort_unstable_by(|a, b| b.cmp(a));
        let parts: Vec<String> = values.iter().map(u8::to_string).collect();
        parts.join("-")
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.values().iter().map(u8::to_string).collect();
        f.write_str(&parts.join("-"))
    }
}

/// Why a roll was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollError {
    /// The game does not await dice now.
    NotAwaited,
    /// The game uses no dice at all.
    NoDice,
    Count {
        expected: u8,
        got: usize,
    },
    Face {
        value: u8,
        faces: u8,
    },
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::NotAwaited => f.write_str("no dice are awaited now"),
            RollError::NoDice => f.write_str("these rules use no dice"),
            RollError::Count { expected, got } => {
                write!(f, "a roll is {expected} dice, not {got}")
            }
            RollError::Face { value, faces } => {
                write!(f, "a die shows 1 to {faces}, not {value}")
            }
        }
    }
}

impl std::error::Error for RollError {}

impl Dice {
    /// Two six-sided dice.
    pub const TWO_D6: Dice = Dice { count: 2, faces: 6 };

    /// Checks that `roll` is a throw of these dice.
    pub fn check(&self, roll: &Roll) -> Result<(), RollError> {
        if roll.values().len() != usize::from(self.count) {
            return Err(RollError::Count {
                expected: self.count,
                got: roll.values().len(),
            });
        }
        match roll.values().iter().find(|&&v| v == 0 || v > self.faces) {
            Some(&value) => Err(RollError::Face {
                value,
                faces: self.faces,
            }),
            None => Ok(()),
        }
    }

    /// A fair throw drawn from `rng`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Roll {
        let mut roll = Roll {
            len: self.count,
            ..Roll::default()
        };
        for v in &mut roll.values[..usize::from(self.count)] {
            *v = rng.gen_range(1..=self.faces);
        }
        roll
    }

    /// Every distinct throw (the dice unordered: `6-1` stands for `1-6` too, values in
    /// descending order) with its probability; the probabilities sum to 1. Two six-sided dice
    /// give 21 throws, the doubles at 1/36 and the others at 2/36.
    pub fn outcomes(&self) -> Vec<(Roll, f64)> {
        let n = usize::from(self.count);
        let total = f64::from(self.faces).powi(i32::from(self.count));
        let mut out = Vec::new();
        let mut values = vec![self.faces; n];
        loop {
            // `values` is non-increasing: count the orderings of this multiset.
            let mut orderings = factorial(n);
            let mut i = 0;
            while i < n {
                let run = values[i..].iter().take_while(|&&v| v == values[i]).count();
                orderings /= factorial(run);
                i += run;
            }
            let roll = Roll::new(&values).expect("at most MAX_DICE dice");
            out.push((roll, orderings as f64 / total));
            // The next non-increasing sequence, in descending order.
            let Some(k) = (0..n).rev().find(|&k| values[k] > 1) else {
                return out;
            };
            values[k] -= 1;
            for j in k + 1..n {
                values[j] = values[k];
            }
        }
    }
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_opening_roll_is_two_different_dice_every_pair_as_likely() {
        use super::super::Ritual;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..30_000 {
            let roll = Ritual::OpeningRoll
                .opening(Dice::TWO_D6, &mut rng)
                .expect("an opening roll");
            let [high, low] = roll.values() else {
                panic!("two dice: {roll:?}")
            };
            assert!(high > low, "{roll:?}");
            *seen.entry((*high, *low)).or_insert(0u32) += 1;
        }
        // The 15 pairs of different dice, 2,000 each expected (a rare pair within 10%).
        assert_eq!(seen.len(), 15);
        assert!(
            seen.values().all(|&n| (1800..=2200).contains(&n)),
            "{seen:?}"
        );
        // Rituals whose starter rolls as usual draw nothing.
        for ritual in [
            Ritual::HigherDieStarts,
            Ritual::HigherDieChoosesColour,
            Ritual::None,
        ] {
            assert_eq!(ritual.opening(Dice::TWO_D6, &mut rng), None);
        }
    }

    #[test]
    fn the_higher_throw_ranks_doubles_first_and_plays_the_winners_throw() {
        use super::super::Ritual;
        use std::cmp::Ordering::{Equal, Greater, Less};
        let r = Ritual::HigherThrowPlays;
        // A double beats any other throw, a higher double a lower; else the total.
        assert_eq!(r.compare(&[1, 1], &[6, 5]), Greater);
        assert_eq!(r.compare(&[3, 3], &[4, 4]), Less);
        assert_eq!(r.compare(&[6, 4], &[5, 3]), Greater);
        assert_eq!(r.compare(&[6, 1], &[4, 3]), Equal);
        assert_eq!(r.compare(&[2, 2], &[2, 2]), Equal);
        // One die each: the higher die, a double meaning nothing.
        assert_eq!(Ritual::OpeningRoll.compare(&[2], &[5]), Less);
        assert_eq!(
            (
                r.dice_each(Dice::TWO_D6),
                Ritual::OpeningRoll.dice_each(Dice::TWO_D6)
            ),
            (2, 1)
        );
        // The winner's throw: doubles win far more often than they are thrown (1 in 6): a
        // throw that is not one wins only against another that is not.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let doubles = (0..20_000)
            .filter(|_| {
                let roll = r.opening(Dice::TWO_D6, &mut rng).expect("a throw");
                roll.values().len() == 2 && roll.values()[0] == roll.values()[1]
            })
            .count();
        // P(the winner threw a double) = (1 - (5/6)^2 - ties) / (1 - ties) ≈ 0.33.
        assert!((5_800..7_000).contains(&doubles), "{doubles}");
    }

    #[test]
    fn two_six_sided_dice_give_21_rolls_weighted_1_or_2_in_36() {
        let outcomes = Dice::TWO_D6.outcomes();
        assert_eq!(outcomes.len(), 21);
        let doubles: Vec<_> = outcomes
            .iter()
            .filter(|(r, _)| r.values()[0] == r.values()[1])
            .collect();
        assert_eq!(doubles.len(), 6);
        assert!(doubles.iter().all(|(_, p)| (p - 1.0 / 36.0).abs() < 1e-12));
        let six_one = outcomes.iter().find(|(r, _)| r.values() == [6, 1]).unwrap();
        assert!((six_one.1 - 2.0 / 36.0).abs() < 1e-12);
        let sum: f64 = outcomes.iter().map(|o| o.1).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }

    #[test]
    fn other_dice_sum_to_one() {
        for dice in [
            Dice { count: 1, faces: 6 },
            Dice { count: 3, faces: 4 },
            Dice { count: 4, faces: 2 },
        ] {
            let outcomes = dice.outcomes();
            let sum: f64 = outcomes.iter().map(|o| o.1).sum();
            assert!((sum - 1.0).abs() < 1e-12, "{dice:?}");
        }
        // Three four-sided dice: C(4 + 2, 3) = 20 multisets.
        assert_eq!(Dice { count: 3, faces: 4 }.outcomes().len(), 20);
    }

    #[test]
    fn checks_and_samples() {
        let d = Dice::TWO_D6;
        assert_eq!(d.check(&Roll::new(&[6, 1]).unwrap()), Ok(()));
        assert_eq!(
            d.check(&Roll::new(&[7, 1]).unwrap()),
            Err(RollError::Face { value: 7, faces: 6 })
        );
        assert_eq!(
            d.check(&Roll::new(&[3]).unwrap()),
            Err(RollError::Count {
                expected: 2,
                got: 1
            })
        );
        assert!(Roll::new(&[1; 5]).is_err());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut seen = [0u32; 7];
        for _ in 0..6000 {
            let r = d.sample(&mut rng);
            assert_eq!(d.check(&r), Ok(()));
            seen[usize::from(r.values()[0])] += 1;
        }
        assert!(
            seen[1..].iter().all(|&c| (800..1200).contains(&c)),
            "{seen:?}"
        );
        assert_eq!(Roll::new(&[6, 1]).unwrap().to_string(), "6-1");
    }
}
