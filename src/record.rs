//! Game records: a game or a whole match as it was played, one JSON object per line, written
//! as play goes (each line flushed, so a crash loses at most the move being made) and replayed
//! by checking every roll and move against the rules.
//!
//! ```text
//! {"record":"ludus/1","rules":"backgammon","digest":"…","seed":7,"players":["human","greedy"]}
//! {"game":1,"first":0}
//! {"roll":[3,1]}
//! {"move":"8/5 6/5"}
//! {"undo":2}
//! {"agreed":true}
//! {"end":{"winner":0,"scores":[1,0],"reason":"borne off"}}
//! {"game":2,"first":1}
//! ```
//!
//! `undo` takes back that many of the game's last rolls and moves; `end` repeats the result
//! the rules gave (a replay checks it); `agreed` is an ending by the players' agreement.

use crate::game::{Outcome, Playable, Player, Roll};
use crate::limits::{excerpt, read_line, LongLine, LIMITS};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{BufRead, Write};

/// What the first line says a record is.
pub const FORMAT: &str = "ludus/1";

/// The first line of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub record: String,
    /// A bundled game's name or the rules file's path as given to `ludus play`.
    pub rules: String,
    /// SHA-256 of the rules text: a replay refuses rules that changed since.
    pub digest: String,
    pub seed: Option<u64>,
    pub players: [String; 2],
}

/// One line after the header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum Event {
    /// A game of the match begins (the first at 1) with `first` to move.
    Game {
        game: u32,
        first: Player,
    },
    Roll {
        roll: Vec<u8>,
    },
    Move {
        #[serde(rename = "move")]
        text: String,
    },
    Undo {
        undo: u32,
    },
    Agreed {
        agreed: bool,
    },
    End {
        end: End,
    },
}

/// A game's result as the record states it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    pub winner: Option<Player>,
    pub scores: [i32; 2],
    pub reason: String,
}

impl From<&Outcome> for End {
    fn from(o: &Outcome) -> End {
        End {
            winner: o.winner,
            scores: o.scores,
            reason: o.reason.clone(),
        }
    }
}

/// Writes a record line by line, each flushed as it is written.
pub struct Recorder<W: Write> {
    out: W,
    /// Rolls and moves of the current game (what `undo` counts back over).
    steps: u32,
}

impl<W: Write> Recorder<W> {
    pub fn new(mut out: W, header: &Header) -> std::io::Result<Recorder<W>> {
        write_line(&mut out, header)?;
        Ok(Recorder { out, steps: 0 })
    }

    /// The output the record was written to.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Rolls and moves recorded in the current game so far.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    pub fn write(&mut self, event: &Event) -> std::io::Result<()> {
        match event {
            Event::Game { .. } => self.steps = 0,
            Event::Roll { .. } | Event::Move { .. } => self.steps += 1,
            Event::Undo { undo } => self.steps -= (*undo).min(self.steps),
            Event::Agreed { .. } | Event::End { .. } => {}
        }
        write_line(&mut self.out, event)
    }
}

fn write_line<T: Serialize>(out: &mut impl Write, value: &T) -> std::io::Result<()> {
    let line = serde_json::to_string(value).map_err(std::io::Error::other)?;
    writeln!(out, "{line}")?;
    out.flush()
}

/// Why a record cannot be replayed, and on which line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for RecordError {}

fn at(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        message: message.into(),
    }
}

/// Reads the header of a record.
pub fn read_header(input: &mut impl BufRead) -> Result<Header, RecordError> {
    let text = next_line(input, 1)?.ok_or_else(|| at(1, "empty: not a Ludus record"))?;
    let header: Header = serde_json::from_str(&text)
        .map_err(|e| at(1, format!("not the header of a Ludus record: {e}")))?;
    if header.record != FORMAT {
        return Err(at(
            1,
            format!(
                "record format `{}` is not {FORMAT}",
                excerpt(&header.record)
            ),
        ));
    }
    Ok(header)
}

/// One line of input within the limit; `None` at the end.
fn next_line(input: &mut impl BufRead, number: usize) -> Result<Option<String>, RecordError> {
    let mut line = Vec::new();
    let max = LIMITS.protocol_line_bytes;
    match read_line(input, &mut line, max, LongLine::Stop) {
        Err(e) => Err(at(number, format!("cannot read: {e}"))),
        Ok(None) => Ok(None),
        Ok(Some(false)) => Err(at(number, format!("a line longer than {max} bytes"))),
        Ok(Some(true)) => String::from_utf8(line)
            .map(Some)
            .map_err(|_| at(number, "not UTF-8 text")),
    }
}

/// A position reached in a replay: after the line `line`, the `ply`-th roll or move of the
/// record (counting from 1; 0 is a game's start).
pub struct Step<S> {
    pub line: usize,
    /// The line's event.
    pub event: Event,
    pub ply: u32,
    pub game: u32,
    pub state: S,
}

