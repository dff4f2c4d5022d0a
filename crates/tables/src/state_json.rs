//! Reading a position in the protocol's STATE form (the protocol's `set`), rejecting
//! impossible ones: wrong totals, counts out of range, both sides on one point, dice that do
//! not fit the phase, a finished game not marked over (or the reverse).

use super::cube::{Cube, MIDDLE};
use super::movegen::{steps_left, Played, MAX_STEPS};
use super::position::{Lone, Position, Side, BAR, OFF, POOL, STACK_POINTS};
use super::{position_id, GameRules, Stage, TablesGame, TablesState};
use ludus_core::game::state::MatchFields;
use ludus_core::game::Crawford;
use ludus_core::game::{PhaseName, Resignation, StateFields};
use ludus_core::limits::LIMITS;
use serde_json::{json, Value};

fn count(v: &Value, what: &str) -> Result<u8, String> {
    v.as_u64()
        .filter(|&n| n <= 15)
        .map(|n| n as u8)
        .ok_or_else(|| format!("{what}: expected a count 0..15, got {v}"))
}

fn pair<'a>(value: &'a Value, field: &str) -> Result<[&'a Value; 2], String> {
    match value
        .get(field)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([a, b]) => Ok([a, b]),
        Some(_) => Err(format!("`{field}` must list the two players")),
        None => Err(format!("missing field `{field}` (a list of two)")),
    }
}

