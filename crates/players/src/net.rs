//! A learned evaluation: a small neural network (one hidden layer of sigmoids) that reads a
//! position's features (the family's [`Evaluator::features`], from player 0's side) and
//! estimates the chances of each result: player 0 wins, wins a gammon (2 points or more),
//! wins a backgammon (3 or more), player 1 wins a gammon, a backgammon. It is trained by
//! self-play with temporal-difference learning, TD(λ), as TD-Gammon was (`ludus train`), and
//! the `net` player plays the move whose position it values most, looking one roll ahead
//! (1-ply) unless told otherwise.

pub use ludus_core::net::{equity, Net, MAX_HIDDEN, MAX_INPUTS, OUTPUTS};
use ludus_core::game::{CubeAction, Evaluator, Phase, Player, Roll};
use rand::Rng;
use std::sync::{Arc, OnceLock, RwLock};

/// What a finished game teaches: player 0 won; each side's gammon and backgammon.
fn targets(winner: Option<Player>, points: i32) -> [f32; OUTPUTS] {
    let big = |n: i32| if points >= n { 1.0 } else { 0.0 };
    match winner {
        Some(0) => [1.0, big(2), big(3), 0.0, 0.0],
        Some(_) => [0.0, 0.0, 0.0, big(2), big(3)],
        None => [0.5, 0.0, 0.0, 0.0, 0.0],
    }
}

/// The value of `state` for player 0 by `net`: the result once over, else the network's
/// estimate; `None` when the game gives no features of the network's size.
pub fn value<G: Evaluator>(game: &G, net: &Net, state: &G::State, x: &mut Vec<f32>) -> Option<[f32; OUTPUTS]> {
    if let Some(o) = game.outcome(state) {
        return Some(targets(o.winner, o.winner.map_or(0, |w| o.scores[w])));
    }
    x.clear();
    (game.features(state, x) && x.len() == net.inputs).then(|| net.evaluate(x))
}

/// The move among `moves` whose position `net` values most for the player to move (0-ply),
/// and that value (the player's equity); `None` when the network does not fit the game.
pub fn best_move<G: Evaluator>(
    game: &G,
    net: &Net,
    state: &G::State,
    moves: &[G::Move],
) -> Option<(usize, f32)> {
    let me = game.phase(state).to_move()?;
    let sign = if me == 0 { 1.0 } else { -1.0 };
    let mut x = Vec::with_capacity(net.inputs);
    let mut best = None;
    for (i, mv) in moves.iter().enumerate() {
        let mut after = state.clone();
        game.play(&mut after, mv);
        let e = sign * equity(&value(game, net, &after, &mut x)?);
        if best.is_none_or(|(_, b)| e > b) {
            best = Some((i, e));
        }
    }
    best
}

/// The deepest lookahead a `net` player may be told (`net:d2`): each ply multiplies the work
/// by the throws times the replies.
pub const MAX_PLIES: u8 = 2;

/// The candidate moves a lookahead searches: the best at 0-ply, at most this many …
const CANDIDATES: usize = 8;
/// … and within this much equity of the best (GNU Backgammon screens as much).
const CANDIDATE_MARGIN: f32 = 0.16;

/// A lookahead's search: the game, its network, the throws and reusable buffers.
struct Lookahead<'a, G: Evaluator> {
    game: &'a G,
    net: &'a Net,
    rolls: Vec<(Roll, f64)>,
    x: Vec<f32>,
    /// The legal moves of the reply being chosen (one list, reused at every node).
    moves: Vec<G::Move>,
    /// Evaluations made.
    nodes: u64,
}

