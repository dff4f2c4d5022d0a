//! GNU Backgammon's `.sgf` files (Smart Game Format, game 6: backgammon), read into the games
//! and actions a `.mat` file gives: one game tree a game, its root saying the match (`MI`:
//! length and score; `PW`, `PB`: the players; `RE`: the result, `R` at its end for a
//! resignation), each node after it one action: `W[52lqac]` (the dice, then each checker's
//! from and to point as letters: `a`..`x` the points in the mover's own order, `y` the bar,
//! `z` off), `B[double]`, `W[take]`, `B[drop]`, or `PL[B]DI[62]` (dice rolled, no move yet).

use super::{Action, MatGame, Parsed};
use ludus_core::game::CubeAction;
use ludus_core::limits::excerpt;

/// A node: its properties, each a name and its values, and the line it begins on.
struct Node {
    line: usize,
    properties: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, name: &str) -> Option<&[String]> {
        (self.properties.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

/// The game trees of `text`, each its nodes in order.
fn trees(text: &str) -> Result<Vec<Vec<Node>>, (usize, String)> {
    let bytes = text.as_bytes();
    let line_at = |i: usize| 1 + bytes[..i].iter().filter(|&&b| b == b'\n').count();
    let mut trees: Vec<Vec<Node>> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' if depth == 0 => {
                depth = 1;
                trees.push(Vec::new());
                i += 1;
            }
            b'(' => {
                return Err((
                    line_at(i),
                    "a variation: only the line of play is read".into(),
                ))
            }
            b')' if depth == 1 => {
                depth = 0;
                i += 1;
            }
            b';' if depth == 1 => {
                let line = line_at(i);
                i += 1;
                let mut properties = Vec::new();
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    let start = i;
                    while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    if start == i {
                        break;
                    }
                    let name = text[start..i].to_string();
                    let mut values = Vec::new();
                    loop {
                        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                            i += 1;
                        }
                        if bytes.get(i) != Some(&b'[') {
                            break;
                        }
                        i += 1;
                        let mut value = Vec::new();
                        loop {
                            match bytes.get(i) {
                                None => return Err((line, format!("`{name}[` is not closed"))),
                                Some(b']') => break,
                                Some(b'\\') => {
                                    value.extend(bytes.get(i + 1));
                                    i += 2;
                                }
                                Some(&b) => {
                                    value.push(b);
                                    i += 1;
                                }
                            }
                        }
                        i += 1;
                        values.push(String::from_utf8_lossy(&value).into_owned());
                    }
                    if values.is_empty() {
                        return Err((line, format!("`{}` has no value", excerpt(&name))));
                    }
                    properties.push((name, values));
                }
                if let Some(tree) = trees.last_mut() {
                    tree.push(Node { line, properties });
                }
            }
            b if b.is_ascii_whitespace() => i += 1,
            _ => {
                let rest: String = text[i..].chars().take(20).collect();
                return Err((
                    line_at(i),
                    format!(
                        "`{}` is not SGF (a game tree in parentheses of `;` nodes)",
                        excerpt(&rest)
                    ),
                ));
            }
        }
    }
    if depth != 0 {
        return Err((
            line_at(bytes.len()),
            "a game tree is not closed with `)`".into(),
        ));
    }
    Ok(trees)
}

/// The player a colour names: `W` is player 0 (White), `B` player 1.
fn player(colour: &str) -> Option<usize> {
    match colour {
        "W" => Some(0),
        "B" => Some(1),
        _ => None,
    }
}

/// A point letter in the mover's notation (`.mat`'s): its own point 1..24, 25 the bar, 0 off.
fn point(letter: u8, mover: usize) -> Option<u8> {
    match letter {
        b'a'..=b'x' if mover == 0 => Some(letter - b'a' + 1),
        b'a'..=b'x' => Some(24 - (letter - b'a')),
        b'y' => Some(25),
        b'z' => Some(0),
        _ => None,
    }
}