/// Replays the events after the header against `game`, checking each: games begin where the
/// rules allow (a next game only once one is over and the match goes on), rolls only when dice
/// are awaited and within the dice, moves only when legal, results as the rules give them.
/// Calls `seen` with every position reached; stops at the first problem.
pub fn replay<G: Playable>(
    game: &G,
    input: &mut impl BufRead,
    mut seen: impl FnMut(&Step<G::State>),
) -> Result<Option<G::State>, RecordError> {
    // The positions of the current game, its start first (for `undo`).
    let mut states: Vec<G::State> = Vec::new();
    let mut game_number = 0;
    let mut ply = 0;
    // Whether the current game's `end` line has been read: a game ends once.
    let mut ended = false;
    for number in 2.. {
        let Some(text) = next_line(input, number)? else {
            break;
        };
        if text.trim().is_empty() {
            continue;
        }
        let event: Event = serde_json::from_str(&text).map_err(|_| {
            at(
                number,
                format!(
                    "`{}` is not an event of a record (game, roll, move, undo, agreed, end)",
                    excerpt(text.trim())
                ),
            )
        })?;
        let current = states.last();
        let next = match (event.clone(), current) {
            (Event::Game { game: g, first }, _) => {
                if first > 1 {
                    return Err(at(number, format!("player {first}: a player is 0 or 1")));
                }
                let state = match current {
                    None if g == 1 => game.new_game(first),
                    None => return Err(at(number, "the first game of a record is game 1")),
                    Some(s) if g == game_number + 1 => {
                        if game.outcome(s).is_none() {
                            return Err(at(
                                number,
                                format!("game {g} begins before game {game_number} is over"),
                            ));
                        }
                        game.next_game(s, first).ok_or_else(|| {
                            at(
                                number,
                                format!("game {g}: the match was over after game {game_number}"),
                            )
                        })?
                    }
                    Some(_) => {
                        return Err(at(number, format!("game {g} follows game {game_number}")))
                    }
                };
                game_number = g;
                ended = false;
                states.clear();
                states.push(state);
                let step = Step {
                    line: number,
                    event: Event::Game { game: g, first },
                    ply,
                    game: g,
                    state: states[0].clone(),
                };
                seen(&step);
                continue;
            }
            (_, None) => return Err(at(number, "no game has begun (a `game` line comes first)")),
            (Event::Roll { roll }, Some(s)) => {
                let roll = Roll::new(&roll).map_err(|e| at(number, format!("roll: {e}")))?;
                let mut s = s.clone();
                game.roll(&mut s, &roll)
                    .map_err(|e| at(number, format!("roll {roll}: {e}")))?;
                s
            }
            (Event::Move { text }, Some(s)) => {
                let mv = game
                    .parse_move(s, &text)
                    .map_err(|e| at(number, format!("move `{}`: {e}", excerpt(&text))))?;
                let mut s = s.clone();
                game.play(&mut s, &mv);
                s
            }
            (Event::Undo { undo }, Some(_)) => {
                let k = undo as usize;
                if k == 0 || k >= states.len() {
                    return Err(at(
                        number,
                        format!(
                            "undo {undo}: the game has {} roll(s) and move(s) to take back",
                            states.len() - 1
                        ),
                    ));
                }
                states.truncate(states.len() - k);
                ply -= undo;
                ended = false;
                let step = Step {
                    line: number,
                    event: Event::Undo { undo },
                    ply,
                    game: game_number,
                    state: states[states.len() - 1].clone(),
                };
                seen(&step);
                continue;
            }
            (Event::Agreed { agreed: true }, Some(s)) => {
                let mut s = s.clone();
                if !game.end_by_agreement(&mut s) {
                    return Err(at(number, "these rules allow no ending by agreement"));
                }
                s
            }
            (Event::Agreed { agreed: false }, Some(_)) => continue,
            (Event::End { end }, Some(s)) => {
                if ended {
                    return Err(at(
                        number,
                        format!("a second `end` line for game {game_number}"),
                    ));
                }
                let Some(outcome) = game.outcome(s) else {
                    return Err(at(
                        number,
                        "the record says the game ended, but it is not over",
                    ));
                };
                if End::from(&outcome) != end {
                    return Err(at(
                        number,
                        format!(
                            "the record says the game ended {end:?}, the rules say {:?}",
                            End::from(&outcome)
                        ),
                    ));
                }
                ended = true;
                continue;
            }
        };
        ply += 1;
        if states.len() > LIMITS.plies_per_game as usize * 2 {
            return Err(at(
                number,
                "more steps in one game than the ply guard allows",
            ));
        }
        states.push(next);
        let step = Step {
            line: number,
            event,
            ply,
            game: game_number,
            state: states[states.len() - 1].clone(),
        };
        seen(&step);
    }
    Ok(states.pop())
}