impl<G: Evaluator> Lookahead<'_, G> {
    /// Player 0's chances in `state` looking `plies` throws ahead: each throw of the player to
    /// roll, weighted; the reply that player's 0-ply picks; then the position after it
    /// `plies - 1` ahead. A player's cube decision is to roll (the lookahead is cubeless).
    fn value(&mut self, state: &G::State, plies: u8) -> Option<[f32; OUTPUTS]> {
        self.nodes += 1;
        if plies == 0 || self.game.outcome(state).is_some() {
            return value(self.game, self.net, state, &mut self.x);
        }
        match self.game.phase(state) {
            Phase::Over => value(self.game, self.net, state, &mut self.x),
            Phase::Roll(_) => {
                let mut sum = [0.0f32; OUTPUTS];
                for i in 0..self.rolls.len() {
                    let (roll, weight) = self.rolls[i];
                    let mut thrown = state.clone();
                    if self.game.roll(&mut thrown, &roll).is_err() {
                        return None;
                    }
                    let v = self.value(&thrown, plies)?;
                    for (s, v) in sum.iter_mut().zip(v) {
                        *s += weight as f32 * v;
                    }
                }
                Some(sum)
            }
            Phase::Move(_) => {
                let mut moves = std::mem::take(&mut self.moves);
                moves.clear();
                self.game.legal_moves(state, &mut moves);
                let rolls_on = moves
                    .iter()
                    .position(|m| self.game.cube_action(m) == Some(CubeAction::Roll));
                let chosen = match rolls_on {
                    Some(i) => Some((i, plies)),
                    None if moves.is_empty() => None,
                    None => {
                        self.nodes += moves.len() as u64;
                        best_move(self.game, self.net, state, &moves).map(|b| (b.0, plies - 1))
                    }
                };
                let after = chosen.map(|(i, _)| {
                    let mut after = state.clone();
                    self.game.play(&mut after, &moves[i]);
                    after
                });
                // The list is free again before the search goes deeper.
                self.moves = moves;
                self.value(&after?, chosen?.1)
            }
        }
    }
}

/// Every move of `moves` with its equity for the player to move (`score` of the network's
/// estimates) at 0-ply, then the best (the [`CANDIDATES`] within [`CANDIDATE_MARGIN`], or every
/// move when `all`) again `plies` throws ahead; best first, with the evaluations made. `None`
/// when the network does not fit the game.
pub fn rank_moves<G: Evaluator>(
    game: &G,
    net: &Net,
    state: &G::State,
    moves: &[G::Move],
    plies: u8,
    all: bool,
    score: impl Fn(&[f32; OUTPUTS]) -> f32,
) -> Option<(Vec<(usize, f32)>, u64)> {
    let mut search = Lookahead {
        game,
        net,
        rolls: game.dice().map(|d| d.outcomes()).unwrap_or_default(),
        x: Vec::with_capacity(net.inputs),
        moves: Vec::new(),
        nodes: moves.len() as u64,
    };
    let mut ranked = Vec::with_capacity(moves.len());
    let mut afters = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        let mut after = state.clone();
        game.play(&mut after, mv);
        ranked.push((i, score(&value(game, net, &after, &mut search.x)?)));
        afters.push(after);
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    if plies > 0 && moves.len() > 1 && !search.rolls.is_empty() {
        let top = ranked[0].1;
        let deep = if all {
            ranked.len()
        } else {
            ranked
                .iter()
                .take(CANDIDATES)
                .take_while(|(_, e)| top - e <= CANDIDATE_MARGIN)
                .count()
        };
        for entry in &mut ranked[..deep] {
            entry.1 = score(&search.value(&afters[entry.0], plies)?);
        }
        ranked[..deep].sort_by(|a, b| b.1.total_cmp(&a.1));
    }
    Some((ranked, search.nodes))
}

/// How a training run learns.
#[derive(Clone, Copy, Debug)]
pub struct Training {
    pub games: u64,
    /// The learning rate.
    pub alpha: f32,
    /// How far back each error is credited (TD-Gammon: 0.7).
    pub lambda: f32,
    /// A game still going after this many plies is left (a guard against endless rules).
    pub max_plies: u32,
}