/// A move's value: `double`, `take`, `drop`, `beaver`, or the dice and the steps.
fn action(value: &str, mover: usize) -> Option<Action> {
    if let Some(cube) = CubeAction::from_word(value) {
        return matches!(
            cube,
            CubeAction::Double | CubeAction::Take | CubeAction::Drop | CubeAction::Beaver
        )
        .then_some(Action::Cube(cube));
    }
    let bytes = value.as_bytes();
    let die = |b: &u8| (b'1'..=b'6').contains(b).then(|| b - b'0');
    let dice = [die(bytes.first()?)?, die(bytes.get(1)?)?];
    let pairs = &bytes[2..];
    if !pairs.len().is_multiple_of(2) || pairs.len() > 8 {
        return None;
    }
    // A step from where an earlier one ended continues its checker (`10/9 9/3` is `10/9/3`):
    // the file names no hits, and the points passed say which blots were hit.
    let mut checkers: Vec<Vec<u8>> = Vec::new();
    for pair in pairs.chunks_exact(2) {
        let (from, to) = (point(pair[0], mover)?, point(pair[1], mover)?);
        match checkers.iter_mut().rev().find(|c| c.last() == Some(&from)) {
            Some(path) => path.push(to),
            None => checkers.push(vec![from, to]),
        }
    }
    let paths: Vec<String> = checkers
        .iter()
        .map(|c| c.iter().map(u8::to_string).collect::<Vec<_>>().join("/"))
        .collect();
    Some(Action::Turn {
        dice,
        steps: Some(paths.join(" ")),
    })
}

/// The games of a `.sgf` file as a `.mat` file would give them.
pub(super) fn parse(text: &str) -> Result<Parsed, (usize, String)> {
    let mut length = None;
    let mut names: Option<[String; 2]> = None;
    let mut games = Vec::new();
    for tree in trees(text)? {
        let Some((root, nodes)) = tree.split_first() else {
            continue;
        };
        let one = |name: &str| root.get(name).and_then(|v| v.first()).map(String::as_str);
        if one("GM").is_some_and(|g| g != "6") {
            return Err((root.line, "not a backgammon game (`GM[6]`)".into()));
        }
        for info in root.get("MI").unwrap_or(&[]) {
            if let Some(n) = info.strip_prefix("length:") {
                let n = n
                    .trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|n| (0..=99_999).contains(n));
                length = Some(n.ok_or((root.line, "`MI[length:N]`: N is 0 to 99999".to_string()))?);
            }
        }
        if names.is_none() {
            names = Some([
                one("PW").unwrap_or("White").to_string(),
                one("PB").unwrap_or("Black").to_string(),
            ]);
        }
        let mut game = MatGame {
            line: root.line,
            actions: Vec::new(),
        };
        for node in nodes {
            let setup = ["AB", "AW", "AE", "CV", "CP", "CO"];
            if let Some((name, _)) = node
                .properties
                .iter()
                .find(|(n, _)| setup.contains(&n.as_str()))
            {
                return Err((
                    node.line,
                    format!("`{name}` sets up a position by hand: only games played from the start are read"),
                ));
            }
            let moved = ["W", "B"]
                .into_iter()
                .find_map(|c| Some((c, node.get(c)?.first()?)));
            if let Some((colour, value)) = moved {
                let p = player(colour).unwrap_or(0);
                let act = action(value, p).ok_or((
                    node.line,
                    format!(
                        "`{colour}[{}]` is not a move or a cube action",
                        excerpt(value)
                    ),
                ))?;
                game.actions.push((p, act, node.line));
            } else if let (Some(pl), Some(dice)) = (node.get("PL"), node.get("DI")) {
                // Dice rolled and no move yet (a game that ended then).
                let p = pl
                    .first()
                    .and_then(|c| player(c))
                    .ok_or((node.line, "`PL` is W or B".to_string()))?;
                let d = dice.first().map(String::as_bytes).unwrap_or(&[]);
                let die =
                    |b: Option<&u8>| b.filter(|b| (b'1'..=b'6').contains(b)).map(|b| b - b'0');
                let (Some(a), Some(b)) = (die(d.first()), die(d.get(1))) else {
                    return Err((node.line, "`DI` is two dice, 1 to 6".into()));
                };
                game.actions.push((
                    p,
                    Action::Turn {
                        dice: [a, b],
                        steps: None,
                    },
                    node.line,
                ));
            }
        }
        if let Some(result) = one("RE") {
            let bad = || {
                (
                    root.line,
                    format!("`RE[{}]` is not a result (W+2, B+1R)", excerpt(result)),
                )
            };
            let (colour, rest) = result.split_once('+').ok_or_else(bad)?;
            let winner = player(colour).ok_or_else(bad)?;
            let digits = rest.strip_suffix('R').unwrap_or(rest);
            let points = digits.parse::<i32>().map_err(|_| bad())?;
            let line = nodes.last().map_or(root.line, |n| n.line);
            game.actions.push((winner, Action::Wins(points), line));
        }
        games.push(game);
    }
    if games.is_empty() {
        return Err((
            1,
            "no game: an `.sgf` file has one game tree `(;FF[4]GM[6]…)` a game".into(),
        ));
    }
    let names = names.unwrap_or_else(|| ["White".into(), "Black".into()]);
    Ok((length.unwrap_or(0), names, games))
}
