//! Game records: a game or a whole match as it was played, one JSON object per line, written
//! as play goes (each line flushed, so a crash loses at most the move being made) and replayed
//! by feeding every line to a table ([`crate::table::replay`]), which checks it against the
//! rules.
//!
//! ```text
//! {"record":"ludus/1","rules":"backgammon","digest":"…","seed":7,"players":["human","greedy"]}
//! {"game":1,"first":0}
//! {"roll":[3,1]}
//! {"move":"8/5 6/5"}
//! {"undo":2}
//! {"agreed":true}
//! {"end":{"winner":0,"scores":[1,0],"reason":"borne off","ending":"borne-off"}}
//! {"game":2,"first":1}
//! ```
//!
//! A game whose rules scatter its stones at random has the deal in its `game` line:
//! `{"game":1,"first":0,"deal":[[5,2,…],[3,9,…]]}`.
//!
//! `undo` takes back that many of the game's last rolls and moves; `end` repeats the result
//! the rules gave (a replay checks it); `agreed` is an ending by the players' agreement.

use ludus_core::game::{Deal, Ending, Outcome, Player, Resignation};
use ludus_core::limits::{excerpt, quotes_cut, read_line, LongLine, LIMITS};
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
    /// A game of the match begins (the first at 1) with `first` to move; `deal`: the stones
    /// its rules scattered at random (`[setup] scatter`).
    Game {
        game: u32,
        first: Player,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deal: Option<Deal>,
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
    /// The player whose turn it was resigned, conceding this much, and the opponent accepted.
    Resigned {
        resigned: Resignation,
    },
    End {
        end: End,
    },
}

impl Event {
    /// The bytes the line holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        match self {
            Event::Roll { roll } => roll.capacity(),
            Event::Move { text } => text.capacity(),
            Event::End { end } => end.reason.capacity(),
            Event::Game { deal, .. } => deal.as_ref().map_or(0, |d| {
                d.capacity() * std::mem::size_of::<Vec<u8>>()
                    + d.iter().map(Vec::capacity).sum::<usize>()
            }),
            Event::Undo { .. } | Event::Agreed { .. } | Event::Resigned { .. } => 0,
        }
    }
}

/// A game's result as the record states it: the winner, the scores, the reason in words (for
/// people) and how the game ended as a type (what a replay checks; records written before it
/// was kept have none, and their words are checked instead).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    pub winner: Option<Player>,
    pub scores: [i32; 2],
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
}

impl End {
    /// Whether this stated result is the one the rules gave, `rules`.
    pub fn agrees(&self, rules: &End) -> bool {
        let how = match self.ending {
            Some(ending) => rules.ending == Some(ending),
            None => self.reason == rules.reason,
        };
        how && self.winner == rules.winner && self.scores == rules.scores
    }
}

/// As the record writes it, the reason cut to the echo limit: a record's words may be any
/// length, and an error quotes them.
impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = End {
            reason: excerpt(&self.reason),
            ..self.clone()
        };
        let line = serde_json::to_string(&shown).map_err(|_| fmt::Error)?;
        f.write_str(&line)
    }
}

impl From<&Outcome> for End {
    fn from(o: &Outcome) -> End {
        End {
            winner: o.winner,
            scores: o.scores,
            reason: o.reason.clone(),
            ending: Some(o.ending),
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
            Event::Agreed { .. } | Event::Resigned { .. } | Event::End { .. } => {}
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
    let header: Header = serde_json::from_str(&text).map_err(|e| {
        let why = quotes_cut(&e.to_string());
        at(1, format!("not the header of a Ludus record: {why}"))
    })?;
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
pub fn next_line(input: &mut impl BufRead, number: usize) -> Result<Option<String>, RecordError> {
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
