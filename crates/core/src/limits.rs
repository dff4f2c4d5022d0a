//! Every cap Ludus puts on untrusted input and on play, in one value. Rules files, protocol
//! requests, terminal input and benchmarks are all bounded by these numbers; docs/architecture.md's
//! limits table lists them (a test keeps the two in step).

/// The caps. [`LIMITS`] holds the built-in values; the caps that bound a session's work rather
/// than the shape of a game (what a server holds, how long a line may be, how many games an
/// analysis plays) are taken from a `Limits` value its caller may lower ([`Limits::lower`]:
/// `ludus serve --limit server_games=50`, a test's small server).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Bytes in a rules file.
    pub rules_file_bytes: u64,
    /// Bytes in one expression.
    pub expr_bytes: usize,
    /// Operators nested inside one another in an expression.
    pub expr_depth: u16,
    /// Brackets nested inside one another in an expression.
    pub expr_brackets: usize,
    /// Values an expression holds at once while it is evaluated.
    pub expr_stack: usize,
    /// Pits on one side of a sowing board.
    pub pits_per_side: usize,
    /// Stones in one pit or store, and in a whole sowing game.
    pub stones: u32,
    /// Checkers a side has in a tables game.
    pub checkers: u8,
    /// Plies in one game, whatever the rules say (the ply guard).
    pub plies_per_game: u32,
    /// Games in one match, whatever the rules say (the match guard).
    pub games_per_match: u32,
    /// Points a tables match may be played to.
    pub match_points: i32,
    /// Rules files a tables match plays in turn (`[match] games`).
    pub rotation_games: usize,
    /// The highest value of a doubling cube (`[cube] max`).
    pub cube: u32,
    /// Laps round the board one sowing move may make.
    pub laps_per_move: u32,
    /// Moments one sowing move is played out in for people to watch (the page's animation): a
    /// longer move is shown in moments spread evenly over it.
    pub shown_frames: usize,
    /// Bytes in one protocol request line.
    pub protocol_line_bytes: usize,
    /// Bytes in one line a person types in `ludus play` (terminal or `--input`).
    pub input_line_bytes: usize,
    /// Characters of bad input quoted back in an error message.
    pub echo_chars: usize,
    /// CPU seconds one benchmark measurement may take.
    pub bench_seconds: f64,
    /// Games (or matches) in one analysis, and shards it may be cut into.
    pub analysis_games: u64,
    /// Threads one analysis may run.
    pub analysis_jobs: usize,
    /// Lines of a game record the protocol keeps in memory (`record`).
    pub record_events: usize,
    /// Games `ludus serve` holds at once.
    pub server_games: usize,
    /// Seconds a game of `ludus serve` is kept without a request.
    pub server_idle_seconds: u64,
    /// Bytes in one HTTP request body of `ludus serve` (an uploaded rules file or record).
    pub server_body_bytes: usize,
    /// Rolls, moves and undos in one game of `ludus serve` (each position is kept for review).
    pub server_steps: usize,
    /// Seconds one computer move of `ludus serve` may think.
    pub server_think_seconds: u64,
    /// Bytes the games `ludus serve` holds may take together (their positions and records, as
    /// it measures them).
    pub server_bytes: usize,
    /// Games one client (one address) of `ludus serve` holds at once.
    pub server_client_games: usize,
    /// Connections `ludus serve` keeps open at once.
    pub server_connections: usize,
    /// Connections one client (one address) of `ludus serve` keeps open at once.
    pub server_client_connections: usize,
    /// Seconds a client of `ludus serve` has to send a request's head, and then its body; a
    /// connection with no request for as long is closed.
    pub server_request_seconds: u64,
    /// Bytes the trees of one search hold, whatever its threads (each tree an equal part).
    pub search_bytes: usize,
    /// Legal moves one answer lists (the protocol's `legal`, a served view): a position with
    /// more gives their count, and the rest are asked for page by page or typed.
    pub listed_moves: usize,
    /// Whole-turn moves a tables turn may have: a turn with more is played one step at a time.
    pub turn_moves: usize,
    /// Sequences of single-die steps the search for one tables turn's moves may extend
    /// (whole turns, or what the dice left allow after one step), a rule's evaluation counted
    /// as one sequence for every 16 operations: past it, the turn is played one step at a time,
    /// and the rest of a step's turn is taken as playable.
    pub turn_sequences: u32,
}

