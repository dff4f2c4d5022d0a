//! `ludus play GAME`: a game, or a whole match, in the terminal: the terminal's side of the
//! [`Table`] (prompts, the board, what happened in words) for humans and computer players, the
//! starting ritual, dice rolled or typed in, undo, and agreed endings where the rules allow them.

use crate::say;
use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;
use ludus_core::game::{
    Dice, Evaluator, Game, Notation, Phase, Player, Resignation, Ritual, Roll, View,
};
use ludus_core::limits::{excerpt, printable, read_line, Limits, LongLine, LIMITS};
use ludus_players::Spec;
use ludus_table::record::{Header, Recorder};
use ludus_table::registry::{AnyGame, AnyMove, AnyState};
use ludus_table::table::{Start, Table};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiceSource {
    /// The program rolls (from `--seed` when given).
    Auto,
    /// Players roll real dice and type them in.
    Manual,
}

pub struct Options {
    pub game: String,
    /// Who plays player 0 and player 1 (for the whole game or match: a starting ritual decides
    /// only who starts); player 1 by default `net` where the rules name a network, else
    /// `greedy`.
    pub south: Spec,
    pub north: Option<Spec>,
    pub seed: Option<u64>,
    pub first: Option<String>,
    pub dice: DiceSource,
    pub max_plies: Option<u32>,
    pub input: Option<PathBuf>,
    /// Write the game as it is played to this file (a record).
    pub record: Option<PathBuf>,
    pub limits: Limits,
}

/// Moves a `hint` lists.
const HINT_MOVES: usize = 5;

/// Columns a list of moves is wrapped to.
const WIDTH: usize = 78;

/// How `ludus play` ended: the game (or match) played to its end, or left before it (`quit`,
/// or the end of the input).
pub enum Played {
    Finished,
    Abandoned,
}

/// The exit status of an abandoned game (an error is 1, a bad command line 2).
pub const ABANDONED: u8 = 3;

pub fn run(opts: Options) -> Result<Played> {
    let (source, mut game) = super::load(&opts.game)?;
    if let Some(plies) = opts.max_plies {
        let max = LIMITS.plies_per_game;
        if !(1..=max).contains(&plies) {
            bail!("--max-plies must be 1 to {max}, not {plies}");
        }
        game.set_max_plies(plies);
    }
    let input: Box<dyn BufRead> = match &opts.input {
        Some(path) => Box::new(BufReader::new(std::fs::File::open(path).map_err(|e| {
            anyhow!(
                "cannot read --input {}: {e}",
                excerpt(&path.display().to_string())
            )
        })?)),
        None => Box::new(BufReader::new(std::io::stdin())),
    };
    let first = opts.first.as_deref().map(parse_player).transpose()?;
    let north = opts.north.unwrap_or_else(|| match game.names_network() {
        true => ludus_players::NetPlayer::default().into(),
        false => ludus_players::Greedy.into(),
    });
    let agents = [opts.south, north];
    let header = Header {
        record: ludus_table::record::FORMAT.into(),
        rules: opts.game.clone(),
        digest: source.digest(),
        seed: None,
        players: Default::default(),
    };
    let mut terminal = Terminal {
        table: Table::new(game, header, agents, opts.seed),
        input,
        input_line_bytes: opts.limits.input_line_bytes,
        dice: opts.dice,
        record: opts.record.map(|path| Record {
            path,
            recorder: None,
            written: 0,
        }),
    };
    terminal.run(first)
}

fn parse_player(text: &str) -> Result<Player> {
    match text.to_ascii_lowercase().as_str() {
        "0" | "south" | "white" => Ok(0),
        "1" | "north" | "black" => Ok(1),
        _ => bail!(
            "--first: expected 0/south/white or 1/north/black, got `{}`",
            excerpt(text)
        ),
    }
}

/// The terminal's side of the table: prompts, the board and what happened, in words.
struct Terminal {
    table: Table,
    input: Box<dyn BufRead>,
    /// The longest line a person may type.
    input_line_bytes: usize,
    dice: DiceSource,
    record: Option<Record>,
}

/// Where the game is recorded; the file is begun when the first game starts (after the
/// starting ritual has settled who starts).
struct Record {
    path: PathBuf,
    recorder: Option<Recorder<std::fs::File>>,
    /// The table's record lines written so far.
    written: usize,
}