pub fn read(game: &TablesGame, value: &Value) -> Result<TablesState, String> {
    // An XGID gives the match's points itself: expanded before the shared fields are read
    // (`match.game`, when given, says which game of the match, and so which rules).
    if let Some(x) = value
        .get("xgid")
        .filter(|v| !v.is_null() && value.get("points").is_none())
    {
        let n = (value.pointer("/match/game").and_then(Value::as_u64))
            .map_or(1, |n| n.clamp(1, u64::from(LIMITS.games_per_match)) as u32);
        return read(game, &expand_xgid(game, game.rules_of(n), value, x)?);
    }
    let shared = StateFields::read(value, game.max_plies)?;
    // The game of the match first: in a rotation it says which rules the position follows.
    let standing_given = shared.match_.is_some();
    let (game_no, standing) = read_match(game, shared.match_)?;
    let rules = game.rules_of(game_no);
    // A STATE as the protocol writes it has `points` and the IDs: `points` and the rest are
    // read (a STATE edited by hand keeps its IDs as written).
    let given = |f: &str| {
        value
            .get(f)
            .filter(|v| !v.is_null() && value.get("points").is_none())
    };
    if let Some(id) = given("position_id") {
        return read(game, &expand_position_id(rules, value, id)?);
    }
    let mut pos = Position::default();
    read_sides(rules, value, &mut pos)?;
    read_pins(rules, value, &mut pos)?;
    read_remembered(rules, value, &mut pos)?;
    read_stacked(rules, value, &mut pos)?;
    let done: Vec<usize> = (0..2)
        .filter(|&p| pos.sides[p][OFF] == rules.checkers)
        .collect();
    let phase = shared
        .phase
        .ok_or("missing field `phase` (\"roll\", \"move\" or \"over\")")?;
    let dice: Vec<u8> = match value.get("dice") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(d)) => d
            .iter()
            .map(|x| {
                x.as_u64()
                    .filter(|n| (1..=u64::from(game.dice.faces)).contains(n))
                    .map(|n| n as u8)
                    .ok_or_else(|| format!("a die shows 1..{}, not {x}", game.dice.faces))
            })
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(format!("`dice` must be a list, got {other}")),
    };
    let mut state = game.start_of(game_no, 0);
    state.pos = pos;
    state.points = standing;
    state.plies = shared.ply;
    state.passes = rules_field(
        value,
        "passes",
        rules.end.passes.is_some(),
        "these rules draw no deadlock",
        "a count of turns",
        |v| v.as_u64().and_then(|n| u16::try_from(n).ok()),
    )?
    .unwrap_or(0);
    let count = |x: &Value| u16::try_from(x.as_u64()?).ok();
    state.scored = rules_field(
        value,
        "scored",
        !rules.score.is_empty(),
        "these rules score no points during play",
        "the two players' points scored during play, e.g. [5, 0]",
        |v| match v.as_array()?.as_slice() {
            [a, b] => Some([count(a)?, count(b)?]),
            _ => None,
        },
    )?
    .unwrap_or([0; 2]);
    let after = !rules.after.is_empty();
    let no_after = "these rules give no turn after a turn";
    state.follow = rules_field(value, "follow", after, no_after, "a count of turns", |v| {
        v.as_u64().and_then(|n| u8::try_from(n).ok())
    })?
    .unwrap_or(0);
    state.first = rules_field(
        value,
        "first",
        after,
        no_after,
        "a die (0 between turns)",
        |v| {
            v.as_u64()
                .filter(|&n| n <= u64::from(game.dice.faces))
                .map(|n| n as u8)
        },
    )?
    .unwrap_or(0);
    state.given = rules_field(
        value,
        "given",
        rules.unplayed_to_opponent,
        "these rules give no dice to the opponent",
        "true or false",
        Value::as_bool,
    )?
    .unwrap_or(false);
    if state.given && state.follow > 0 {
        return Err("dice cannot be both given by the opponent and by `[[dice.after]]`".into());
    }
    state.optional = rules_field(
        value,
        "optional",
        rules.after.iter().any(|a| a.optional),
        "these rules give no optional dice",
        "true or false",
        Value::as_bool,
    )?
    .unwrap_or(false);
    if state.optional && state.follow == 0 {
        return Err("`optional` dice are given by `[[dice.after]]`: `follow` > 0".into());
    }
    let decision = read_cube(game, value, &mut state)?;
    let limit = game.ply_limit(rules);
    // A game conceded: `Some(None)` by a double declined, `Some(Some(r))` by a resignation.
    let conceded = (shared.result.and_then(|r| r.reason)).and_then(|reason| match reason {
        "double declined" if game.cube.is_some() => Some(None),
        _ => Resignation::ALL
            .into_iter()
            .find(|r| r.reason() == reason)
            .map(Some),
    });
    // A game lost by a player who could play no die (`[end] no_move = "loses"`).
    let stalled =
        rules.end.no_move_loses && shared.result.and_then(|r| r.reason) == Some(crate::NO_MOVE);
    // A game ended by points scored during play reaching the match's target.
    let reached = !rules.score.is_empty()
        && game.match_rules.is_some()
        && shared.result.and_then(|r| r.reason) == Some(crate::REACHED);
    match phase {
        PhaseName::Over if reached => {
            let target = game.match_rules.as_ref().map_or(0, |m| m.target);
            let w = match shared.result.and_then(|r| r.winner) {
                Some(w) if standing_given && state.points[w] >= target => w,
                _ => {
                    return Err(format!(
                        "a game ended by points scored during play needs `result.winner` and `match.points` where the winner has the target, {target}"
                    ))
                }
            };
            state.stage = Stage::Over;
            state.to_move = w as u8;
            state.winner = Some(w as u8);
            state.reached = true;
        }
        PhaseName::Over if stalled || conceded.is_some() => {
            let how = match conceded {
                Some(c) => c.map_or("a double declined", Resignation::reason),
                None => "a player who could play no die",
            };
            let Some(w) = shared.result.and_then(|r| r.winner) else {
                return Err(format!("a game ended by {how} needs `result.winner`"));
            };
            if !done.is_empty() {
                return Err(format!(
                    "player {} has borne off every checker: the game was not ended by {how}",
                    done[0]
                ));
            }
            state.stage = Stage::Over;
            state.to_move = w as u8;
            state.winner = Some(w as u8);
            state.stalled = stalled;
            state.resigned = conceded.flatten();
            state.declined = !stalled && state.resigned.is_none();
            state.score = match state.resigned {
                Some(r) => game.staked(&state, r.points()),
                None if stalled => game.staked(&state, rules.score(&pos, w)),
                None => state.cube.value(),
            };
        }
        PhaseName::Over => match (0..2)
            .filter_map(|m| rules.ended_by(&pos, state.scored, m))
            .collect::<Vec<_>>()[..]
        {
            // Won by bearing off or by a `[[win]]` rule: the winner the state names, when
            // the game could have ended either way.
            ref ends @ [first, ..] => {
                let named = shared.result.and_then(|r| r.winner);
                let (w, score) = ends
                    .iter()
                    .copied()
                    .find(|&(w, _)| Some(w) == named)
                    .unwrap_or(first);
                state.stage = Stage::Over;
                state.to_move = w as u8;
                state.winner = Some(w as u8);
                state.score = score;
            }
            // A game drawn at the ply limit, or deadlocked.
            [] if state.plies >= limit || rules.deadlocked(&state) => {
                state.stage = Stage::Over;
                state.to_move = 0;
            }
            _ => {
                return Err(format!(
                    "phase \"over\" needs one player with every checker borne off or a `[[win]]` rule met, `ply` at the {limit}-ply limit, or as many `passes` as the rules draw at"
                ))
            }
        },
        PhaseName::Roll | PhaseName::Move => {
            if !done.is_empty() {
                return Err(format!(
                    "player {} has borne off every checker: the phase must be \"over\"",
                    done[0]
                ));
            }
            if state.plies >= limit || rules.deadlocked(&state) {
                return Err(format!(
                    "a game of {} turns, or of as many passes in a row as the rules draw at, is over: the phase must be \"over\"",
                    state.plies
                ));
            }
            state.to_move = match shared.to_move {
                Some(Some(p)) => p as u8,
                _ => return Err("`to_move` is 0 or 1 while the game runs".into()),
            };
            if let Some(stage) = decision {
                if phase != PhaseName::Move || !dice.is_empty() {
                    return Err(
                        "a cube decision awaited is phase \"move\" with dice []".into(),
                    );
                }
                state.stage = stage;
                check_decision(game, &state)?;
            } else if phase == PhaseName::Roll {
                if !dice.is_empty() {
                    return Err("dice must be [] while a roll is awaited".into());
                }
                if state.follow > 0 || state.given {
                    return Err(
                        "`follow` > 0 or `given` is a turn whose dice are given: phase \"move\""
                            .into(),
                    );
                }
                state.stage = Stage::Roll;
            } else if state.given {
                // Dice the opponent could not play: one to four of them.
                if !(1..=4).contains(&dice.len()) {
                    return Err("`given` dice are one to four dice, e.g. [5] or [3, 3, 3]".into());
                }
                state.dice[..dice.len()].copy_from_slice(&dice);
                state.ndice = dice.len() as u8;
                state.stage = Stage::Move;
            } else if state.follow > 0 && matches!(dice[..], [a, b] if a == b) {
                // A double a `[[dice.after]]` rule gave.
                state.dice[..2].copy_from_slice(&dice);
                state.ndice = 2;
                state.stage = Stage::Move;
            } else if state.follow > 0 && !repeats(rules) {
                return Err(
                    "a turn a `[[dice.after]]` rule gave (`follow` > 0) plays a double, e.g. [5, 5]"
                        .into(),
                );
            } else {
                // A throw: rolled, or given again by a `repeat` rule.
                if dice.len() != usize::from(game.dice.count) + usize::from(rules.fixed_die.is_some()) {
                    return Err(format!(
                        "phase \"move\" needs {} {} rolled{}, e.g. {:?}",
                        game.dice.count,
                        if game.dice.count == 1 { "die" } else { "dice" },
                        rules.fixed_die.map_or(String::new(), |d| format!(" and the fixed {d} last")),
                        [3, 5, 2][..usize::from(game.dice.count)]
                            .iter()
                            .map(|&v| v.min(game.dice.faces))
                            .chain(rules.fixed_die)
                            .collect::<Vec<_>>()
                    ));
                }
                if let (Some(d), Some(&last)) = (rules.fixed_die, dice.last()) {
                    if last != d {
                        return Err(format!("the fixed die shows {d}, listed last in `dice`"));
                    }
                }
                state.dice[..dice.len()].copy_from_slice(&dice);
                state.ndice = dice.len() as u8;
                state.stage = Stage::Move;
            }
        }
    }
    if state.stage == Stage::Move && !rules.after.is_empty() && value.get("first").is_none() {
        if state.follow > 0 {
            return Err("`first` (the die that began the run) is needed with `follow` > 0".into());
        }
        // Left out: the run begins with the dice to play.
        state.first = state.dice[0];
    }
    read_played(game, rules, value, &mut state)?;
    // Without a standing, a finished game is the match's first and its points all it has.
    if let (false, Some(_), Stage::Over, Some(w)) =
        (standing_given, &game.match_rules, state.stage, state.winner)
    {
        state.points[usize::from(w)] = state.score;
    }
    check_standing(game, &state)?;
    check_crawford(game, &state)?;
    // Who started: given, or as the turns alternate from the player to move (from the winner,
    // the last mover, once won).
    let last = match (state.stage, state.winner) {
        (Stage::Over, Some(w)) => Some((usize::from(w), state.plies.saturating_sub(1))),
        (Stage::Over, None) => None,
        _ => Some((usize::from(state.to_move), state.plies)),
    };
    state.starter = shared
        .starter
        .unwrap_or_else(|| last.map_or(0, |(p, ply)| if ply % 2 == 0 { p } else { 1 - p }))
        as u8;
    // Who has moved: as the turns alternate from the starter (a bonus turn aside).
    state.moved = match state.plies {
        0 => 0,
        1 => 1 << state.starter,
        _ => 3,
    };
    if let Some(v) = value.get("moved").filter(|v| !v.is_null()) {
        let [a, b] = pair(value, "moved")?;
        match (a.as_bool(), b.as_bool()) {
            (Some(a), Some(b)) => state.moved = u8::from(a) | u8::from(b) << 1,
            _ => return Err(format!("`moved` must be two booleans, got {v}")),
        }
    }
    Ok(state)
}

