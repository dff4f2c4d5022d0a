//! `ludus replay FILE` and `ludus export FILE --format mat`: a record checked against its rules
//! move by move, its positions shown, or its games written for other programs.

use crate::say;
use anyhow::{anyhow, bail, Context, Result};
use ludus_core::game::{CubeAction, Game, Json, Notation, Phase, View};
use ludus_core::limits::{excerpt, Limits};
use ludus_core::rules::{Source, SourceError};
use ludus_players::Spec;
use ludus_table::record::{self, Event, Header};
use ludus_table::registry::{self, AnyGame, AnyState};
use ludus_table::table;
use serde_json::Value;
use std::io::BufReader;
use std::path::Path;

/// The record's header and the rules it was played by: the rules file named in the header
/// (bundled, or a path as given, else beside the record), or `rules` when given; refused when
/// the text is not the one the record was made with.
fn open(file: &Path, rules: Option<&str>) -> Result<(Header, AnyGame, BufReader<std::fs::File>)> {
    let f = std::fs::File::open(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut input = BufReader::new(f);
    let header = record::read_header(&mut input).map_err(|e| located(file, &e))?;
    let name = rules.unwrap_or(&header.rules);
    let beside = file.parent().unwrap_or(Path::new(".")).join(name);
    let name = match Source::find(name) {
        Err(SourceError::NotFound { .. }) if rules.is_none() => beside.to_string_lossy().into(),
        _ => name.to_string(),
    };
    let shown = excerpt(&name);
    let (source, game) = registry::load(&name)
        .map_err(|e| anyhow!("{}: the record's rules `{shown}`: {e}", file.display()))?;
    if source.digest() != header.digest {
        bail!(
            "{}: the rules `{shown}` are not the text the record was made with (the file changed \
             since; give the original with --rules FILE)",
            file.display()
        );
    }
    Ok((header, game, input))
}

fn located(file: &Path, e: &record::RecordError) -> anyhow::Error {
    anyhow!("{}:{}: {}", file.display(), e.line, e.message)
}

/// `ludus replay FILE [--ply N] [--svg DIR]`.
pub fn replay(
    file: &Path,
    ply: Option<u32>,
    rules: Option<&str>,
    svg: Option<&Path>,
    limits: &Limits,
) -> Result<bool> {
    let (header, game, mut input) = open(file, rules)?;
    if let Some(dir) = svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    }
    show(game, file, header, &mut input, ply, svg, limits)
}

