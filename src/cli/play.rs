//! `ludus play GAME`: a game, or a whole match, in the terminal, written once for every game
//! through the [`Game`] trait: humans and computer players, the starting ritual, dice rolled or
//! typed in, undo, and agreed endings where the rules allow them.

use crate::game::{Dice, Game, Phase, Playable, Player, Ritual, Roll};
use crate::limits::{excerpt, read_line, LongLine, LIMITS};
use crate::players::{self, Spec};
use crate::record::{Event, Header, Recorder};
use crate::say;
use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
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
    /// Who plays player 0 and player 1 before the starting ritual.
    pub agents: [Spec; 2],
    pub seed: Option<u64>,
    pub first: Option<String>,
    pub dice: DiceSource,
    pub max_plies: Option<u32>,
    pub input: Option<PathBuf>,
    /// Write the game as it is played to this file (a record).
    pub record: Option<PathBuf>,
}

/// Random playouts a greedy player runs for each colour before choosing one.
const COLOUR_PLAYOUTS: u32 = 200;

/// Moves a `hint` lists.
const HINT_MOVES: usize = 5;

pub fn run(opts: Options) -> Result<bool> {
    let (source, mut game) = super::load(&opts.game)?;
    if let Some(plies) = opts.max_plies {
        let max = LIMITS.plies_per_game;
        if !(1..=max).contains(&plies) {
            bail!("--max-plies must be 1 to {max}, not {plies}");
        }
        game.set_max_plies(plies);
    }
    let input: Box<dyn BufRead> = match &opts.input {
        Some(path) => Box::new(BufReader::new(std::fs::File::open(path)?)),
        None => Box::new(BufReader::new(std::io::stdin())),
    };
    let rng = match opts.seed {
        Some(seed) => ChaCha8Rng::seed_from_u64(seed),
        None => ChaCha8Rng::from_entropy(),
    };
    let first = opts.first.as_deref().map(parse_player).transpose()?;
    let mut table = Terminal {
        game: &game,
        agents: opts.agents,
        rng,
        input,
        dice: opts.dice,
        colours_chosen: false,
        record: opts.record.map(|path| Record {
            path,
            rules: opts.game.clone(),
            digest: source.digest(),
            seed: opts.seed,
            recorder: None,
        }),
        memories: Default::default(),
    };
    table.run(first)
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

struct Terminal<'g, G: Playable> {
    game: &'g G,
    agents: [Spec; 2],
    rng: ChaCha8Rng,
    input: Box<dyn BufRead>,
    dice: DiceSource,
    /// The dice ritual has given each agent a colour (kept for the rest of a match).
    colours_chosen: bool,
    record: Option<Record>,
    /// What each colour's computer player kept from its last search.
    memories: [players::Memory<G>; 2],
}

/// Where the game is recorded; the file is begun when the first game starts (after the
/// starting ritual has settled who plays which colour).
struct Record {
    path: PathBuf,
    rules: String,
    digest: String,
    seed: Option<u64>,
    recorder: Option<Recorder<std::fs::File>>,
}

/// How a game in the terminal stopped.
enum Stop<S> {
    Over(S),
    Quit,
}