/// STATE's `cube` (only where the rules have one, and then optional: the cube at 1 in the
/// middle): its value and owner, and a match's Crawford game, set on `state`; the decision
/// awaited, as the stage it is.
fn read_cube(
    game: &TablesGame,
    value: &Value,
    state: &mut TablesState,
) -> Result<Option<Stage>, String> {
    let Some(v) = value.get("cube").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let Some(rules) = &game.cube else {
        return Err("these rules have no doubling cube; leave `cube` out".into());
    };
    let cube = v.as_object().ok_or_else(|| {
        format!("`cube` must be an object such as {{\"value\": 2, \"owner\": 0}}, got {v}")
    })?;
    let max = 1u64 << rules.max_log;
    let n = match cube.get("value") {
        None | Some(Value::Null) => 1,
        Some(x) => x
            .as_u64()
            .filter(|n| n.is_power_of_two() && *n <= max)
            .ok_or_else(|| format!("cube.value must be a power of two from 1 to {max}, got {x}"))?,
    };
    let owner = match cube.get("owner") {
        None | Some(Value::Null) => None,
        Some(x) => Some(
            x.as_u64()
                .filter(|&p| p < 2)
                .ok_or_else(|| format!("cube.owner must be 0, 1 or null (the middle), got {x}"))?
                as u8,
        ),
    };
    if (n == 1) != owner.is_none() {
        return Err(format!(
            "a cube at {n} {}",
            if n == 1 {
                "stands in the middle: cube.owner must be null"
            } else {
                "has been taken: cube.owner must be 0 or 1"
            }
        ));
    }
    state.cube = Cube {
        log: n.ilog2() as u8,
        owner: owner.unwrap_or(MIDDLE),
    };
    let flag = |key: &str| -> Result<bool, String> {
        match cube.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(_) if !rules.crawford => Err(format!(
                "these rules play no Crawford game; leave cube.{key} out"
            )),
            Some(x) => x
                .as_bool()
                .ok_or_else(|| format!("cube.{key} must be true or false, got {x}")),
        }
    };
    state.crawford = match (flag("crawford")?, flag("post_crawford")?) {
        (true, true) => {
            return Err("cube.crawford and cube.post_crawford cannot both be true".into())
        }
        (true, false) => Crawford::Now,
        (false, true) => Crawford::After,
        (false, false) => Crawford::Before,
    };
    match cube.get("decision") {
        None | Some(Value::Null) => Ok(None),
        Some(x) if x == "double" => Ok(Some(Stage::Cube)),
        Some(x) if x == "take" => Ok(Some(Stage::Answer)),
        Some(x) => Err(format!(
            "cube.decision must be \"double\", \"take\" or null, got {x}"
        )),
    }
}