fn show(
    game: AnyGame,
    file: &Path,
    header: Header,
    input: &mut BufReader<std::fs::File>,
    ply: Option<u32>,
    svg: Option<&Path>,
    limits: &Limits,
) -> Result<bool> {
    say!(
        "{} ({}) – {} ({}), seed {}",
        game.player_names()[0],
        header.players[0],
        game.player_names()[1],
        header.players[1],
        header.seed.map_or("none".into(), |s| s.to_string())
    );
    let mut out: Vec<String> = Vec::new();
    let mut pictures: Vec<(u32, String)> = Vec::new();
    let mut shown = false;
    let mut last = (0, 0);
    let seats = [Spec::Human, Spec::Human];
    let names = game.player_names().map(String::from);
    let result = table::replay(game, header, seats, input, limits.record_events, |r| {
        let (step, game) = (r.step(), r.table.game());
        last = (r.ply, step.game);
        if ply.is_some_and(|n| n != r.ply) {
            return;
        }
        shown = true;
        if svg.is_some() {
            pictures.push((r.ply, game.svg(&step.state, 0)));
        }
        let what = match &step.event {
            Event::Game { game: g, first, .. } => {
                format!("game {g}: {} starts", game.player_names()[*first])
            }
            Event::Roll { roll } => format!("rolled {roll:?}"),
            Event::Move { text } => format!("played {text}"),
            Event::Undo { undo } => format!("took back {undo}"),
            Event::Agreed { .. } => "ended by agreement".into(),
            Event::Resigned { resigned } => resigned.reason().into(),
            Event::End { .. } => String::new(),
        };
        out.push(format!(
            "\n-- ply {} (line {}): {what}\n{}",
            r.ply,
            r.line,
            game.render(&step.state, 0).trim_end()
        ));
    });
    for block in &out {
        say!("{block}");
    }
    if let Some(dir) = svg {
        // An undo returns to an earlier ply: its picture is drawn again over the old one.
        for (ply, picture) in &pictures {
            let path = dir.join(format!("ply-{ply:04}.svg"));
            std::fs::write(&path, picture)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    let end = result.map_err(|e| located(file, &e))?;
    if let Some(n) = ply {
        if !shown {
            bail!(
                "{}: no ply {n}: the record has {} roll(s) and move(s)",
                file.display(),
                last.0
            );
        }
        return Ok(true);
    }
    let outcome = end.state().ok().and_then(|s| end.game().outcome(s));
    let verdict = match outcome {
        Some(o) => match o.winner {
            Some(w) => format!("{} won ({})", names[w], o.reason),
            None => format!("drawn ({})", o.reason),
        },
        None => "the last game is not over".into(),
    };
    say!(
        "\n{}: {} roll(s) and move(s) in {} game(s), every one legal; {verdict}.",
        file.display(),
        last.0,
        last.1
    );
    Ok(true)
}

/// `ludus export FILE --format mat`: the games of a backgammon-like record in the Jellyfish
/// `.mat` text that GNU Backgammon imports (`import mat FILE`): a match to its target, or else
/// a money session; the doubling cube's actions and each game's result included.
pub fn export_mat(file: &Path, rules: Option<&str>, limits: &Limits) -> Result<bool> {
    let (header, game, mut input) = open(file, rules)?;
    if let Err(why) = game.as_backgammon() {
        bail!(
            "{}: `.mat` holds backgammon games (24 points, 15 checkers a side from backgammon's \
             start, hitting to the bar, two six-sided dice); `{}` is not one: {why}",
            file.display(),
            excerpt(game.name())
        );
    }
    let mut games: Vec<MatGame> = Vec::new();
    let names = game.player_names().map(String::from);
    let mut before: Option<AnyState> = None;
    let mut beaver = false;
    let seats = [Spec::Human, Spec::Human];
    let result = table::replay(game, header, seats, &mut input, limits.record_events, |r| {
        let (step, game) = (r.step(), r.table.game());
        match &step.event {
            Event::Game { .. } => games.push(MatGame {
                points: game
                    .match_standing(&step.state)
                    .map_or([0; 2], |m| m.points),
                cells: Vec::new(),
                won: None,
            }),
            Event::Move { text } => {
                if let (Some(b), Some(g)) = (&before, games.last_mut()) {
                    let cell = cell(game, b, text);
                    beaver |= cell.text.starts_with(" Beaver");
                    // Rolling without doubling is written by the roll itself: kept (empty) so
                    // that `undo` counts it.
                    g.cells.push(Some(cell));
                }
            }
            Event::Roll { .. } => {
                if let Some(g) = games.last_mut() {
                    g.cells.push(None);
                }
            }
            Event::Undo { undo } => {
                if let Some(g) = games.last_mut() {
                    g.cells
                        .truncate(g.cells.len().saturating_sub(*undo as usize));
                }
            }
            _ => {}
        }
        if let Some(g) = games.last_mut() {
            g.won = game
                .outcome(&step.state)
                .and_then(|o| o.winner.map(|w| (w, o.scores[w])));
        }
        before = Some(step.state.clone());
    });
    let end = result.map_err(|e| located(file, &e))?;
    if beaver {
        bail!(
            "{}: a beaver has no `.mat` form GNU Backgammon reads; the record cannot be exported",
            file.display()
        );
    }
    let target = (end.state().ok())
        .and_then(|s| end.game().match_standing(s))
        .and_then(|m| m.target)
        .unwrap_or(0);
    let mut text = format!(" {target} point match\n");
    for (g, played) in games.iter().enumerate() {
        text.push_str(&format!("\n Game {}\n", g + 1));
        text.push_str(&format!(
            " {:<27} : {} {:<27} : {}\n",
            names[0], played.points[0], names[1], played.points[1]
        ));
        let mut rows: Vec<[String; 2]> = Vec::new();
        let put = |player: usize, cell: String, rows: &mut Vec<[String; 2]>| match rows.last_mut() {
            Some(row) if player == 1 && row[1].is_empty() => row[1] = cell,
            _ if player == 1 => rows.push([String::new(), cell]),
            _ => rows.push([cell, String::new()]),
        };
        for c in played.cells.iter().flatten().filter(|c| !c.text.is_empty()) {
            put(c.player, c.text.clone(), &mut rows);
        }
        let mut wins = None;
        if let Some((w, points)) = played.won {
            let s = if points == 1 { "" } else { "s" };
            let cell = format!(" Wins {points} point{s}");
            match rows.last_mut() {
                Some(row) if row[w].is_empty() && (w == 1 || row[1].is_empty()) => row[w] = cell,
                _ => wins = Some((w, cell)),
            }
        }
        for (n, [left, right]) in rows.iter().enumerate() {
            // A row of a result alone is written without its number.
            if left.starts_with(" Wins") || (left.is_empty() && right.starts_with(" Wins")) {
                text.push_str(&format!("     {}\n", columns(left, right)));
            } else {
                text.push_str(&format!("{:3}) {}\n", n + 1, columns(left, right)));
            }
        }
        if let Some((w, cell)) = wins {
            let (left, right) = if w == 0 {
                (cell, String::new())
            } else {
                (String::new(), cell)
            };
            text.push_str(&format!("     {}\n", columns(&left, &right)));
        }
    }
    say!("{}", text.trim_end());
    Ok(true)
}

/// A row's two cells: the left one in 28 columns, or followed by a space when longer (four
/// steps that hit fill more).
fn columns(left: &str, right: &str) -> String {
    let width = 28.max(left.len() + 1);
    format!("{left:<width$}{right}")
}

/// One game of a `.mat` export: the match points before it, a cell per move (`None` per roll,
/// so that `undo` takes back the right ones) and who won it for how many points.
struct MatGame {
    points: [i32; 2],
    cells: Vec<Option<Cell>>,
    won: Option<(usize, i32)>,
}

/// What a move writes in its player's column of a `.mat`: the dice and steps (`63: 24/18
/// 13/10`), or the cube's action (` Doubles => 2`, ` Takes`, ` Drops`).
struct Cell {
    player: usize,
    text: String,
}

fn cell(game: &AnyGame, before: &AnyState, text: &str) -> Cell {
    let player = match game.phase(before) {
        Phase::Move(p) => p,
        _ => 0,
    };
    let json = game.state_json(before);
    let mv = game.parse_move(before, text).ok();
    if let Some(action) = mv.as_ref().and_then(|m| game.cube_action(m)) {
        let value = json["cube"]["value"].as_i64().unwrap_or(1);
        let text = match action {
            CubeAction::Double => format!(" Doubles => {}", 2 * value),
            CubeAction::Take => " Takes".into(),
            CubeAction::Drop => " Drops".into(),
            CubeAction::Beaver => format!(" Beavers => {}", 4 * value),
            // Rolling without doubling is written by the roll itself.
            CubeAction::Roll => String::new(),
        };
        return Cell { player, text };
    }
    let dice: String = json["dice"]
        .as_array()
        .map(|d| d.iter().take(2).map(|v| v.to_string()).collect())
        .unwrap_or_default();
    // The opponent's checkers by the mover's point numbers, to mark the steps that hit (`*`).
    let mut theirs = [0i64; 25];
    for (n, c) in json["points"][1 - player]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        theirs[24 - n] = c.as_i64().unwrap_or(0);
    }
    let steps = match mv {
        Some(mv) => game.move_json(before, &mv)["steps"]
            .as_array()
            .map(|steps| {
                steps
                    .iter()
                    .map(|s| {
                        let to = s[1].as_u64().map_or(0, |n| n as usize).min(24);
                        let hit = to > 0 && theirs[to] == 1;
                        if hit {
                            theirs[to] = 0;
                        }
                        let star = if hit { "*" } else { "" };
                        format!("{}/{}{star}", mat_point(&s[0]), mat_point(&s[1]))
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default(),
        None => String::new(),
    };
    Cell {
        player,
        text: format!("{dice}: {steps}"),
    }
}

fn mat_point(v: &Value) -> String {
    match v {
        Value::String(s) if s == "bar" => "25".into(),
        Value::String(s) if s == "off" => "0".into(),
        other => other.to_string(),
    }
}

/// `ludus review FILE [--player SPEC]`: each player's decisions in a record searched by a
/// reviewing player (by default `net` where the rules name a network, else `alphabeta:1s`),
/// the loss of each against the reviewer's best summed per player, and the largest listed.
pub fn review(
    file: &Path,
    rules: Option<&str>,
    player: Option<&str>,
    limits: &Limits,
) -> Result<bool> {
    use ludus_core::game::Evaluator;
    use ludus_players::review::{self, rating, WORTH_LISTING};
    let (header, game, mut input) = open(file, rules)?;
    let reviewer: Spec = match player {
        Some(text) => text.parse().map_err(|e| anyhow!("--player: {e}"))?,
        None if game.names_network() => ludus_players::NetPlayer::default().into(),
        None => "alphabeta:1s".parse().map_err(|e| anyhow!("{e}"))?,
    };
    let Some(search) = reviewer.search() else {
        bail!("--player {reviewer}: a reviewer must search (net, alphabeta or mcts)");
    };
    let players = header.players.clone();
    let seats = [Spec::Human, Spec::Human];
    let end = table::replay(
        game,
        header,
        seats,
        &mut input,
        limits.record_events,
        |_| {},
    )
    .map_err(|e| located(file, &e))?;
    let game = end.game();
    // Each move of the line of play with the position it was played in, its game and ply.
    let mut decisions: Vec<(AnyState, usize)> = Vec::new();
    let mut places: Vec<(u32, usize)> = Vec::new();
    let mut moves = Vec::new();
    for (ply, pair) in end.steps().windows(2).enumerate() {
        let (before, step) = (&pair[0], &pair[1]);
        let Event::Move { text } = &step.event else {
            continue;
        };
        let Ok(mv) = game.parse_move(&before.state, text) else {
            continue;
        };
        game.legal_moves(&before.state, &mut moves);
        if let Some(i) = moves.iter().position(|m| *m == mv) {
            decisions.push((before.state.clone(), i));
            places.push((step.game, ply + 1));
        }
    }
    let Some((found, tallies)) = review::review(game, &decisions, reviewer) else {
        bail!("--player {reviewer}: it gives no values to review by");
    };
    let names = game.player_names();
    say!("Review by {reviewer} ({}):", search.scale);
    let equities = matches!(reviewer, Spec::Net(_)) && game.names_network();
    let cubed = decisions.iter().any(|(s, _)| game.cube(s).is_some());
    for (p, t) in tallies.iter().enumerate() {
        let rated = if equities {
            format!(" ({})", rating(t.rate()))
        } else {
            String::new()
        };
        let cube = if cubed {
            format!(
                "; {} cube decisions, loss {:.3}",
                t.cube_decisions, t.cube_loss
            )
        } else {
            String::new()
        };
        say!(
            "  {} ({}): {} unforced moves, loss {:.3}, {:.1} thousandths a move{rated}{cube}",
            names[p],
            players[p],
            t.unforced,
            t.move_loss,
            t.rate(),
        );
    }
    let mut worst: Vec<_> = found.iter().filter(|r| r.loss >= WORTH_LISTING).collect();
    worst.sort_by(|a, b| b.loss.total_cmp(&a.loss));
    if !worst.is_empty() {
        say!("Decisions that lost {WORTH_LISTING} or more, largest first (in the mover's numbering):");
    }
    for r in worst.iter().take(20) {
        let (g, ply) = places[r.at];
        let (state, _) = &decisions[r.at];
        game.legal_moves(state, &mut moves);
        let text = |i: usize| game.move_text_seen_by(state, &moves[i], r.player);
        say!(
            "  game {g}, ply {ply}: {} played {}; best {} (−{:.3})",
            names[r.player],
            text(r.played),
            text(r.best),
            r.loss
        );
    }
    Ok(true)
}