impl<G: Playable> Terminal<'_, G> {
    fn run(&mut self, first: Option<Player>) -> Result<bool> {
        let first = match first {
            Some(p) => p,
            None => self.ritual()?,
        };
        let mut state = self.game.new_game(first);
        self.note(&Event::Game { game: 1, first })?;
        loop {
            say!("{} to start.", self.name(first_to_move(self.game, &state)));
            let Stop::Over(end) = self.play_game(state)? else {
                say!("Game abandoned.");
                return Ok(true);
            };
            if let Some(outcome) = self.game.outcome(&end) {
                self.note(&Event::End {
                    end: (&outcome).into(),
                })?;
                let verdict = match outcome.winner {
                    Some(w) => format!("{} wins", self.name(w)),
                    None => "Draw".to_string(),
                };
                say!(
                    "{verdict} ({}): {} {} – {} {}",
                    outcome.reason,
                    self.game.player_names()[0],
                    outcome.scores[0],
                    outcome.scores[1],
                    self.game.player_names()[1]
                );
            }
            let Some(standing) = self.game.match_standing(&end) else {
                return Ok(true);
            };
            say!(
                "Match after game {}: {} {} – {} {}",
                standing.game,
                self.game.player_names()[0],
                standing.points[0],
                standing.points[1],
                self.game.player_names()[1]
            );
            if !standing.over {
                say!("\n=== Game {} of the match ===", standing.game + 1);
                // The rules' starter, or the starting ritual held again before this game.
                let first = match self.game.next_starter(&end) {
                    Some(p) => p,
                    None => self.ritual()?,
                };
                if let Some(next) = self.game.next_game(&end, first) {
                    state = next;
                    let game = standing.game + 1;
                    self.note(&Event::Game { game, first })?;
                    continue;
                }
            }
            match standing.winner {
                Some(w) => say!("{} wins the match.", self.name(w)),
                None => say!("The match is drawn."),
            }
            return Ok(true);
        }
    }

    /// Appends `event` to the record, when there is one (begun at the first event).
    fn note(&mut self, event: &Event) -> Result<()> {
        let Some(record) = &mut self.record else {
            return Ok(());
        };
        let cannot =
            |e: std::io::Error| anyhow!("cannot write the record {}: {e}", record.path.display());
        if record.recorder.is_none() {
            let header = Header {
                record: crate::record::FORMAT.into(),
                rules: record.rules.clone(),
                digest: record.digest.clone(),
                seed: record.seed,
                players: self.agents.map(|a| a.to_string()),
            };
            let file = std::fs::File::create(&record.path).map_err(cannot)?;
            record.recorder = Some(Recorder::new(file, &header).map_err(cannot)?);
        }
        if let Some(recorder) = &mut record.recorder {
            recorder.write(event).map_err(cannot)?;
        }
        Ok(())
    }

    /// Rolls and moves recorded in this game (what an undo counts back to).
    fn recorded_steps(&self) -> u32 {
        self.record
            .as_ref()
            .and_then(|r| r.recorder.as_ref())
            .map_or(0, |r| r.steps())
    }

    fn name(&self, p: Player) -> String {
        format!("{} ({})", self.game.player_names()[p], self.agents[p])
    }

    /// A player before the colours are chosen (after, by colour).
    fn seat(&self, p: Player) -> String {
        if self.colours_chosen {
            return self.name(p);
        }
        format!("{} ({})", ["Player A", "Player B"][p], self.agents[p])
    }

    /// The side the board is drawn from: the human's when exactly one plays, else the side to
    /// move.
    fn viewer(&self, state: &G::State) -> Player {
        match self.agents {
            [Spec::Human, a] if a != Spec::Human => 0,
            [a, Spec::Human] if a != Spec::Human => 1,
            _ => self.game.phase(state).to_move().unwrap_or(0),
        }
    }

    /// Reads a line from the human; `None` at end of input. A line is at most the input
    /// limit long (the rest is skipped), so no input can exhaust memory.
    fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        let mut out = std::io::stdout();
        write!(out, "{prompt}")
            .and_then(|()| out.flush())
            .map_err(|e| anyhow!("cannot write to standard output: {e}"))?;
        let mut line = Vec::new();
        let max = LIMITS.input_line_bytes;
        match read_line(&mut self.input, &mut line, max, LongLine::Stop)? {
            None => {
                say!();
                Ok(None)
            }
            Some(false) => bail!("an input line is longer than {max} bytes: not a move"),
            Some(true) => Ok(Some(String::from_utf8_lossy(&line).trim().to_string())),
        }
    }

    fn play_game(&mut self, mut state: G::State) -> Result<Stop<G::State>> {
        let mut moves = Vec::new();
        // Positions before each human decision, for `undo`.
        let mut history: Vec<(G::State, u32)> = Vec::new();
        let mut show = true;
        loop {
            if show {
                say!(
                    "\n{}",
                    self.game.render(&state, self.viewer(&state)).trim_end()
                );
            }
            show = true;
            match self.game.phase(&state) {
                Phase::Over => return Ok(Stop::Over(state)),
                Phase::Roll(p) => {
                    let Some(roll) = self.roll(p)? else {
                        return Ok(Stop::Quit);
                    };
                    if let Err(e) = self.game.roll(&mut state, &roll) {
                        say!("{e}");
                    } else {
                        self.note(&Event::Roll {
                            roll: roll.values().to_vec(),
                        })?;
                        say!("{} rolls {roll}.", self.name(p));
                    }
                    show = false;
                }
                Phase::Move(p) => {
                    self.game.legal_moves(&state, &mut moves);
                    if self.agents[p] == Spec::Human {
                        let before = (state.clone(), self.recorded_steps());
                        match self.human_turn(&mut state, &moves, &mut history)? {
                            Turn::Played => history.push(before),
                            Turn::Undone => {}
                            Turn::Quit => return Ok(Stop::Quit),
                        }
                    } else {
                        let i = players::choose_with(
                            self.game,
                            &state,
                            &moves,
                            self.agents[p],
                            &mut self.memories[p],
                            &mut self.rng,
                        );
                        let text = self.game.move_text(&state, &moves[i]);
                        say!("{} plays {text}.", self.name(p));
                        self.note(&Event::Move { text })?;
                        self.game.play(&mut state, &moves[i]);
                    }
                }
            }
        }
    }

    fn roll(&mut self, p: Player) -> Result<Option<Roll>> {
        let dice = self
            .game
            .dice()
            .ok_or_else(|| anyhow!("dice are awaited, but these rules use none"))?;
        if self.dice == DiceSource::Auto {
            return Ok(Some(dice.sample(&mut self.rng)));
        }
        let Dice { count, faces } = dice;
        loop {
            let Some(line) = self.ask(&format!(
                "Dice for {} ({count} numbers 1-{faces}): ",
                self.name(p)
            ))?
            else {
                return Ok(None);
            };
            let values: Vec<u8> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|t| t.parse().ok())
                .collect();
            match Roll::new(&values).map_err(|e| e.to_string()).and_then(|r| {
                dice.check(&r).map_err(|e| e.to_string())?;
                Ok(r)
            }) {
                Ok(roll) => return Ok(Some(roll)),
                Err(e) => say!("{e}: type the dice, e.g. `3 5`."),
            }
        }
    }

    fn human_turn(
        &mut self,
        state: &mut G::State,
        moves: &[G::Move],
        history: &mut Vec<(G::State, u32)>,
    ) -> Result<Turn> {
        let Some(p) = self.game.phase(state).to_move() else {
            return Ok(Turn::Played);
        };
        loop {
            let prompt = format!(
                "{} to play (a move, `moves`, `hint`, `help`, `undo`, `quit`): ",
                self.name(p)
            );
            let Some(line) = self.ask(&prompt)? else {
                return Ok(Turn::Quit);
            };
            match line.as_str() {
                "" => continue,
                "quit" | "q" => return Ok(Turn::Quit),
                "help" | "?" => self.help(state, moves)?,
                "moves" | "legal" => self.list_moves(state, moves)?,
                "hint" => self.hint(state, moves, p)?,
                "undo" | "u" => {
                    // Back to this side's previous decision (computer replies are replayed).
                    match history.pop() {
                        Some((previous, mark)) => {
                            *state = previous;
                            let undo = self.recorded_steps() - mark;
                            if undo > 0 {
                                self.note(&Event::Undo { undo })?;
                            }
                            say!("Undone.");
                            return Ok(Turn::Undone);
                        }
                        None => say!("Nothing to undo."),
                    }
                }
                "end" => {
                    if self.offer_end(state, p)? {
                        return Ok(Turn::Played);
                    }
                }
                text => match self.game.parse_move(state, text) {
                    Ok(mv) => {
                        let text = self.game.move_text(state, &mv);
                        self.note(&Event::Move { text })?;
                        self.game.play(state, &mv);
                        return Ok(Turn::Played);
                    }
                    Err(e) => say!("{e}"),
                },
            }
        }
    }

    /// `end`: offers to stop; the other side accepts or not (a computer accepts when it is
    /// ahead or level).
    fn offer_end(&mut self, state: &mut G::State, p: Player) -> Result<bool> {
        let mut trial = state.clone();
        if !self.game.end_by_agreement(&mut trial) {
            say!("These rules have no ending by agreement.");
            return Ok(false);
        }
        let other = 1 - p;
        let accepted = if self.agents[other] == Spec::Human {
            let question = format!(
                "{} offers to end the game here. {}, accept? (y/n) ",
                self.name(p),
                self.name(other)
            );
            matches!(self.ask(&question)?.as_deref(), Some("y" | "yes"))
        } else {
            self.game.material(state, other) >= self.game.material(state, p)
        };
        if accepted {
            say!("{} accepts.", self.name(other));
            self.note(&Event::Agreed { agreed: true })?;
            *state = trial;
        } else {
            say!("{} declines; play on.", self.name(other));
        }
        Ok(accepted)
    }

    /// `hint`: the best moves with their estimated values, by the opponent's search (when the
    /// opponent searches) or `mcts:1s`.
    fn hint(&mut self, state: &G::State, moves: &[G::Move], p: Player) -> Result<()> {
        let spec = match self.agents[1 - p] {
            s if s.searches() => s,
            _ => Spec::Mcts {
                budget: players::Budget::Time(players::DEFAULT_TIME),
                threads: 1,
            },
        };
        let Some(analysis) = players::analyse(self.game, state, moves, spec, true, &mut self.rng)
        else {
            return Ok(());
        };
        let unit = if matches!(spec, Spec::Mcts { .. }) {
            "visits"
        } else {
            "nodes"
        };
        let best: Vec<String> = analysis
            .moves
            .iter()
            .take(HINT_MOVES)
            .map(|m| {
                format!(
                    "{} ({:+.2}, {} {unit})",
                    self.game.move_text(state, &moves[m.index]),
                    m.value,
                    m.visits
                )
            })
            .collect();
        let scale = if matches!(spec, Spec::Mcts { .. }) {
            "mean result, -1 to 1"
        } else {
            "material ahead"
        };
        say!(
            "Hint by {spec} ({scale}; depth {}): {}",
            analysis.depth,
            best.join(", ")
        );
        Ok(())
    }

    fn help(&self, state: &G::State, moves: &[G::Move]) -> Result<()> {
        say!("Type a move in the game's notation (as listed below), or:");
        say!("  moves   list the legal moves     hint   the best moves, as a search sees them");
        say!("  undo    take back your last move");
        say!("  end     offer to end the game    quit   leave the game");
        self.list_moves(state, moves)
    }

    fn list_moves(&self, state: &G::State, moves: &[G::Move]) -> Result<()> {
        let texts: Vec<String> = moves
            .iter()
            .map(|m| self.game.move_text(state, m))
            .collect();
        say!("Legal moves: {}", texts.join(", "));
        Ok(())
    }

    /// Decides who starts, as the rules' ritual says; before the first game it may give the
    /// agents other colours (later games of a match keep them, so each keeps their points).
    fn ritual(&mut self) -> Result<Player> {
        match self.game.start_ritual() {
            Ritual::None => Ok(0),
            Ritual::OddOrEven => self.odd_or_even(),
            Ritual::HigherDieChoosesColour => self.dice_for_colour(),
        }
    }

    /// Player 1 hides some stones, player 0 guesses odd or even; a right guess starts.
    fn odd_or_even(&mut self) -> Result<Player> {
        let hidden: u32 = self.rng.gen_range(1..=12);
        let odd_guess = if self.agents[0] == Spec::Human {
            loop {
                let q = format!(
                    "{} hides some stones. {}: odd or even? ",
                    self.name(1),
                    self.name(0)
                );
                match self.ask(&q)?.as_deref() {
                    Some("odd" | "o") => break true,
                    Some("even" | "e") => break false,
                    Some(_) => say!("Answer `odd` or `even`."),
                    None => bail!("end of input before the start of the game"),
                }
            }
        } else {
            self.rng.gen_bool(0.5)
        };
        let right = (hidden % 2 == 1) == odd_guess;
        let starter = if right { 0 } else { 1 };
        say!(
            "{} guesses {}; {} stones were hidden: {} starts.",
            self.name(0),
            if odd_guess { "odd" } else { "even" },
            hidden,
            self.name(starter)
        );
        Ok(starter)
    }

    /// Each rolls one die (ties again); the higher roller chooses the colour; the lower starts.
    fn dice_for_colour(&mut self) -> Result<Player> {
        let high = loop {
            let mut die = [0u8; 2];
            for (p, d) in die.iter_mut().enumerate() {
                let faces = self.game.dice().map_or(6, |d| d.faces);
                *d = match self.dice {
                    DiceSource::Auto => self.rng.gen_range(1..=faces),
                    DiceSource::Manual => loop {
                        let Some(line) = self.ask(&format!("One die for {}: ", self.seat(p)))?
                        else {
                            bail!("end of input before the start of the game");
                        };
                        match line.parse::<u8>() {
                            Ok(v) if (1..=faces).contains(&v) => break v,
                            _ => say!("Type one number 1-{faces}."),
                        }
                    },
                };
            }
            say!(
                "{} rolls {}, {} rolls {}.",
                self.seat(0),
                die[0],
                self.seat(1),
                die[1]
            );
            match die[0].cmp(&die[1]) {
                std::cmp::Ordering::Greater => break 0,
                std::cmp::Ordering::Less => break 1,
                std::cmp::Ordering::Equal => say!("A tie: roll again."),
            }
        };
        if self.colours_chosen {
            say!("{} rolled lower and starts.", self.name(1 - high));
            return Ok(1 - high);
        }
        let chooser = self.agents[high];
        let colour = self.choose_colour(chooser, high)?;
        let names = self.game.player_names();
        say!("{} chooses {}.", self.seat(high), names[colour]);
        if colour != high {
            self.agents.swap(0, 1);
        }
        self.colours_chosen = true;
        // The lower roller now plays the other colour and moves first.
        Ok(1 - colour)
    }

    fn choose_colour(&mut self, chooser: Spec, seat: Player) -> Result<Player> {
        let names = self.game.player_names();
        match chooser {
            Spec::Human => loop {
                let q = format!(
                    "{}: choose your colour ({} or {}): ",
                    self.seat(seat),
                    names[0],
                    names[1]
                );
                let Some(answer) = self.ask(&q)? else {
                    bail!("end of input before the start of the game")
                };
                let answer = answer.to_lowercase();
                if let Some(c) =
                    (0..2).find(|&c| names[c].to_lowercase() == answer || answer == c.to_string())
                {
                    return Ok(c);
                }
                say!("Answer `{}` or `{}`.", names[0], names[1]);
            },
            Spec::Random => Ok(self.rng.gen_range(0..2)),
            Spec::Greedy | Spec::Mcts { .. } | Spec::AlphaBeta(_) => {
                // Choosing colour c means the other colour starts; compare the win rates.
                let mut wins = [0u32; 2];
                for (c, w) in wins.iter_mut().enumerate() {
                    for _ in 0..COLOUR_PLAYOUTS {
                        let start = self.game.new_game(1 - c);
                        if players::playout(self.game, start, &mut self.rng, LIMITS.plies_per_game)
                            == Some(c)
                        {
                            *w += 1;
                        }
                    }
                }
                Ok(if wins[1] > wins[0] { 1 } else { 0 })
            }
        }
    }
}

enum Turn {
    Played,
    Undone,
    Quit,
}

fn first_to_move<G: Game>(game: &G, state: &G::State) -> Player {
    game.phase(state).to_move().unwrap_or(0)
}