/// How a game in the terminal stopped.
enum Stop {
    Over,
    Quit,
}

impl Terminal {
    fn game(&self) -> &AnyGame {
        self.table.game()
    }

    fn state(&self) -> Result<AnyState> {
        Ok(self.table.state()?.clone())
    }

    fn run(&mut self, first: Option<Player>) -> Result<Played> {
        let Some(start) = self.starter(first)? else {
            say!("Game abandoned.");
            return Ok(Played::Abandoned);
        };
        self.table.begin(start);
        self.write_record()?;
        let word = self.game().match_game_word();
        loop {
            let Stop::Over = self.play_game()? else {
                say!("Game abandoned.");
                return Ok(Played::Abandoned);
            };
            let end = self.state()?;
            if let Some(outcome) = self.game().outcome(&end) {
                let verdict = match outcome.winner {
                    Some(w) => format!("{} wins", self.name(w)),
                    None => "Draw".to_string(),
                };
                let names = self.game().player_names();
                say!(
                    "{verdict} ({}): {} {} – {} {}",
                    outcome.reason,
                    names[0],
                    outcome.scores[0],
                    outcome.scores[1],
                    names[1]
                );
            }
            // The board just drawn showed the match standing.
            let Some(standing) = self.game().match_standing(&end) else {
                return Ok(Played::Finished);
            };
            if !standing.over {
                say!(
                    "\n=== {} {} of the match ===",
                    capitalised(word),
                    standing.game + 1
                );
                // The rules' starter, or the starting ritual held again before this game.
                let Some(start) = self.starter(self.table.next_starter())? else {
                    say!("Game abandoned.");
                    return Ok(Played::Abandoned);
                };
                if self.table.next_game_from(Some(start)).is_ok() {
                    self.write_record()?;
                    continue;
                }
            }
            match standing.winner {
                Some(w) => say!("{} wins the match.", self.name(w)),
                None => say!("The match is drawn."),
            }
            return Ok(Played::Finished);
        }
    }

    /// Who starts a game: `given` (by `--first` or the match rules), else as the starting ritual
    /// decides; said once. `None` when the human quits during the ritual.
    fn starter(&mut self, given: Option<Player>) -> Result<Option<Start>> {
        if let Some(p) = given {
            say!("{} starts.", self.name(p));
            return Ok(Some(Start::given(p)));
        }
        self.ritual()
    }

    /// Writes the table's new record lines, when the game is recorded (the file begun with the
    /// first of them).
    fn write_record(&mut self) -> Result<()> {
        let Some(record) = &mut self.record else {
            return Ok(());
        };
        let cannot =
            |e: std::io::Error| anyhow!("cannot write the record {}: {e}", record.path.display());
        if record.recorder.is_none() {
            let file = std::fs::File::create(&record.path).map_err(cannot)?;
            record.recorder = Some(Recorder::new(file, self.table.header()).map_err(cannot)?);
        }
        if let Some(recorder) = &mut record.recorder {
            for event in &self.table.events()[record.written..] {
                recorder.write(event).map_err(cannot)?;
            }
            record.written = self.table.events().len();
        }
        Ok(())
    }

    fn name(&self, p: Player) -> String {
        self.table.seated(p)
    }

    /// The side the board is drawn from: the human's when exactly one plays; when two share
    /// the terminal, the side of the one to move (each reads and types their own numbering);
    /// else player 0's, so that the board keeps one orientation for the whole game.
    fn viewer(&self) -> Player {
        match self.table.seats() {
            [Spec::Human, Spec::Human] => (self.table.state().ok())
                .and_then(|s| self.game().numbering(s))
                .unwrap_or(0),
            [a, Spec::Human] if a != Spec::Human => 1,
            _ => 0,
        }
    }