/// The limits in force.
pub const LIMITS: Limits = Limits {
    rules_file_bytes: 1 << 20,
    expr_bytes: 2_000,
    expr_depth: 64,
    expr_brackets: 12,
    expr_stack: 32,
    pits_per_side: 31,
    stones: 255,
    checkers: 15,
    plies_per_game: 100_000,
    games_per_match: 1_000,
    match_points: 10_000,
    rotation_games: 16,
    cube: 1_024,
    laps_per_move: 10_000,
    shown_frames: 200,
    protocol_line_bytes: 1 << 20,
    input_line_bytes: 4_096,
    echo_chars: 60,
    bench_seconds: 3_600.0,
    analysis_games: 1_000_000_000_000,
    analysis_jobs: 1_024,
    record_events: 1_000_000,
    server_games: 1_000,
    server_idle_seconds: 1_800,
    server_body_bytes: 4 << 20,
    server_steps: 20_000,
    server_think_seconds: 30,
    server_bytes: 1 << 30,
    server_client_games: 100,
    server_connections: 512,
    server_client_connections: 32,
    server_request_seconds: 10,
    search_bytes: 1 << 29,
    listed_moves: 10_000,
    turn_moves: 10_000,
    turn_sequences: 200_000,
};

/// The caps a caller may lower, by name: each is read from the caller's `Limits` value, not
/// from [`LIMITS`] (the others shape games and data structures, so they are fixed).
macro_rules! settable {
    ($($field:ident),* $(,)?) => {
        impl Limits {
            /// The names [`Limits::lower`] takes.
            pub const SETTABLE: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Lowers one cap: `NAME=VALUE` with NAME one of [`Limits::SETTABLE`] and VALUE
            /// above 0 and at most the built-in value (a cap is never raised past what the
            /// program was built and tested for).
            pub fn lower(&mut self, setting: &str) -> Result<(), String> {
                let shown = excerpt(setting);
                let Some((name, value)) = setting.split_once('=') else {
                    return Err(format!("limit `{shown}`: expected NAME=VALUE, e.g. server_games=50"));
                };
                match name.trim() {
                    $(stringify!($field) => {
                        self.$field = lowered(name.trim(), value.trim(), LIMITS.$field)?;
                    })*
                    other => {
                        let mut message = format!(
                            "unknown limit `{}` (the limits that may be lowered: {})",
                            excerpt(other),
                            Self::SETTABLE.join(", ")
                        );
                        if let Some(close) = crate::diagnostics::did_you_mean(other, Self::SETTABLE.iter().copied()) {
                            message.push_str(&format!("; did you mean `{close}`?"));
                        }
                        return Err(message);
                    }
                }
                Ok(())
            }
        }
    };
}

settable!(
    protocol_line_bytes,
    input_line_bytes,
    bench_seconds,
    analysis_games,
    analysis_jobs,
    record_events,
    server_games,
    server_idle_seconds,
    server_body_bytes,
    server_steps,
    server_think_seconds,
    server_bytes,
    server_client_games,
    server_connections,
    server_client_connections,
    server_request_seconds,
    listed_moves,
);