/// Refuses a Crawford or post-Crawford game under way without a player one point short of
/// the target (the leader stays there until the match is won).
fn check_crawford(game: &TablesGame, state: &TablesState) -> Result<(), String> {
    if let (Crawford::Now | Crawford::After, Some(m), false) = (
        state.crawford,
        &game.match_rules,
        state.stage == Stage::Over,
    ) {
        if !state.points.iter().any(|&p| p == m.target - 1) {
            return Err(format!(
                "a Crawford or post-Crawford game is played with a player at {} points, one short of the target",
                m.target - 1
            ));
        }
    }
    Ok(())
}

/// Refuses a cube decision the rules would not ask for here.
fn check_decision(game: &TablesGame, state: &TablesState) -> Result<(), String> {
    let Some(rules) = &game.cube else {
        return Ok(());
    };
    let doubler = TablesState {
        to_move: state.to_move ^ u8::from(state.stage == Stage::Answer),
        ..*state
    };
    if !rules.may_double(&doubler) {
        return Err(format!(
            "player {} may not double here: the cube is the opponent's, at its highest, or this is the Crawford game",
            doubler.to_move
        ));
    }
    Ok(())
}

/// `points`, `bar`, `off` (and `pool`): each side's checkers, every one of them accounted for.
fn read_sides(rules: &GameRules, value: &Value, pos: &mut Position) -> Result<(), String> {
    let n = rules.moves.board.points;
    let points = pair(value, "points")?;
    let bar = pair(value, "bar")?;
    let off = pair(value, "off")?;
    let pool = match value.get("pool") {
        None | Some(Value::Null) => None,
        Some(_) => Some(pair(value, "pool")?),
    };
    for p in 0..2 {
        let pts = points[p]
            .as_array()
            .filter(|a| a.len() == n)
            .ok_or_else(|| format!("points[{p}] must list {n} counts"))?;
        for (i, c) in pts.iter().enumerate() {
            pos.sides[p][i + 1] = count(c, &format!("points[{p}][{i}]"))?;
        }
        pos.sides[p][BAR] = count(bar[p], &format!("bar[{p}]"))?;
        pos.sides[p][OFF] = count(off[p], &format!("off[{p}]"))?;
        if let Some(pool) = pool {
            pos.sides[p][POOL] = count(pool[p], &format!("pool[{p}]"))?;
        }
        let total: u32 = pos.sides[p].iter().map(|&c| u32::from(c)).sum();
        if total != u32::from(rules.checkers) {
            return Err(format!(
                "player {p} has {total} checkers (board, bar and off); this game has {}",
                rules.checkers
            ));
        }
    }
    Ok(())
}

