//! The IDs by which backgammon players exchange positions on the standard board: GNU
//! Backgammon's position ID and eXtreme Gammon's XGID.
//!
//! The position ID holds the checkers in fourteen characters (`4HPwATDgc/ABMA` is the start):
//! 80 bits written in base 64, for the player not on roll and then the player on roll, for each
//! of its points 1 to 24 (its own numbering) and then its bar, as many 1 bits as checkers
//! there, and a 0 bit; bit i is bit `i % 8` of byte `i / 8`.
//!
//! The XGID (`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10` is the start) is the board
//! from the bottom player's side (player 0 here) in 26 characters — the top player's bar, points
//! 1 to 24, the bottom player's bar; `A`-`O` one to fifteen of the bottom player's checkers,
//! `a`-`o` of the top player's, `-` none — then the cube's value and owner, whose turn (1 the
//! bottom player, -1 the top), the dice (`00` before the roll), the scores, the Crawford or
//! Jacoby flag, the match length (0: money) and the cube's limit.

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

/// What GNU Backgammon's match ID says of a game: the stakes, who is on roll and who decides,
/// the dice, and whether the game runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchState {
    pub stakes: Stakes,
    pub on_roll: usize,
    /// The player to decide: the one on roll, or the one answering a double.
    pub turn: usize,
    pub doubled: bool,
    pub dice: Option<[u8; 2]>,
    /// 1 playing, 2 over, 4 ended by a double declined.
    pub game_state: u8,
}

/// GNU Backgammon's match ID: 66 bits in twelve base-64 characters (`cAkAAAAAAAAA`), bit i
/// being bit `i % 8` of byte `i / 8`: the cube's value (4 bits, as a power of two) and owner
/// (2: player 0, 1 or 3 for the middle), the player on roll, the Crawford flag, the game state
/// (3), whose turn, a double offered, a resignation offered (2), the dice (3 each), the match
/// length (15), the two scores (15 each) and, last, whether the Jacoby rule is not in force.
/// GNU Backgammon's player 1 is the bottom player, player 0 here.
pub fn match_id(m: &MatchState) -> String {
    let gnubg = |p: usize| 1 - p as u64;
    let [a, b] = m.dice.unwrap_or([0, 0]);
    let money = m.stakes.length == 0;
    let fields: [(u64, u32); 14] = [
        (u64::from(m.stakes.cube), 4),
        (m.stakes.owner.map_or(3, gnubg), 2),
        (gnubg(m.on_roll), 1),
        (u64::from(!money && m.stakes.flag & 1 == 1), 1),
        (u64::from(m.game_state), 3),
        (gnubg(m.turn), 1),
        (u64::from(m.doubled), 1),
        (0, 2),
        (u64::from(a), 3),
        (u64::from(b), 3),
        (m.stakes.length as u64 & 0x7fff, 15),
        (m.stakes.scores[1] as u64 & 0x7fff, 15),
        (m.stakes.scores[0] as u64 & 0x7fff, 15),
        // A 67th bit GNU Backgammon writes: the Jacoby rule not in force.
        (u64::from(!(money && m.stakes.flag & 1 == 1)), 1),
    ];
    let mut key = [0u8; 9];
    let mut bit = 0;
    for (value, width) in fields {
        for i in 0..width {
            if value >> i & 1 == 1 {
                key[bit / 8] |= 1 << (bit % 8);
            }
            bit += 1;
        }
    }
    base64::engine::general_purpose::STANDARD.encode(key)
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

/// A position as an XGID gives it: each side's checkers in its own numbering (none off), whose
/// turn, the dice when thrown, and the stakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Xgid {
    pub sides: [Side; 2],
    pub to_move: usize,
    pub dice: Option<[u8; 2]>,
    pub stakes: Stakes,
}