/// `value` read as a lowered cap of `name`, whose built-in value is `most`.
fn lowered<T>(name: &str, value: &str, most: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + Default + std::fmt::Display,
{
    match value.parse::<T>() {
        Ok(v) if v > T::default() && v <= most => Ok(v),
        _ => Err(format!(
            "limit `{name}`: `{}` is not a number above 0 and at most {most}",
            excerpt(value)
        )),
    }
}

impl Default for Limits {
    fn default() -> Self {
        LIMITS
    }
}

impl Limits {
    /// Every cap as (what it bounds, value) in words, for the table of docs/architecture.md and `ludus show`
    /// (a test checks the README lists each row).
    pub fn rows(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "size of a rules file",
                format!("{} bytes", self.rules_file_bytes),
            ),
            (
                "length of an expression",
                format!("{} bytes", self.expr_bytes),
            ),
            (
                "operators nested in an expression",
                self.expr_depth.to_string(),
            ),
            (
                "brackets nested in an expression",
                self.expr_brackets.to_string(),
            ),
            (
                "values held while an expression is evaluated",
                self.expr_stack.to_string(),
            ),
            (
                "pits on one side of a sowing board",
                self.pits_per_side.to_string(),
            ),
            ("stones in a sowing game", self.stones.to_string()),
            (
                "checkers a side in a tables game",
                self.checkers.to_string(),
            ),
            (
                "plies in one game (the ply guard)",
                self.plies_per_game.to_string(),
            ),
            (
                "games in one match (the match guard)",
                self.games_per_match.to_string(),
            ),
            (
                "points a tables match is played to",
                self.match_points.to_string(),
            ),
            (
                "games a tables match plays in turn",
                self.rotation_games.to_string(),
            ),
            ("the doubling cube's highest value", self.cube.to_string()),
            ("laps of one sowing move", self.laps_per_move.to_string()),
            (
                "moments a sowing move is shown in",
                self.shown_frames.to_string(),
            ),
            (
                "length of a protocol request line",
                format!("{} bytes", self.protocol_line_bytes),
            ),
            (
                "length of a line typed in `ludus play`",
                format!("{} bytes", self.input_line_bytes),
            ),
            (
                "bad input quoted back in an error",
                format!("{} characters", self.echo_chars),
            ),
            (
                "CPU time of one benchmark measurement",
                format!("{} s", self.bench_seconds),
            ),
            (
                "games in one analysis (and its shards)",
                self.analysis_games.to_string(),
            ),
            ("threads of one analysis", self.analysis_jobs.to_string()),
            (
                "lines of a record the protocol keeps",
                self.record_events.to_string(),
            ),
            ("games `ludus serve` holds", self.server_games.to_string()),
            (
                "idle time before `ludus serve` drops a game",
                format!("{} s", self.server_idle_seconds),
            ),
            (
                "body of an HTTP request",
                format!("{} bytes", self.server_body_bytes),
            ),
            (
                "rolls, moves and undos of one served game",
                self.server_steps.to_string(),
            ),
            (
                "thinking time of one served computer move",
                format!("{} s", self.server_think_seconds),
            ),
            (
                "memory the games of `ludus serve` hold together",
                format!("{} bytes", self.server_bytes),
            ),
            (
                "games one client of `ludus serve` holds",
                self.server_client_games.to_string(),
            ),
            (
                "connections `ludus serve` keeps open",
                self.server_connections.to_string(),
            ),
            (
                "connections one client of `ludus serve` keeps open",
                self.server_client_connections.to_string(),
            ),
            (
                "time to send a request's head, then its body; a connection's idle time",
                format!("{} s", self.server_request_seconds),
            ),
            (
                "memory of one search's trees, all its threads together",
                format!("{} bytes", self.search_bytes),
            ),
            (
                "legal moves listed in one answer (the rest paged or typed)",
                self.listed_moves.to_string(),
            ),
            (
                "whole-turn moves of a tables turn (past it, played a step at a time)",
                self.turn_moves.to_string(),
            ),
            (
                "sequences of steps searched for one tables turn (past it, played a step at a time)",
                self.turn_sequences.to_string(),
            ),
        ]
    }
}

/// `text` cut to [`Limits::echo_chars`] characters for an error message, control characters
/// shown escaped, so that bad input is never echoed whole or raw.
pub fn excerpt(text: &str) -> String {
    cut(text, LIMITS.echo_chars)
}

/// `text` cut to `chars` characters (an ellipsis marking the cut), control characters shown
/// escaped: for a message that may quote its input at length, such as a parser's.
pub fn cut(text: &str, chars: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == chars {
            out.push('…');
            break;
        }
        push_shown(&mut out, c);
    }
    out
}