/// `value` with the fields GNU Backgammon's position ID gives in place of `position_id`:
/// `points`, `bar` and `off`, read for the player on roll, `to_move`.
fn expand_position_id(rules: &GameRules, value: &Value, id: &Value) -> Result<Value, String> {
    let text = id_text(rules, value, id, "position_id", &["bar", "off"])?;
    let Some(on_roll) = value
        .get("to_move")
        .and_then(Value::as_u64)
        .filter(|&p| p < 2)
    else {
        return Err("a `position_id` needs `to_move`: the player on roll".into());
    };
    let [other, roller] = position_id::read_position_id(text)?;
    let sides = match on_roll {
        0 => [roller, other],
        _ => [other, roller],
    };
    with_sides(rules, value, "position_id", sides, "position ID")
}

/// `value` with the fields an XGID gives in place of `xgid`: `points`, `bar`, `off`,
/// `to_move`, `phase` and `dice`, and, as the rules have them, `cube` (before the roll, the
/// decision to double where the player may) and the match's `points`. Stakes the rules cannot
/// have are refused: a cube where there is none, a match of another length.
fn expand_xgid(
    game: &TablesGame,
    rules: &GameRules,
    value: &Value,
    x: &Value,
) -> Result<Value, String> {
    let fields = ["bar", "off", "to_move", "phase", "dice", "cube"];
    if value.pointer("/match/points").is_some() {
        return Err("`xgid` gives the match's points too: leave `match.points` out (`match.game` may say which game of the match this is)".into());
    }
    let read = position_id::read_xgid(id_text(rules, value, x, "xgid", &fields)?)?;
    let stakes = read.stakes;
    let mut v = with_sides(rules, value, "xgid", read.sides, "XGID")?;
    let o = v.as_object_mut().ok_or("a state is a JSON object")?;
    o.insert("to_move".into(), json!(read.to_move));
    let target = game.match_rules.as_ref().map_or(0, |m| m.target);
    if stakes.length != target {
        return Err(match target {
            0 => format!(
                "the XGID is of a match to {}; these rules define no match",
                stakes.length
            ),
            t => format!(
                "the XGID's match is to {} points; these rules play to {t}",
                stakes.length
            ),
        });
    }
    if target > 0 {
        let game = value.pointer("/match/game").cloned().unwrap_or(json!(1));
        o.insert(
            "match".into(),
            json!({"game": game, "points": stakes.scores}),
        );
    }
    let mut decides = false;
    match &game.cube {
        None if stakes.cube > 0 || stakes.owner.is_some() => {
            return Err(format!(
                "the XGID has the cube at {}; these rules have no doubling cube",
                1u32 << stakes.cube
            ))
        }
        None => {}
        Some(c) => {
            let mut cube = json!({"value": 1u64 << stakes.cube, "owner": stakes.owner});
            if c.crawford && stakes.scores.iter().any(|&p| p == target - 1) {
                cube["crawford"] = json!(stakes.flag & 1 == 1);
                cube["post_crawford"] = json!(stakes.flag & 1 == 0);
            }
            let crawford_game = cube["crawford"] == true;
            // Before the roll, a player who may double decides first.
            decides = read.dice.is_none()
                && !crawford_game
                && stakes.cube < c.max_log
                && stakes.owner.is_none_or(|p| p == read.to_move);
            if decides {
                cube["decision"] = json!("double");
            }
            o.insert("cube".into(), cube);
        }
    }
    let (phase, dice) = match read.dice {
        Some(d) => ("move", json!(d)),
        None if decides => ("move", json!([])),
        None => ("roll", json!([])),
    };
    o.insert("phase".into(), json!(phase));
    o.insert("dice".into(), dice);
    Ok(v)
}