/// Trains `net` by self-play on `game`: each game played by the network itself (the dice
/// explore), each position's estimate moved towards the next one's, and the last towards the
/// result, the errors credited back by eligibility traces (TD(λ)). `progress` is told each
/// game finished. Cube decisions are left alone (roll, take).
pub fn train<G: Evaluator, R: Rng>(
    game: &G,
    net: &mut Net,
    plan: Training,
    rng: &mut R,
    mut progress: impl FnMut(u64),
) {
    let (n, m) = (net.inputs, net.hidden);
    let mut e1 = vec![0.0f32; OUTPUTS * net.w1.len()];
    let mut e2 = vec![0.0f32; net.w2.len()];
    let (mut x, mut h) = (Vec::with_capacity(n), Vec::with_capacity(m));
    let mut moves = Vec::new();
    for g in 0..plan.games {
        e1.iter_mut().for_each(|e| *e = 0.0);
        e2.iter_mut().for_each(|e| *e = 0.0);
        let mut state = game.new_game((g % 2) as usize);
        let mut last: Option<[f32; OUTPUTS]> = None;
        for _ in 0..plan.max_plies {
            match game.phase(&state) {
                Phase::Over => break,
                Phase::Roll(_) => {
                    let Some(dice) = game.dice() else { break };
                    if game.roll(&mut state, &dice.sample(rng)).is_err() {
                        break;
                    }
                    continue;
                }
                Phase::Move(_) => {
                    game.legal_moves(&state, &mut moves);
                    let i = match game.cube_action(&moves[0]) {
                        Some(_) => 0,
                        None => best_move(game, net, &state, &moves).map_or(0, |b| b.0),
                    };
                    game.play(&mut state, &moves[i]);
                }
            }
            // The position reached, valued; the traces gather its gradient.
            let now = match game.outcome(&state) {
                Some(o) => targets(o.winner, o.winner.map_or(0, |w| o.scores[w])),
                None => {
                    x.clear();
                    if !game.features(&state, &mut x) || x.len() != n {
                        return;
                    }
                    net.hidden_values(&x, &mut h);
                    net.outputs(&h)
                }
            };
            if let Some(before) = last {
                // The last position's estimate moves towards this one's.
                let len = net.w1.len();
                for (k, (&to, &from)) in now.iter().zip(&before).enumerate() {
                    let delta = plan.alpha * (to - from);
                    let row = k * (m + 1)..(k + 1) * (m + 1);
                    for (w, e) in net.w2[row.clone()].iter_mut().zip(&e2[row]) {
                        *w += delta * e;
                    }
                    for (w, e) in net.w1.iter_mut().zip(&e1[k * len..(k + 1) * len]) {
                        *w += delta * e;
                    }
                }
            }
            if game.outcome(&state).is_some() {
                break;
            }
            // Traces: λ times the old, plus this position's gradient (of each output).
            let len = net.w1.len();
            let one = [1.0f32];
            for (k, &o) in now.iter().enumerate() {
                let g_out = o * (1.0 - o);
                let row = k * (m + 1)..(k + 1) * (m + 1);
                for (e, &v) in e2[row.clone()].iter_mut().zip(h.iter().chain(&one)) {
                    *e = plan.lambda * *e + g_out * v;
                }
                let units = e1[k * len..(k + 1) * len].chunks_exact_mut(n + 1);
                for ((unit, &v), &w) in units.zip(&h).zip(&net.w2[row]) {
                    let g_h = g_out * w * v * (1.0 - v);
                    for (e, &xi) in unit.iter_mut().zip(x.iter().chain(&one)) {
                        *e = plan.lambda * *e + g_h * xi;
                    }
                }
            }
            last = Some(now);
        }
        net.games += 1;
        progress(g + 1);
    }
}

/// Networks loaded, each with the file it came from.
type Loaded = RwLock<Vec<(String, Arc<Net>)>>;

/// The networks loaded in this process (`net:FILE`).
fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| RwLock::new(Vec::new()))
}