/// What an XGID says beside the board: the cube, the score and the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stakes {
    /// The cube stands at 2^`cube`; `owner` none: in the middle.
    pub cube: u8,
    pub owner: Option<usize>,
    /// Player 0's and player 1's points in the match.
    pub scores: [i32; 2],
    /// In a match, 1 in the Crawford game; in money play, 1 for the Jacoby rule plus 2 for
    /// beavers.
    pub flag: u8,
    /// The match's length (0: money play).
    pub length: i32,
    /// The cube's highest value, as a power of two.
    pub max_cube: u8,
}

impl Default for Stakes {
    /// A game without the cube: cube 1 in the middle, money play, no score.
    fn default() -> Stakes {
        Stakes {
            cube: 0,
            owner: None,
            scores: [0; 2],
            flag: 0,
            length: 0,
            max_cube: 10,
        }
    }
}

/// The XGID of `sides` with `to_move` to play `dice` (none: to roll), player 0 at the bottom,
/// at these stakes. `None` where the XGID cannot hold the checkers.
pub fn xgid(
    sides: &[Side; 2],
    to_move: usize,
    dice: Option<[u8; 2]>,
    stakes: &Stakes,
) -> Option<String> {
    position_id(sides, to_move)?;
    let letter = |n: u8, bottom: bool| match n {
        0 => '-',
        n if bottom => char::from(b'A' + n - 1),
        n => char::from(b'a' + n - 1),
    };
    let mut board = String::with_capacity(26);
    board.push(letter(sides[1][BAR], false));
    for n in 1..=POINTS {
        let (mine, theirs) = (sides[0][n], sides[1][POINTS + 1 - n]);
        if mine > 0 && theirs > 0 {
            return None;
        }
        board.push(letter(mine.max(theirs), mine > 0));
    }
    board.push(letter(sides[0][BAR], true));
    let turn = if to_move == 0 { 1 } else { -1 };
    let dice = dice.map_or("00".to_string(), |[a, b]| format!("{a}{b}"));
    let Stakes {
        cube,
        owner,
        scores: [bottom, top],
        flag,
        length,
        max_cube,
    } = *stakes;
    let owner = match owner {
        None => 0,
        Some(0) => 1,
        Some(_) => -1,
    };
    Some(format!(
        "XGID={board}:{cube}:{owner}:{turn}:{dice}:{bottom}:{top}:{flag}:{length}:{max_cube}"
    ))
}