/// The text of an ID given as `field` on a board that has such IDs, none of the `fields` it
/// gives being given beside it.
fn id_text<'a>(
    rules: &GameRules,
    value: &Value,
    id: &'a Value,
    field: &str,
    fields: &[&str],
) -> Result<&'a str, String> {
    if !rules.has_position_ids() {
        return Err(format!(
            "`{field}` describes the standard backgammon board only; give `points`, `bar` and `off`"
        ));
    }
    if let Some(f) = fields.iter().find(|f| value.get(**f).is_some()) {
        return Err(format!(
            "`{field}` gives `{f}` too: leave `{f}` out, or give `points`"
        ));
    }
    id.as_str()
        .ok_or_else(|| format!("`{field}` must be a string, got {id}"))
}

/// `value` without `field`, with `points`, `bar` and `off` from `sides` (each in its own
/// numbering): the checkers they leave out are borne off.
fn with_sides(
    rules: &GameRules,
    value: &Value,
    field: &str,
    sides: [Side; 2],
    what: &str,
) -> Result<Value, String> {
    let mut off = [0u8; 2];
    for (p, side) in sides.iter().enumerate() {
        let held: u8 = side.iter().sum();
        off[p] = rules.checkers.checked_sub(held).ok_or_else(|| {
            format!(
                "the {what} gives player {p} {held} checkers; this game has {}",
                rules.checkers
            )
        })?;
    }
    let n = rules.moves.board.points;
    let mut v = value.clone();
    let o = v.as_object_mut().ok_or("a state is a JSON object")?;
    o.remove(field);
    o.insert(
        "points".into(),
        serde_json::json!([&sides[0][1..=n], &sides[1][1..=n]]),
    );
    o.insert(
        "bar".into(),
        serde_json::json!([sides[0][BAR], sides[1][BAR]]),
    );
    o.insert("off".into(), serde_json::json!(off));
    Ok(v)
}

/// STATE's `stacked`: for each side, how many of its checkers on each of its points stand
/// stacked (as `points` lists them); none without it.
fn read_stacked(rules: &GameRules, value: &Value, pos: &mut Position) -> Result<(), String> {
    let Some(v) = value.get("stacked").filter(|v| !v.is_null()) else {
        return Ok(());
    };
    if rules.moves.stacks.is_none() {
        return Err("these rules stack no checker; leave `stacked` out".into());
    }
    let board = &rules.moves.board;
    let n = board.points;
    for (p, list) in pair(value, "stacked")?.into_iter().enumerate() {
        let counts = list
            .as_array()
            .filter(|a| a.len() == n)
            .ok_or_else(|| format!("stacked[{p}] must list {n} counts, got {v}"))?;
        for (i, c) in counts.iter().enumerate() {
            let k = count(c, &format!("stacked[{p}][{i}]"))?;
            if k > pos.sides[p][i + 1] {
                return Err(format!(
                    "stacked[{p}][{i}]: {k} stacked of the {} checkers on point {}",
                    pos.sides[p][i + 1],
                    i + 1
                ));
            }
            let Some(f) = board.stack_field(i + 1) else {
                if k > 0 {
                    return Err(format!(
                        "stacked[{p}][{i}]: checkers stand stacked only on the points the dice name, {} to {} here",
                        board.stack_point(1).min(board.stack_point(STACK_POINTS)),
                        board.stack_point(1).max(board.stack_point(STACK_POINTS))
                    ));
                }
                continue;
            };
            pos.stacked[p] |= u64::from(k) << (4 * f);
        }
    }
    Ok(())
}