    /// Reads a line from the human; `None` at end of input. A line is at most the input
    /// limit long (the rest is skipped), so no input can exhaust memory.
    fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        let mut out = std::io::stdout();
        write!(out, "{}", printable(prompt))
            .and_then(|()| out.flush())
            .map_err(|e| anyhow!("cannot write to standard output: {e}"))?;
        let mut line = Vec::new();
        let max = self.input_line_bytes;
        match read_line(&mut self.input, &mut line, max, LongLine::Stop)? {
            None => {
                say!();
                Ok(None)
            }
            Some(false) => bail!("an input line is longer than {max} bytes: not a move"),
            Some(true) => Ok(Some(String::from_utf8_lossy(&line).trim().to_string())),
        }
    }

    fn play_game(&mut self) -> Result<Stop> {
        let mut moves = Vec::new();
        let mut show = true;
        loop {
            let state = self.state()?;
            if show {
                say!("\n{}", self.game().board(&state, self.viewer()).trim_end());
            }
            show = true;
            match self.game().phase(&state) {
                Phase::Over => return Ok(Stop::Over),
                Phase::Roll(p) => {
                    let given = match self.roll(p)? {
                        Answer::Given(roll) => roll,
                        Answer::Undo => {
                            self.undo()?;
                            continue;
                        }
                        Answer::Quit => return Ok(Stop::Quit),
                    };
                    match self.table.roll(given.as_ref().map(Roll::values)) {
                        Err(e) => say!("{e}"),
                        Ok(roll) => {
                            self.write_record()?;
                            say!("{} rolls {}.", self.name(p), roll.spoken());
                        }
                    }
                    show = false;
                }
                Phase::Move(p) => {
                    self.game().legal_moves(&state, &mut moves);
                    if let [only] = moves.as_slice() {
                        if self.game().move_text(&state, only) == "pass" {
                            // Nothing to decide: the pass is played for the player.
                            self.table.play_move(p, only)?;
                            self.write_record()?;
                            let after = self.state()?;
                            let scored =
                                ludus_table::said::scored_said(self.game(), &state, &after, "; ");
                            say!("{} cannot move and passes{scored}.", self.name(p));
                            continue;
                        }
                    }
                    if self.table.seats()[p] == Spec::Human {
                        if let Turn::Quit = self.human_turn(&state, &moves)? {
                            return Ok(Stop::Quit);
                        }
                    } else {
                        let (i, _) = self.table.thinking(None)?.decide(false);
                        self.play(&state, &moves[i], p)?;
                    }
                }
            }
        }
    }

    /// Plays `mv` for `p`, records it and says it: in the numbering the board is drawn with
    /// (and in the mover's own, the notation's, when that differs), with what it gained.
    fn play(&mut self, state: &AnyState, mv: &AnyMove, p: Player) -> Result<()> {
        let viewer = self.viewer();
        self.table.play_move(p, mv)?;
        self.write_record()?;
        let after = self.state()?;
        let (game, mover) = (self.game(), self.name(p));
        let said = ludus_table::said::move_said(game, (state, mv, &after), p, &mover, viewer);
        say!("{said}.");
        Ok(())
    }

    /// Back to the human's previous decision (the computer's replies since are taken back too).
    fn undo(&mut self) -> Result<bool> {
        if self.table.undo().is_err() {
            say!("Nothing to undo.");
            return Ok(false);
        }
        self.write_record()?;
        say!("Undone.");
        Ok(true)
    }

    /// The dice for `p`'s turn: drawn by the table (`None`), or typed in from real dice (`6-1`,
    /// `6 1` or `61`).
    fn roll(&mut self, p: Player) -> Result<Answer<Option<Roll>>> {
        let dice = self
            .game()
            .dice()
            .ok_or_else(|| anyhow!("dice are awaited, but these rules use none"))?;
        if self.dice == DiceSource::Auto {
            return Ok(Answer::Given(None));
        }
        let Dice { count, faces } = dice;
        let example: Vec<String> = (0..count)
            .map(|i| (faces - i % faces).to_string())
            .collect();
        let forms = if count > 1 && faces < 10 {
            format!(
                "`{}`, `{}` or `{}`",
                example.join("-"),
                example.join(" "),
                example.concat()
            )
        } else {
            format!("`{}`", example.join(" "))
        };
        loop {
            let Some(line) = self.ask(&format!(
                "Dice for {}: {count} number{} 1-{faces} as {forms} (or `undo`, `help`, `quit`): ",
                self.name(p),
                if count == 1 { "" } else { "s" }
            ))?
            else {
                return Ok(Answer::Quit);
            };
            match line.to_lowercase().as_str() {
                "" => continue,
                "quit" | "q" => return Ok(Answer::Quit),
                "undo" | "u" => return Ok(Answer::Undo),
                "help" | "?" => {
                    say!("Roll the dice and type what they show, as {forms}.");
                    say!("  undo    take back your last move     quit   leave the game");
                    continue;
                }
                _ => {}
            }
            let values = typed_dice(&line, count, faces);
            match Roll::new(&values).map_err(|e| e.to_string()).and_then(|r| {
                dice.check(&r).map_err(|e| e.to_string())?;
                Ok(r)
            }) {
                Ok(roll) => return Ok(Answer::Given(Some(roll))),
                Err(e) => say!("{e}: type the dice as {forms}."),
            }
        }
    }

    fn human_turn(&mut self, state: &AnyState, moves: &[AnyMove]) -> Result<Turn> {
        let Some(p) = self.game().phase(state).to_move() else {
            return Ok(Turn::Played);
        };
        let awaited = self.game().awaited(state).unwrap_or_default();
        let end = if self.table.may_end() { ", `end`" } else { "" };
        let resign = if self.table.may_resign() {
            ", `resign`"
        } else {
            ""
        };
        let prompt = format!(
            "{} {awaited} (a move, `moves`, `hint`, `help`, `undo`{end}{resign}, `quit`): ",
            self.name(p)
        );
        loop {
            let Some(line) = self.ask(&prompt)? else {
                return Ok(Turn::Quit);
            };
            // Commands read in any case (`QUIT`, `Undo`); a move as typed.
            match line.to_lowercase().as_str() {
                "" => continue,
                "quit" | "q" => return Ok(Turn::Quit),
                "help" | "?" => self.help(state, moves)?,
                "moves" | "legal" => self.list_moves(state, moves)?,
                "hint" => self.hint(state, moves, p)?,
                "undo" | "u" => {
                    if self.undo()? {
                        return Ok(Turn::Played);
                    }
                }
                "end" if !end.is_empty() => {
                    if self.offer_end(p)? {
                        return Ok(Turn::Played);
                    }
                }
                words
                    if !resign.is_empty() && words.split_whitespace().next() == Some("resign") =>
                {
                    let level = match words.split_whitespace().nth(1) {
                        None => Some(Resignation::Single),
                        Some(word) => Resignation::from_word(word),
                    };
                    match level {
                        Some(level) if words.split_whitespace().count() <= 2 => {
                            if self.resign(p, level)? {
                                return Ok(Turn::Played);
                            }
                        }
                        _ => say!("Type `resign`, `resign gammon` or `resign backgammon`."),
                    }
                }
                _ => match self.game().parse_move(state, &line) {
                    Ok(mv) => {
                        self.play(state, &mv, p)?;
                        return Ok(Turn::Played);
                    }
                    Err(e) => say!("{e}"),
                },
            }
        }
    }

    /// `end`: offers to stop; the other side accepts or declines (a computer accepts when it is
    /// ahead or level).
    fn offer_end(&mut self, p: Player) -> Result<bool> {
        let other = 1 - p;
        say!("{} offers to end the game here.", self.name(p));
        let answer = self.answer_of(other)?;
        let accepted = self.table.offer_end(answer)?;
        if accepted {
            say!("{} accepts.", self.name(other));
            self.write_record()?;
        } else {
            say!("{} declines; play on.", self.name(other));
        }
        Ok(accepted)
    }

    /// The answer of `other` to an offer when a person plays it (`None`: the computer's).
    fn answer_of(&mut self, other: Player) -> Result<Option<bool>> {
        if self.table.seats()[other] != Spec::Human {
            return Ok(None);
        }
        let question = format!("{}, accept? (`yes` or `no`) ", self.name(other));
        loop {
            match self.ask(&question)?.map(|a| a.to_lowercase()).as_deref() {
                Some("y" | "yes") => return Ok(Some(true)),
                Some("n" | "no") | None => return Ok(Some(false)),
                Some(_) => say!("Answer `yes` or `no`."),
            }
        }
    }

    /// `resign [gammon|backgammon]`: concedes the game; the other side accepts or declines (a
    /// computer accepts when it expects no more from playing on).
    fn resign(&mut self, p: Player, level: Resignation) -> Result<bool> {
        let other = 1 - p;
        let what = match level {
            Resignation::Single => "the game".to_string(),
            _ => format!("a {}", level.word()),
        };
        say!("{} resigns, conceding {what}.", self.name(p));
        let answer = self.answer_of(other)?;
        let accepted = self.table.resign(level, answer)?;
        if accepted {
            say!("{} accepts.", self.name(other));
            self.write_record()?;
        } else {
            say!("{} declines; play on.", self.name(other));
        }
        Ok(accepted)
    }

    /// `hint`: the best moves with their estimated values, by the opponent's search (when the
    /// opponent searches) or `mcts:1s`.
    fn hint(&mut self, state: &AnyState, moves: &[AnyMove], p: Player) -> Result<()> {
        let spec = ludus_players::hint_player(
            self.table.seats()[1 - p],
            self.game().network(state).is_some(),
        );
        let (_, analysis) = self.table.thinking(Some(spec))?.decide(true);
        let (Some(analysis), Some(search)) = (analysis, spec.search()) else {
            return Ok(());
        };
        if self.game().cube_action(&moves[0]).is_some() {
            let values: Vec<String> = (analysis.moves.iter())
                .map(|m| {
                    let word = self.game().move_text(state, &moves[m.index]);
                    format!("{word} {:+.3}", m.value)
                })
                .collect();
            say!(
                "Hint by {spec} (the cube: each decision's cubeful equity for you, in points): {}",
                values.join(", ")
            );
            return Ok(());
        }
        let best: Vec<String> = analysis
            .moves
            .iter()
            .take(HINT_MOVES)
            .map(|m| {
                format!(
                    "{} ({:+.2}, {} {})",
                    self.game().move_text(state, &moves[m.index]),
                    m.value,
                    m.visits,
                    search.counts
                )
            })
            .collect();
        say!(
            "Hint by {spec} ({}; depth {}): {}",
            search.scale,
            analysis.depth,
            best.join(", ")
        );
        Ok(())
    }

    fn help(&self, state: &AnyState, moves: &[AnyMove]) -> Result<()> {
        say!("{}", self.game().notation_help(state));
        say!("Or type a command (in any case):");
        say!("  moves   list the legal moves     hint   the best moves, as a search sees them");
        say!("  undo    take back your last move quit   leave the game");
        if self.table.may_end() {
            say!("  end     offer to end the game (the rules allow it)");
        }
        if self.table.may_resign() {
            say!("  resign  concede the game (`resign gammon`, `resign backgammon`: more)");
        }
        self.list_moves(state, moves)
    }

    /// The legal moves in order, wrapped between moves.
    fn list_moves(&self, state: &AnyState, moves: &[AnyMove]) -> Result<()> {
        let mut texts: Vec<String> = moves
            .iter()
            .map(|m| self.game().move_text(state, m))
            .collect();
        texts.sort_by_cached_key(|t| reading_order(t));
        say!("{}", wrapped("Legal moves: ", &texts));
        Ok(())
    }

    /// Decides who starts, as the rules' ritual says, and says so; `None` when the human quits.
    fn ritual(&mut self) -> Result<Option<Start>> {
        match self.game().start_ritual() {
            Ritual::None => self.starter(Some(0)),
            Ritual::OddOrEven => self.odd_or_even(),
            Ritual::HigherDieChoosesColour
            | Ritual::HigherDieStarts
            | Ritual::OpeningRoll
            | Ritual::HigherThrowPlays => self.dice_for_start(),
        }
    }

    /// A human's answer before the game, lower case; `None` for `quit` or the end of input.
    fn ask_before(&mut self, question: &str) -> Result<Option<String>> {
        Ok(self
            .ask(question)?
            .map(|a| a.to_lowercase())
            .filter(|a| a != "quit" && a != "q"))
    }

    /// Player 1 hides some stones, player 0 guesses odd or even; a right guess starts.
    fn odd_or_even(&mut self) -> Result<Option<Start>> {
        let guess = if self.table.seats()[0] == Spec::Human {
            loop {
                let q = format!(
                    "{} hides some stones. {}: odd or even? (or `quit`) ",
                    self.name(1),
                    self.name(0)
                );
                match self.ask_before(&q)?.as_deref() {
                    Some("odd" | "o") => break Some(true),
                    Some("even" | "e") => break Some(false),
                    Some(_) => say!("Answer `odd` or `even`."),
                    None => return Ok(None),
                }
            }
        } else {
            None
        };
        let start = self.table.odd_or_even(guess);
        self.said(start).map(Some)
    }

    /// Says how the ritual went.
    fn said(&self, start: Start) -> Result<Start> {
        if let Some(account) = &start.account {
            say!("{account}.");
        }
        Ok(start)
    }

    /// Each rolls one die, or throws the dice (ties again), and the ritual says who starts;
    /// everyone keeps the colour the command line gave them (`--white`, `--black`).
    fn dice_for_start(&mut self) -> Result<Option<Start>> {
        let dice = self.game().dice().unwrap_or(Dice::TWO_D6);
        let ritual = self.game().start_ritual();
        let (faces, each) = (dice.faces, usize::from(ritual.dice_each(dice)));
        let (asked, range, how) = match each {
            1 => (
                "One die".to_string(),
                format!("1-{faces}"),
                "Throw one die for each player and type what it shows",
            ),
            n => (
                format!("{n} dice"),
                format!("1-{faces} each"),
                "Throw the dice for each player and type what they show",
            ),
        };
        loop {
            let given = match self.dice {
                DiceSource::Auto => None,
                DiceSource::Manual => {
                    let mut throws: [Vec<u8>; 2] = Default::default();
                    for (p, throw) in throws.iter_mut().enumerate() {
                        *throw = loop {
                            let q = format!(
                                "{asked} for {} ({range}, `help`, or `quit`): ",
                                self.name(p)
                            );
                            let Some(line) = self.ask_before(&q)? else {
                                return Ok(None);
                            };
                            let read = typed_dice(&line, each as u8, faces);
                            let shown = |d: &u8| (1..=faces).contains(d);
                            match read {
                                t if t.len() == each && t.iter().all(shown) => break t,
                                _ if matches!(line.as_str(), "help" | "?") => say!(
                                    "{how} (ties throw again): {}.",
                                    ritual.decides().unwrap_or("")
                                ),
                                _ if each == 1 => say!("Type one number 1-{faces}."),
                                _ => say!("Type {each} numbers 1-{faces}, such as `6 4`."),
                            }
                        };
                    }
                    Some(throws)
                }
            };
            match self.table.dice_each(given) {
                Ok(start) => {
                    let account = start.account.clone().map(|a| {
                        format!("{a} (the roll decides only who starts; the colours stay as given)")
                    });
                    return self.said(Start { account, ..start }).map(Some);
                }
                Err(tie) => say!("{tie}."),
            }
        }
    }
}