/// The position an XGID gives, with its stakes (the caller checks them against the rules). An
/// error says what is wrong.
pub fn read_xgid(text: &str) -> Result<Xgid, String> {
    let text = text.trim();
    let shown = ludus_core::limits::excerpt(text);
    let fields: Vec<&str> = text
        .strip_prefix("XGID=")
        .unwrap_or(text)
        .split(':')
        .collect();
    let [board, cube, owner, turn, dice, score0, score1, flag, length, limit] = fields[..] else {
        return Err(format!(
            "`{shown}` is not an XGID: 26 characters of the board, then nine fields separated by `:`"
        ));
    };
    let number = |field: &str, name: &str, range: std::ops::RangeInclusive<i64>| {
        field
            .parse::<i64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| format!("the XGID's {name} `{field}` is not one"))
    };
    let stakes = Stakes {
        cube: number(cube, "cube value", 0..=12)? as u8,
        owner: match number(owner, "cube owner", -1..=1)? {
            1 => Some(0),
            -1 => Some(1),
            _ => None,
        },
        scores: [
            number(score0, "bottom player's score", 0..=99_999)? as i32,
            number(score1, "top player's score", 0..=99_999)? as i32,
        ],
        flag: number(flag, "Crawford or Jacoby flag", 0..=3)? as u8,
        length: number(length, "match length", 0..=99_999)? as i32,
        max_cube: number(limit, "cube limit", 0..=15)? as u8,
    };
    let to_move = match number(turn, "turn", -1..=1)? {
        1 => 0,
        -1 => 1,
        _ => return Err("the XGID's turn is 1 (the bottom player) or -1 (the top)".into()),
    };
    let dice = match dice.as_bytes() {
        b"00" => None,
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Some([a - b'0', b - b'0']),
        _ => {
            return Err(format!(
                "the XGID's dice `{dice}` are not a throw (two digits 1-6, or 00 before the roll; cube actions are not played here)"
            ))
        }
    };
    let chars: Vec<char> = board.chars().collect();
    if chars.len() != 26 {
        return Err(format!(
            "the XGID's board `{}` has {} characters, not 26",
            ludus_core::limits::excerpt(board),
            chars.len()
        ));
    }
    let mut sides = [[0u8; super::position::SLOTS]; 2];
    for (i, &c) in chars.iter().enumerate() {
        let (side, count) = match c {
            '-' => continue,
            'A'..='O' => (0, c as u8 - b'A' + 1),
            'a'..='o' => (1, c as u8 - b'a' + 1),
            _ => return Err(format!("the XGID's board has `{c}`: `-`, A-O or a-o")),
        };
        let place = match (i, side) {
            (0, 1) | (25, 0) => BAR,
            (0, _) | (25, _) => {
                return Err("the XGID's board has a checker on the other player's bar".into())
            }
            (n, 0) => n,
            (n, _) => POINTS + 1 - n,
        };
        sides[side][place] = count;
    }
    if sides
        .iter()
        .any(|s| s.iter().map(|&c| u32::from(c)).sum::<u32>() > 15)
    {
        return Err("the XGID gives a side more than 15 checkers".into());
    }
    Ok(Xgid {
        sides,
        to_move,
        dice,
        stakes,
    })
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
    fn the_start_as_an_xgid_and_back() {
        let start = side("24:2 13:5 8:3 6:5");
        let text = xgid(&[start, start], 0, None, &Stakes::default()).unwrap();
        assert_eq!(text, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10");
        let x = read_xgid(&text).unwrap();
        assert_eq!((x.sides, x.to_move, x.dice), ([start, start], 0, None));
        let moved = side("24:2 13:5 8:2 6:3 3:2 bar:1");
        let stakes = Stakes {
            cube: 1,
            owner: Some(1),
            scores: [3, 5],
            flag: 1,
            length: 7,
            max_cube: 10,
        };
        let text = xgid(&[start, moved], 1, Some([5, 2]), &stakes).unwrap();
        assert_eq!(
            text,
            "XGID=ab----E-C---eE---b-c--b-B-:1:-1:-1:52:3:5:1:7:10"
        );
        let x = read_xgid(&text).unwrap();
        assert_eq!(
            (x.sides, x.to_move, x.dice, x.stakes),
            ([start, moved], 1, Some([5, 2]), stakes)
        );
        for (bad, why) in [
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00", "not an XGID"),
            (
                "XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10",
                "25 characters",
            ),
            (
                "XGID=-b----E-C---eE---c-e----Z-:0:0:1:00:0:0:0:0:10",
                "has `Z`",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10",
                "turn",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10",
                "cube actions",
            ),
            (
                "XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
                "other player's bar",
            ),
            (
                "XGID=-o----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
                "more than 15",
            ),
        ] {
            let e = read_xgid(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn gnubgs_match_ids() {
        // A money game's start under the Jacoby rule, the player on roll (GNU Backgammon's
        // player 0, the top) to play 4-1; and a 7-point match at 3-2 (bottom first) with the cube at 2 the bottom
        // player's, the bottom player on roll: as GNU Backgammon shows them.
        let start = MatchState {
            stakes: Stakes {
                flag: 1,
                ..Stakes::default()
            },
            on_roll: 1,
            turn: 1,
            doubled: false,
            dice: Some([4, 1]),
            game_state: 1,
        };
        assert_eq!(match_id(&start), "MAEGAAAAAAAA");
        let m = MatchState {
            stakes: Stakes {
                cube: 1,
                owner: Some(0),
                scores: [3, 2],
                flag: 0,
                length: 7,
                max_cube: 10,
            },
            on_roll: 0,
            turn: 0,
            doubled: false,
            dice: None,
            game_state: 1,
        };
        assert_eq!(match_id(&m), "UQngACAAGAAE");
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