/// STATE's `remembered`: for each side, the names of the `[[remember]]` tables it holds
/// (none when left out).
fn read_remembered(rules: &GameRules, value: &Value, pos: &mut Position) -> Result<(), String> {
    let Some(v) = value.get("remembered").filter(|v| !v.is_null()) else {
        return Ok(());
    };
    if rules.remembered.is_empty() {
        return Err("these rules remember nothing; leave `remembered` out".into());
    }
    let sides = pair(value, "remembered")?;
    for (p, side) in sides.iter().enumerate() {
        let names = side
            .as_array()
            .ok_or_else(|| format!("`remembered[{p}]` must be a list of names, got {v}"))?;
        for name in names {
            let i = name
                .as_str()
                .and_then(|n| rules.remembered.iter().position(|r| r == n))
                .ok_or_else(|| {
                    format!(
                        "`remembered[{p}]`: {name} is none of {}",
                        rules.remembered.join(", ")
                    )
                })?;
            pos.remembered[p] |= 1 << i;
        }
    }
    Ok(())
}

/// A field of STATE only some rules have: `None` when left out (or null); refused, `why`, when
/// the rules have none (`kept` false); else read by `read`, or refused as not `expects`.
fn rules_field<T>(
    value: &Value,
    name: &str,
    kept: bool,
    why: &str,
    expects: &str,
    read: impl FnOnce(&Value) -> Option<T>,
) -> Result<Option<T>, String> {
    match value.get(name).filter(|v| !v.is_null()) {
        None => Ok(None),
        Some(_) if !kept => Err(format!("{why}; leave `{name}` out")),
        Some(v) => read(v)
            .map(Some)
            .ok_or_else(|| format!("`{name}` must be {expects}, got {v}")),
    }
}

/// Refuses match points no match could reach with this game: a game is played only while both
/// players are short of the target, and a finished game's points are in the standing (so the
/// winner has them, and the loser is short of the target).
fn check_standing(game: &TablesGame, state: &TablesState) -> Result<(), String> {
    let Some(m) = &game.match_rules else {
        return Ok(());
    };
    let standing = state.points;
    if (0..2).any(|p| standing[p] < i32::from(state.scored[p])) {
        return Err(format!(
            "match.points {standing:?}: the points scored during play, {:?}, count in the standing",
            state.scored
        ));
    }
    if state.reached {
        // The winner reached the target during play; the game's result added nothing more.
        return Ok(());
    }
    let mut before = standing;
    if let (Stage::Over, Some(w)) = (state.stage, state.winner) {
        let w = usize::from(w);
        if standing[w] < state.score {
            return Err(format!(
                "match.points {standing:?}: player {w} won this game's {} point(s), which the \
                 standing counts",
                state.score
            ));
        }
        before[w] -= state.score;
    }
    if before.iter().any(|&x| x >= m.target) {
        return Err(format!(
            "match.points {standing:?}: a match to {} is over once a player reaches it",
            m.target
        ));
    }
    Ok(())
}

/// The pinned checkers (`pinned`: each side's pinned points, in its own numbering), checked
/// against the board: a pinned checker is alone under opposing checkers; elsewhere no point
/// holds both sides.
/// A place a step leaves or reaches: a point's number, `"bar"`, `"pool"` or `"off"`.
fn place(v: &Value, points: usize) -> Option<usize> {
    match v {
        Value::String(s) if s == "bar" => Some(BAR),
        Value::String(s) if s == "pool" => Some(POOL),
        Value::String(s) if s == "off" => Some(OFF),
        _ => v
            .as_u64()
            .filter(|n| (1..=points as u64).contains(n))
            .map(|n| n as usize),
    }
}