/// `message` with every quotation in it (between backquotes, or between double quotes with
/// `\` escapes) cut to [`Limits::echo_chars`] characters: for a library's message about input
/// (a JSON reader's "unknown field", "invalid type: string"), which quotes the input whole.
pub fn quotes_cut(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..open + 1]);
        let inner = &rest[open + 1..];
        let mut escaped = false;
        let close = inner.char_indices().find_map(|(i, c)| {
            let closes = c == quote && !escaped;
            escaped = quote == '"' && c == '\\' && !escaped;
            closes.then_some(i)
        });
        // An unclosed quotation runs to the end of the message.
        let end = close.unwrap_or(inner.len());
        out.push_str(&excerpt(&inner[..end]));
        rest = &inner[end..];
        if close.is_some() {
            out.push(quote);
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `text` as it may reach a terminal: control characters other than line breaks and tabs
/// shown escaped (`\u{1b}`), and the marks that reorder text on screen too, so that a name or
/// title from a file cannot move the cursor, recolour or clear the screen, or disguise what is
/// printed. The front ends pass everything they print through it.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| hidden(c) && c != '\n' && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            c => push_shown(&mut out, c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `c` acts on a terminal instead of showing: a control character, or a mark that
/// overrides the direction text is laid out in.
fn hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn push_shown(out: &mut String, c: char) {
    if hidden(c) {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// What to do with the rest of a line longer than the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongLine {
    /// Read on to the line's end, keeping nothing more (a protocol request answered with an
    /// error, the session going on).
    Skip,
    /// Stop reading at once (input that is not a person's typing, such as `/dev/zero`).
    Stop,
}

/// Reads one line (without its line ending) into `line`, keeping at most `max` bytes; `None`
/// at end of input, `Some(false)` when the line was longer. Memory stays bounded whatever the
/// input, and with [`LongLine::Stop`] so does the time.
pub fn read_line(
    input: &mut impl std::io::BufRead,
    line: &mut Vec<u8>,
    max: usize,
    long: LongLine,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut complete = true;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then_some(complete));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = max.saturating_sub(line.len());
        complete &= chunk.len() <= room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if !complete && long == LongLine::Stop {
            return Ok(Some(false));
        }
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(complete));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn settable_limits_are_lowered_never_raised() {
        let mut limits = Limits::default();
        limits.lower("server_games=50").unwrap();
        limits.lower(" bench_seconds = 0.5").unwrap();
        assert_eq!(limits.server_games, 50);
        assert_eq!(limits.bench_seconds, 0.5);
        assert_eq!(limits.server_steps, LIMITS.server_steps);
        for (setting, words) in [
            ("server_games=1001", "at most 1000"),
            ("server_games=0", "above 0"),
            ("server_games=-3", "above 0"),
            ("server_games=many", "not a number"),
            ("bench_seconds=NaN", "not a number"),
            ("server_game=5", "did you mean `server_games`?"),
            ("pits_per_side=8", "unknown limit `pits_per_side`"),
            ("server_games", "expected NAME=VALUE"),
        ] {
            let e = limits.clone().lower(setting).unwrap_err();
            assert!(e.contains(words), "{setting}: {e}");
        }
        assert_eq!(limits.server_games, 50, "a refused setting changes nothing");
    }

    #[test]
    fn printable_text_keeps_its_lines_and_escapes_the_rest() {
        assert!(matches!(
            printable("Oware\n\tSouth"),
            std::borrow::Cow::Borrowed("Oware\n\tSouth")
        ));
        assert_eq!(
            printable("a\u{1b}]0;x\u{7}\r\u{9b}b\u{202e}c\n"),
            "a\\u{1b}]0;x\\u{7}\\r\\u{9b}b\\u{202e}c\n"
        );
        assert_eq!(excerpt("x\u{2067}"), "x\\u{2067}");
    }

    #[test]
    fn quotations_in_a_message_are_cut() {
        let long = "x".repeat(10_000);
        let message = format!(
            "unknown field `{long}`, expected `seed`; invalid type: string \"a\\\"{long}\", \
             expected u64 at line 1 column 20015"
        );
        let cut = quotes_cut(&message);
        assert!(cut.chars().count() < 250, "{cut}");
        assert!(cut.starts_with("unknown field `xxx"), "{cut}");
        assert!(
            cut.contains("…`, expected `seed`; invalid type: string \"a\\\"xx"),
            "{cut}"
        );
        assert!(
            cut.ends_with("…\", expected u64 at line 1 column 20015"),
            "{cut}"
        );
        assert_eq!(quotes_cut("short `a` and \"b\""), "short `a` and \"b\"");
        assert_eq!(
            quotes_cut(&format!("open `{long}")),
            format!("open `{}", excerpt(&long))
        );
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        assert_eq!(excerpt("13/7"), "13/7");
        assert_eq!(excerpt("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        let long = "x".repeat(10_000);
        assert_eq!(excerpt(&long).chars().count(), LIMITS.echo_chars + 1);
    }

    #[test]
    fn lines_are_read_within_the_bound() {
        let mut input = std::io::Cursor::new(b"short\nxxxxxxxxxx\r\nlast".to_vec());
        let mut line = Vec::new();
        let skip = LongLine::Skip;
        assert_eq!(
            read_line(&mut input, &mut line, 5, skip).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"short");
        assert_eq!(
            read_line(&mut input, &mut line, 5, skip).unwrap(),
            Some(false)
        );
        assert_eq!(line, b"xxxxx");
        assert_eq!(
            read_line(&mut input, &mut line, 5, skip).unwrap(),
            Some(true)
        );
        assert_eq!(line, b"last");
        assert_eq!(read_line(&mut input, &mut line, 5, skip).unwrap(), None);
        // An endless line without a newline: bounded memory, ends with the input.
        let mut zeros = std::io::BufReader::new(std::io::repeat(0).take(10 << 20));
        assert_eq!(
            read_line(&mut zeros, &mut line, 64, skip).unwrap(),
            Some(false)
        );
        assert_eq!(line.len(), 64);
        // Stopping at once: a truly endless input returns.
        let mut endless = std::io::BufReader::new(std::io::repeat(0));
        let stop = LongLine::Stop;
        assert_eq!(
            read_line(&mut endless, &mut line, 64, stop).unwrap(),
            Some(false)
        );
    }
}
