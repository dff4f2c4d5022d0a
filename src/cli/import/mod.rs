//! `ludus import FILE`: a match or money session in the Jellyfish `.mat` text (as GNU
//! Backgammon and most backgammon programs export them) or GNU Backgammon's own `.sgf` turned
//! into a Ludus record, every roll, move and cube action checked against the rules as it is
//! played; a record that then replays, shows and exports like one played here.

mod sgf;

use crate::say;
use anyhow::{anyhow, bail, Context, Result};
use ludus_core::game::{CubeAction, Game, Notation, Phase, Resignation};
use ludus_core::limits::{excerpt, Limits};
use ludus_players::Spec;
use ludus_table::record::{Header, FORMAT};
use ludus_table::registry;
use ludus_table::table::Table;
use std::path::Path;

/// The largest `.mat` file read: far beyond any match played.
const MAX_BYTES: u64 = 16 << 20;

/// What one cell of a `.mat` row says a player did.
#[derive(Debug, PartialEq)]
enum Action {
    /// A roll and the steps played with it (`63: 24/18 13/10`; none when no move was possible;
    /// `None`: rolled, and the game ended before a move).
    Turn {
        dice: [u8; 2],
        steps: Option<String>,
    },
    Cube(CubeAction),
    /// The end of the game: the player of this column wins these points.
    Wins(i32),
}

/// One game of the file: its number, where it begins, and each action with its player and line.
struct MatGame {
    line: usize,
    actions: Vec<(usize, Action, usize)>,
}

/// What `ludus import` was told besides the file.
pub struct Options<'a> {
    /// The rules the games were played by.
    pub rules: Option<&'a str>,
    /// Where the record goes (else standard output).
    pub output: Option<&'a Path>,
    /// The one game of a money session to import (from 1).
    pub game: Option<usize>,
}