/// `played`: the steps so far of a turn played one step at a time, each `[from, to, die]`, a
/// step its die makes; the turn must be in progress, with dice the roll gives and a die left.
fn read_played(
    game: &TablesGame,
    rules: &GameRules,
    value: &Value,
    state: &mut TablesState,
) -> Result<(), String> {
    let Some(v) = value.get("played").filter(|v| !v.is_null()) else {
        return Ok(());
    };
    if state.stage != Stage::Move {
        return Err("`played` is a turn in progress: the phase must be \"move\"".into());
    }
    let steps = v
        .as_array()
        .filter(|a| !a.is_empty() && a.len() < MAX_STEPS)
        .ok_or_else(|| format!("`played` must list 1 to {} steps", MAX_STEPS - 1))?;
    let board = &rules.moves.board;
    let mut played = Played::default();
    for (i, step) in steps.iter().enumerate() {
        let bad = || format!("played[{i}] must be [from, to, die], a step that die makes");
        let Some([from, to, die]) = step.as_array().map(Vec::as_slice) else {
            return Err(bad());
        };
        let from = place(from, board.points).filter(|&f| f != OFF);
        let to = place(to, board.points).filter(|&t| t != BAR && t != POOL);
        let die = die
            .as_u64()
            .filter(|d| (1..=u64::from(game.dice.faces)).contains(d));
        let (Some(from), Some(to), Some(die)) = (from, to, die) else {
            return Err(bad());
        };
        let start = if from > board.points {
            board.entry()
        } else {
            from
        };
        let moves = &rules.moves;
        let reaches = match to {
            OFF => start <= die as usize,
            // Turning over a stack (`n/n` of the point the die names), or a strike.
            to if to == from => {
                (moves.stacks.is_some() && board.stack_point(die as usize) == from)
                    || !moves.strikes.is_empty()
            }
            to => start.checked_sub(die as usize) == Some(to),
        };
        if !reaches {
            return Err(bad());
        }
        played.push([from as u8, to as u8], die as u8);
    }
    state.played = played;
    let mover = rules.side(state);
    if steps_left(
        &rules.moves,
        &state.pos,
        mover,
        &game.turn_info(state),
        &played,
    ) == 0
    {
        return Err(format!(
            "`played`: with the dice {:?} no die is left to play after these steps",
            state.dice().unwrap_or(&[])
        ));
    }
    Ok(())
}

fn read_pins(rules: &GameRules, value: &Value, pos: &mut Position) -> Result<(), String> {
    let board = &rules.moves.board;
    if let Some(v) = value.get("pinned").filter(|v| !v.is_null()) {
        if rules.moves.lone != Lone::Pin {
            return Err("these rules pin no checker; leave `pinned` out".into());
        }
        let lists = pair(value, "pinned")?;
        for (p, list) in lists.into_iter().enumerate() {
            let points = list
                .as_array()
                .ok_or_else(|| format!("pinned[{p}] must list points, got {v}"))?;
            for x in points {
                let k = x
                    .as_u64()
                    .filter(|k| (1..=board.points as u64).contains(k))
                    .ok_or_else(|| format!("pinned[{p}]: {x} is not a point"))?
                    as usize;
                if pos.sides[p][k] != 1 || pos.sides[1 - p][board.across(k)] == 0 {
                    return Err(format!(
                        "pinned[{p}]: point {k} needs one checker of player {p} under the other's"
                    ));
                }
                pos.pinned[p] |= 1 << k;
            }
        }
    }
    for k in 1..=board.points {
        let a = board.across(k);
        let both = pos.sides[0][k] > 0 && pos.sides[1][a] > 0;
        let pinned = pos.pinned[0] & (1 << k) != 0 || pos.pinned[1] & (1 << a) != 0;
        if both && !pinned && rules.moves.lone != Lone::Own {
            return Err(format!(
                "both players stand on player 0's point {k} (player 1's point {a})"
            ));
        }
        if pos.pinned[0] & (1 << k) != 0 && pos.pinned[1] & (1 << a) != 0 {
            return Err(format!("point {k}: both checkers cannot be pinned"));
        }
    }
    Ok(())
}

/// The match fields: game number and points, defaults when absent; in a rotation, the name of
/// the game's rules, when given, must be the one the game number plays.
fn read_match(game: &TablesGame, given: Option<MatchFields>) -> Result<(u32, [i32; 2]), String> {
    let Some(m) = given else {
        return Ok((1, [0, 0]));
    };
    if game.match_rules.is_none() {
        return Err("these rules define no match; leave `match` out".into());
    }
    let n = m.game.ok_or_else(|| {
        format!(
            "`match.game` is a game number 1 to {}",
            LIMITS.games_per_match
        )
    })?;
    let playing = &game.rules_of(n).name;
    if let Some(named) = m.rules.filter(|named| named != playing) {
        return Err(format!(
            "match.rules: game {n} of this match is played by the rules `{playing}`, not \"{}\"",
            ludus_core::limits::excerpt(named)
        ));
    }
    let points = m
        .points
        .ok_or("missing field `match.points` (a list of two)")?;
    Ok((n, points))
}

/// Whether a `[[dice.after]]` rule of `rules` gives the same dice again (`repeat`): then a
/// turn it gave plays a whole throw.
fn repeats(rules: &GameRules) -> bool {
    (rules.after.iter()).any(|a| matches!(a.then, crate::rules::dice::Then::Repeat))
}