/// Loads a network file once per process; its number for [`network`].
pub fn load(path: &str) -> Result<u32, String> {
    let mut nets = loaded().write().map_err(|_| "the networks are unavailable")?;
    if let Some(i) = nets.iter().position(|(p, _)| p == path) {
        return Ok(i as u32);
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    if meta.len() > 64 << 20 {
        return Err(format!("{path}: a network file is read up to 64 MiB"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let net = Net::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    nets.push((path.to_string(), Arc::new(net)));
    Ok(nets.len() as u32 - 1)
}

/// A loaded network and its file, by number.
pub fn network(id: u32) -> Option<(String, Arc<Net>)> {
    loaded().read().ok()?.get(id as usize).cloned()
}

/// `net[:FILE][:dN]`: the move whose position a network values most, looking N throws ahead
/// (`d0` to `d2`, 1 unless told): the network of FILE, else the one the rules name (`[ai]
/// network`). Without a network that fits the game, it plays as `greedy` would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetPlayer {
    /// The network loaded from the spec's file.
    id: Option<u32>,
    /// Throws looked ahead.
    plies: u8,
}

impl Default for NetPlayer {
    fn default() -> NetPlayer {
        NetPlayer { id: None, plies: 1 }
    }
}

/// `dN`, a lookahead of N throws; `None` when `text` is not of that form.
fn parse_plies(text: &str) -> Option<Result<u8, String>> {
    let digits = text.strip_prefix('d')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u8>() {
        Ok(n) if n <= MAX_PLIES => Ok(n),
        _ => Err(format!("a lookahead of d0 to d{MAX_PLIES} throws, not {text}")),
    })
}

impl super::Computer for NetPlayer {
    const NAME: &'static str = "net";
    const USAGE: &'static str = "net[:FILE][:dPLIES]";

    fn parse(budget: Option<&str>, _threads: u32) -> Result<Self, String> {
        let mut player = NetPlayer::default();
        let Some(text) = budget else {
            return Ok(player);
        };
        let (path, plies) = match text.rsplit_once(':').map(|(p, d)| (p, parse_plies(d))) {
            Some((path, Some(plies))) => (Some(path), Some(plies)),
            _ => match parse_plies(text) {
                Some(plies) => (None, Some(plies)),
                None => (Some(text), None),
            },
        };
        if let Some(plies) = plies {
            player.plies = plies?;
        }
        if let Some(path) = path {
            player.id = Some(load(path)?);
        }
        Ok(player)
    }

    /// A lookahead of two throws and more is a depth, which a server refuses (its work grows as
    /// the square of the moves); `d0` and `d1` take no budget.
    fn budget(&self) -> Option<super::Budget> {
        (self.plies >= 2).then_some(super::Budget::Depth(u32::from(self.plies)))
    }

    fn search(&self) -> Option<super::Search> {
        Some(super::Search {
            counts: "positions",
            scale: "the mover's equity by the network, in points (cubeful with a cube)",
        })
    }

    fn analyse<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        all: bool,
        _memory: &mut super::Memory<G>,
        _rng: &mut R,
    ) -> Option<super::Analysis> {
        let held;
        let net: &Net = match self.id {
            Some(id) => {
                held = network(id)?.1;
                &held
            }
            None => game.network(state)?,
        };
        let me = game.phase(state).to_move()?;
        let cube = game.cube(state);
        let gammons = !game.scores_alike(state);
        let score = |p: &[f32; OUTPUTS]| super::cube::equity(p, me, cube, gammons) as f32;
        let (ranked, nodes) = rank_moves(game, net, state, moves, self.plies, all, score)?;
        let stats: Vec<super::MoveStat> = ranked
            .into_iter()
            .map(|(index, value)| super::MoveStat {
                index,
                value: f64::from(value),
                visits: 1,
                exact: true,
            })
            .collect();
        let best = stats.first()?;
        Some(super::Analysis {
            best: best.index,
            value: best.value,
            nodes,
            depth: u32::from(self.plies),
            moves: stats,
        })
    }

    fn choose<G: Evaluator, R: Rng>(
        &self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        memory: &mut super::Memory<G>,
        rng: &mut R,
    ) -> usize {
        match self.analyse(game, state, moves, false, memory, rng) {
            Some(a) => a.best,
            None => super::Greedy.choose(game, state, moves, memory, rng),
        }
    }
}

impl std::fmt::Display for NetPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(<Self as super::Computer>::NAME)?;
        if let Some((path, _)) = self.id.and_then(network) {
            write!(f, ":{path}")?;
        }
        match self.plies {
            1 => Ok(()),
            n => write!(f, ":d{n}"),
        }
    }
}