/// The numbers a person typed for `count` dice of `faces` faces: `6-1`, `6 1`, or `61` where
/// every face is one digit (not checked against the dice).
fn typed_dice(line: &str, count: u8, faces: u8) -> Vec<u8> {
    let values: Vec<u8> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    let digits = line.trim();
    match values[..] {
        [joined]
            if count > 1 && faces < 10 && joined >= 10 && digits.len() == usize::from(count) =>
        {
            digits.bytes().map(|b| b - b'0').collect()
        }
        _ => values,
    }
}

/// An answer to a prompt that may also take back a move or leave the game.
enum Answer<T> {
    Given(T),
    Undo,
    Quit,
}

enum Turn {
    Played,
    Quit,
}

/// A move text's order as people read a list: numbers by value (`2` before `10`), words by
/// letter.
fn reading_order(text: &str) -> Vec<Result<u32, String>> {
    let mut parts: Vec<Result<u32, String>> = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let digit = c.is_ascii_digit();
        let end = rest
            .find(|c: char| c.is_ascii_digit() != digit)
            .unwrap_or(rest.len());
        let (part, tail) = rest.split_at(end);
        parts.push(if digit {
            part.parse().map_err(|_| part.to_string())
        } else {
            Err(part.to_string())
        });
        rest = tail;
    }
    parts
}

/// `items` after `lead`, comma-separated and wrapped to [`WIDTH`] columns between items only.
fn wrapped(lead: &str, items: &[String]) -> String {
    let mut out = lead.to_string();
    let mut column = lead.chars().count();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item},")
        } else {
            item.clone()
        };
        let width = piece.chars().count();
        if i > 0 && column + 1 + width > WIDTH {
            out.push_str("\n  ");
            column = 2;
        } else if i > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&piece);
        column += width;
    }
    out
}

/// `word` with a capital first letter (`Round`).
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