/// `ludus import FILE`: the record on standard output, or in `output`.
pub fn import(file: &Path, opts: Options, limits: &Limits) -> Result<bool> {
    let Options {
        rules,
        output,
        game: chosen,
    } = opts;
    let shown = file.display();
    let size = std::fs::metadata(file)
        .with_context(|| format!("cannot read {shown}"))?
        .len();
    if size > MAX_BYTES {
        bail!("{shown}: {size} bytes; a `.mat` file is read up to {MAX_BYTES} bytes");
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {shown}"))?;
    let text = String::from_utf8_lossy(&bytes);
    // GNU Backgammon's own format begins with its first game tree.
    let parsed = match text.trim_start().starts_with("(;") {
        true => sgf::parse(&text),
        false => parse(&text),
    };
    let (length, names, mut games) =
        parsed.map_err(|(line, why)| anyhow!("{shown}:{line}: {why}"))?;
    let name = match (rules, length) {
        (Some(r), _) => r.to_string(),
        (None, 0) => "backgammon-money".into(),
        (None, 7) => "backgammon-match".into(),
        (None, n) => bail!(
            "{shown}: a match to {n} points: give a rules file for it with --rules (a copy of \
             the bundled rules/backgammon-match.toml with `target = {n}`)"
        ),
    };
    let (source, game) =
        registry::load(&name).map_err(|e| anyhow!("--rules {}: {e}", excerpt(&name)))?;
    game.as_backgammon().map_err(|why| {
        anyhow!(
            "`{}` is not backgammon as `.mat` files hold it: {why}",
            excerpt(&name)
        )
    })?;
    let target = game
        .match_standing(&game.new_game(0))
        .and_then(|m| m.target)
        .unwrap_or(0);
    if target != length {
        bail!(
            "{shown}: a {}; the rules `{}` play {}",
            match length {
                0 => "money session".to_string(),
                n => format!("match to {n} points"),
            },
            excerpt(&name),
            match target {
                0 => "single games".to_string(),
                n => format!("a match to {n} points"),
            }
        );
    }
    // A record holds one game of rules without a match: a session's games one at a time.
    let count = games.len();
    match (chosen, target) {
        (Some(_), 1..) => bail!(
            "--game: a match's record holds all its games; --game picks a game of a money session"
        ),
        (Some(k), _) if !(1..=count).contains(&k) => {
            bail!("--game {k}: {shown} holds games 1 to {count}")
        }
        (Some(k), _) => games = vec![games.swap_remove(k - 1)],
        (None, 0) if count > 1 => bail!(
            "{shown}: a money session of {count} games; a record holds one game of `{}`: import \
             each with --game K (1 to {count})",
            excerpt(&name)
        ),
        (None, _) => {}
    }
    let header = Header {
        record: FORMAT.into(),
        rules: name.clone(),
        digest: source.digest(),
        seed: None,
        players: names.clone(),
    };
    let mut table = Table::new(game, header, [Spec::Human, Spec::Human], None)
        .with_max_steps(limits.record_events);
    table.name_players(names);
    for (g, played) in games.iter().enumerate() {
        let first = played.actions.first().map_or(0, |a| a.0);
        let started = match g {
            0 => Ok(table.start(Some(first))),
            _ => table.next_game(Some(first)),
        };
        started.map_err(|e| anyhow!("{shown}:{}: game {}: {}", played.line, g + 1, e.message()))?;
        for (player, action, line) in &played.actions {
            let at = |why: String| anyhow!("{shown}:{line}: {why}");
            if let Some(warning) = play(&mut table, *player, action).map_err(at)? {
                eprintln!("{shown}:{line}: warning: {warning}");
            }
        }
    }
    let record = table
        .record()
        .map_err(|e| anyhow!("{shown}: {}", e.message()))?;
    match output {
        Some(path) => std::fs::write(path, record)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => say!("{}", record.trim_end()),
    }
    Ok(true)
}

/// Plays one action of `player` at the table: a turn rolls its dice (after choosing not to
/// double, where the player could) and plays its steps; a result is checked: a winner other
/// than the rules' is an error, other points (rules that score otherwise) a warning.
fn play(table: &mut Table, player: usize, action: &Action) -> Result<Option<String>, String> {
    let names = table.game().player_names().map(String::from);
    let state = table.state().map_err(|e| e.message().to_string())?;
    let game = table.game();
    let phase = game.phase(state);
    let awaits = |p: usize| matches!(phase, Phase::Move(q) | Phase::Roll(q) if q == p);
    if !matches!(action, Action::Wins(_)) && !awaits(player) {
        return Err(format!(
            "{} acts, but {}",
            names[player],
            match phase {
                Phase::Over => "the game is over".to_string(),
                Phase::Move(q) | Phase::Roll(q) => format!("it is {}'s turn", names[q]),
            }
        ));
    }
    let refused = |e: ludus_table::table::Refusal| e.message().to_string();
    match action {
        Action::Turn { dice, steps } => {
            if matches!(phase, Phase::Move(_)) {
                // A cube decision the file leaves unsaid: the player rolled.
                table.play("roll").map_err(refused)?;
            }
            table.roll(Some(dice)).map_err(refused)?;
            let Some(steps) = steps else {
                return Ok(None);
            };
            let text = match steps.is_empty() {
                true => "pass".to_string(),
                false => steps
                    .split_whitespace()
                    .map(|s| s.replace("25/", "bar/").replace("/0", "/off"))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            table.play(&text).map_err(refused).map(|()| None)
        }
        Action::Cube(a) => table.play(a.word()).map_err(refused).map(|()| None),
        Action::Wins(points) => {
            let outcome = game.outcome(state);
            match outcome {
                Some(o) if o.winner == Some(player) && o.scores[player] == *points => Ok(None),
                Some(o) if o.winner == Some(player) => Ok(Some(format!(
                    "the file says {} wins {points} point(s); by the rules {} (imported as the rules score it)",
                    names[player], o.scores[player]
                ))),
                Some(o) => Err(format!(
                    "the file says {} wins {points} point(s); by the rules {}",
                    names[player],
                    match o.winner {
                        Some(w) => format!("{} wins {}", names[w], o.scores[w]),
                        None => "the game is drawn".into(),
                    }
                )),
                None => resign(table, player, *points),
            }
        }
    }
}

/// A game the file ends before it is over, won by `player` for `points`: the loser's
/// resignation, of a single game, a gammon or a backgammon at the cube.
fn resign(table: &mut Table, player: usize, points: i32) -> Result<Option<String>, String> {
    let names = table.game().player_names().map(String::from);
    let state = table.state().map_err(|e| e.message().to_string())?;
    let loser = 1 - player;
    let early = |why: String| {
        format!(
            "the file says {} wins {points} point(s) before the game is over, {why}",
            names[player]
        )
    };
    if table.game().phase(state).to_move() != Some(loser) {
        return Err(early(format!(
            "but {} could not resign: it is not their turn",
            names[loser]
        )));
    }
    let cube = table.game().cube(state).map_or(1, |c| c.value);
    // Under the Jacoby rule a gammon conceded at 1 scores 1: the smallest level that scores
    // the points is the one recorded.
    let level = Resignation::ALL.into_iter().find(|&r| {
        let mut ended = state.clone();
        table.game().resign(&mut ended, r)
            && table
                .game()
                .outcome(&ended)
                .is_some_and(|o| o.scores[player] == points)
    });
    let Some(level) = level else {
        return Err(early(format!(
            "and no resignation scores that at a cube of {cube}"
        )));
    };
    let refused = |e: ludus_table::table::Refusal| e.message().to_string();
    table
        .resign(level, Some(true))
        .map_err(refused)
        .map(|_| None)
}

/// The file's match length (0: money), the players' names (the left column first) and its
/// games; an error is the line and why.
type Parsed = (i32, [String; 2], Vec<MatGame>);

fn parse(text: &str) -> Result<Parsed, (usize, String)> {
    let mut length = None;
    let mut names: Option<[String; 2]> = None;
    let mut games: Vec<MatGame> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        if let Some(n) = trimmed.strip_suffix("point match") {
            let n = n
                .trim()
                .parse::<i32>()
                .ok()
                .filter(|n| (0..=99_999).contains(n));
            length = Some(n.ok_or((
                line,
                "a match length is 0 (money) to 99999 points".to_string(),
            ))?);
            continue;
        }
        if let Some(n) = trimmed.strip_prefix("Game ") {
            if n.trim().parse::<u32>().is_err() {
                return Err((line, format!("`{}` is not `Game N`", excerpt(trimmed))));
            }
            games.push(MatGame {
                line,
                actions: Vec::new(),
            });
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err((
                line,
                format!("`{}` before the first `Game 1`", excerpt(trimmed)),
            ));
        };
        // The scores before the game: `White : 0    Black : 2`.
        if trimmed.matches(" : ").count() == 2 && !trimmed.contains(')') {
            let parts: Vec<&str> = trimmed.split(" : ").collect();
            let first = parts[0].trim().to_string();
            let (_, second) = parts[1]
                .trim()
                .split_once(char::is_whitespace)
                .unwrap_or(("", ""));
            if names.is_none() {
                names = Some([first, second.trim().to_string()]);
            }
            continue;
        }
        // A row: `  3) 52: 13/8 6/4               63: 24/18 13/10`, maybe without its number
        // (`Wins 2 points` alone).
        let body = match trimmed.split_once(')') {
            Some((n, _)) if n.trim().parse::<u32>().is_ok() => {
                let at = raw.find(')').map_or(0, |i| i + 1);
                (&raw[at..], at)
            }
            _ => (raw, 0),
        };
        let unread = |text: &str| {
            (
                line,
                format!(
                    "`{}` is not a move, a cube action or a result",
                    excerpt(text)
                ),
            )
        };
        for (column, cell) in cells(body.0, body.1).map_err(unread)? {
            let action = read_cell(cell).ok_or((
                line,
                format!(
                    "`{}` is not a move, a cube action or a result",
                    excerpt(cell)
                ),
            ))?;
            game.actions.push((column, action, line));
        }
    }
    let names = names.unwrap_or_else(|| ["White".into(), "Black".into()]);
    if games.is_empty() {
        return Err((
            1,
            "no game: a `.mat` file has ` Game 1` and its moves".into(),
        ));
    }
    Ok((length.unwrap_or(0), names, games))
}

/// The cells of a row's `body` (which starts at column `offset` of its line), each with its
/// column: a cell that starts at or after column 30 is the right player's (the columns are 28
/// characters wide after the row number). Text before the first cell is an error (what it is).
fn cells(body: &str, offset: usize) -> Result<Vec<(usize, &str)>, &str> {
    let starts = |i: usize, rest: &str| {
        let word = rest.split_whitespace().next().unwrap_or("");
        let is_turn =
            word.len() == 3 && word.ends_with(':') && word[..2].bytes().all(|b| b.is_ascii_digit());
        let is_word = ["Doubles", "Takes", "Drops", "Passes", "Beavers", "Wins"].contains(&word);
        let at_word = i == 0 || body.as_bytes()[i - 1] == b' ';
        at_word && (is_turn || is_word) && !rest.starts_with(' ')
    };
    let begins: Vec<usize> = (0..body.len())
        .filter(|&i| body.is_char_boundary(i) && starts(i, &body[i..]))
        .collect();
    let before = body[..begins.first().copied().unwrap_or(body.len())].trim();
    if !before.is_empty() {
        return Err(before);
    }
    let mut out = Vec::new();
    for (k, &b) in begins.iter().enumerate() {
        let end = begins.get(k + 1).copied().unwrap_or(body.len());
        let column = usize::from(offset + b >= 30);
        out.push((column, body[b..end].trim()));
    }
    Ok(out)
}

/// A cell read: `63: 24/18 13/10`, `Doubles => 2`, `Takes`, `Drops`, `Wins 2 points`.
fn read_cell(cell: &str) -> Option<Action> {
    let mut words = cell.split_whitespace();
    let first = words.next()?;
    match first {
        "Doubles" => Some(Action::Cube(CubeAction::Double)),
        "Beavers" => Some(Action::Cube(CubeAction::Beaver)),
        "Takes" => Some(Action::Cube(CubeAction::Take)),
        "Drops" | "Passes" => Some(Action::Cube(CubeAction::Drop)),
        "Wins" => words.next()?.parse().ok().map(Action::Wins),
        dice => {
            let d = dice.strip_suffix(':')?.as_bytes();
            let die = |b: u8| (b'1'..=b'6').contains(&b).then(|| b - b'0');
            let dice = [die(*d.first()?)?, die(*d.get(1)?)?];
            let steps: Vec<&str> = words.collect();
            steps
                .iter()
                .all(|s| {
                    s.bytes()
                        .all(|b| b.is_ascii_digit() || b"/*()".contains(&b))
                })
                .then(|| Action::Turn {
                    dice,
                    steps: Some(steps.join(" ")),
                })
        }
    }
}
