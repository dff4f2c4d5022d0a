//! GNU Backgammon's position ID: the checkers of a position on the standard board in fourteen
//! characters (`4HPwATDgc/ABMA` is the start), as backgammon players exchange positions.
//!
//! The ID is 80 bits written in base 64: for the player not on roll and then the player on
//! roll, for each of its points 1 to 24 (its own numbering) and then its bar, as many 1 bits as
//! checkers there, and a 0 bit; bit i is bit `i % 8` of byte `i / 8`.

use super::position::{Side, BAR, OFF};
use base64::Engine;

/// Points of the board an ID describes.
const POINTS: usize = 24;
/// Bytes of an ID's key.
const KEY_BYTES: usize = 10;
/// Characters of an ID.
pub const ID_LENGTH: usize = 14;

/// The position ID of `sides` (each in its own numbering) with `on_roll` to play; `None` when
/// a side has checkers the ID cannot hold (beyond point 24, in a pool, more than 15).
pub fn position_id(sides: &[Side; 2], on_roll: usize) -> Option<String> {
    let mut key = [0u8; KEY_BYTES];
    let mut bit = 0;
    for side in [&sides[1 - on_roll], &sides[on_roll]] {
        let held: u32 = (1..=POINTS).chain([BAR]).map(|n| u32::from(side[n])).sum();
        let total: u32 = side.iter().map(|&c| u32::from(c)).sum();
        if total - u32::from(side[OFF]) != held || total > 15 {
            return None;
        }
        for n in (1..=POINTS).chain([BAR]) {
            for _ in 0..side[n] {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    Some(base64::engine::general_purpose::STANDARD_NO_PAD.encode(key))
}

/// The checkers an ID describes, `[not on roll, on roll]`, each on its points 1 to 24 and bar
/// (none off: the caller knows how many each side has); an error says what is wrong.
pub fn read_position_id(text: &str) -> Result<[Side; 2], String> {
    let text = text.trim();
    let key = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(text)
        .ok()
        .filter(|k| text.len() == ID_LENGTH && k.len() == KEY_BYTES)
        .ok_or_else(|| {
            format!(
                "`{}` is not a position ID: {ID_LENGTH} characters of A-Z, a-z, 0-9, + and /",
                ludus_core::limits::excerpt(text)
            )
        })?;
    let bits = (0..KEY_BYTES * 8).map(|i| key[i / 8] >> (i % 8) & 1 == 1);
    let mut sides = [[0u8; super::position::SLOTS]; 2];
    let mut places = [0, 1]
        .into_iter()
        .flat_map(|p| (1..=POINTS).chain([BAR]).map(move |n| (p, n)));
    let mut at = places.next();
    for one in bits {
        let Some((p, n)) = at else {
            if one {
                return Err("the position ID has checkers beyond both sides' bars".into());
            }
            continue;
        };
        if one {
            sides[p][n] += 1;
            if sides[p].iter().map(|&c| u32::from(c)).sum::<u32>() > 15 {
                return Err("the position ID gives a side more than 15 checkers".into());
            }
        } else {
            at = places.next();
        }
    }
    if at.is_some() {
        return Err("the position ID ends before both sides are given".into());
    }
    Ok(sides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_setup;

    fn side(text: &str) -> Side {
        parse_setup(text, 24).unwrap()
    }

    #[test]
    fn the_start_and_gnubgs_examples() {
        let start = side("24:2 13:5 8:3 6:5");
        assert_eq!(
            position_id(&[start, start], 0).as_deref(),
            Some("4HPwATDgc/ABMA")
        );
        // GNU Backgammon's manual: after 8/3 6/3 by the player who moved, the other on roll.
        let moved = side("24:2 13:5 8:2 6:4 3:2");
        assert_eq!(
            position_id(&[start, moved], 0).as_deref(),
            Some("jGfwATDgc/ABMA")
        );
        let read = read_position_id("jGfwATDgc/ABMA").unwrap();
        assert_eq!(read, [moved, start]);
    }

    #[test]
    fn bad_ids_are_refused_with_a_reason() {
        for (text, why) in [
            ("4HPwATDgc/ABM", "not a position ID"),
            ("4HPwATDgc/AB!A", "not a position ID"),
            ("////////////////", "not a position ID"),
            ("/////////////w", "more than 15"),
            ("AAAAAAAAAAAAAA", ""),
        ] {
            match read_position_id(text) {
                Err(e) => assert!(e.contains(why), "{text}: {e}"),
                Ok(s) => assert!(why.is_empty() && s == [[0; super::super::position::SLOTS]; 2]),
            }
        }
    }
}
