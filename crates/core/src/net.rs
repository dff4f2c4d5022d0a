//! A learned evaluation: a small neural network (one hidden layer of sigmoids) that reads a
//! position's features (the family's `Evaluator::features`, from player 0's side) and estimates
//! the chances of each result: player 0 wins, wins a gammon (2 points or more), wins a
//! backgammon (3 or more), player 1 wins a gammon, a backgammon. The players crate trains it
//! (`ludus train`) and plays by it (`net`); a rules file names the one its computer players use
//! (`[ai] network`), among those bundled here or from a file.

use rand::Rng;
use serde::{Deserialize, Serialize};

/// The networks bundled with Ludus, by name (40 hidden units each), trained as docs/rules.md's
/// "A learned evaluation" says: each named by the bundled rules file of its name (`backgammon`
/// also by `backgammon-money` and `backgammon-match`).
pub const BUNDLED_NETS: &[(&str, &str)] = &[
    ("backgammon", include_str!("../../../nets/backgammon.json")),
    ("plakoto", include_str!("../../../nets/plakoto.json")),
    ("fevga", include_str!("../../../nets/fevga.json")),
    ("long-nardy", include_str!("../../../nets/long-nardy.json")),
    ("had", include_str!("../../../nets/had.json")),
    (
        "hypergammon",
        include_str!("../../../nets/hypergammon.json"),
    ),
    ("mughrabieh", include_str!("../../../nets/mughrabieh.json")),
    ("nackgammon", include_str!("../../../nets/nackgammon.json")),
    ("portes", include_str!("../../../nets/portes.json")),
    (
        "acey-deucey",
        include_str!("../../../nets/acey-deucey.json"),
    ),
];

/// The results a network estimates.
pub const OUTPUTS: usize = 5;
/// The most inputs and hidden units a network file may have.
pub const MAX_INPUTS: usize = 4096;
pub const MAX_HIDDEN: usize = 1024;

/// A network: `hidden` sigmoid units over the inputs, then [`OUTPUTS`] sigmoid outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Net {
    /// The rules it was trained for (their name) and how many games it was trained on.
    pub rules: String,
    pub games: u64,
    pub inputs: usize,
    pub hidden: usize,
    /// `hidden` rows of `inputs + 1` weights (the bias last).
    pub w1: Vec<f32>,
    /// `OUTPUTS` rows of `hidden + 1` weights (the bias last).
    pub w2: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A network of small random weights.
    pub fn new<R: Rng>(rules: &str, inputs: usize, hidden: usize, rng: &mut R) -> Net {
        let mut w = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-0.1..0.1)).collect() };
        Net {
            rules: rules.to_string(),
            games: 0,
            inputs,
            hidden,
            w1: w(hidden * (inputs + 1)),
            w2: w(OUTPUTS * (hidden + 1)),
        }
    }

    /// A network read from its JSON text, its sizes and weights checked.
    pub fn from_json(text: &str) -> Result<Net, String> {
        let net: Net = serde_json::from_str(text).map_err(|e| format!("not a network: {e}"))?;
        if net.inputs == 0 || net.inputs > MAX_INPUTS || net.hidden == 0 || net.hidden > MAX_HIDDEN
        {
            return Err(format!(
                "a network of {} inputs and {} hidden units (at most {MAX_INPUTS} and {MAX_HIDDEN})",
                net.inputs, net.hidden
            ));
        }
        if net.w1.len() != net.hidden * (net.inputs + 1)
            || net.w2.len() != OUTPUTS * (net.hidden + 1)
        {
            return Err("the network's weights do not match its sizes".into());
        }
        if !net.w1.iter().chain(&net.w2).all(|w| w.is_finite()) {
            return Err("the network has a weight that is not a number".into());
        }
        Ok(net)
    }

    /// The hidden units' values for `x`.
    pub fn hidden_values(&self, x: &[f32], h: &mut Vec<f32>) {
        h.clear();
        let n = self.inputs;
        h.extend(self.w1.chunks_exact(n + 1).map(|row| {
            let s: f32 = row[..n].iter().zip(x).map(|(w, v)| w * v).sum();
            sigmoid(s + row[n])
        }));
    }

    pub fn outputs(&self, h: &[f32]) -> [f32; OUTPUTS] {
        let m = self.hidden;
        let mut out = [0.0; OUTPUTS];
        for (o, row) in out.iter_mut().zip(self.w2.chunks_exact(m + 1)) {
            let s: f32 = row[..m].iter().zip(h).map(|(w, v)| w * v).sum();
            *o = sigmoid(s + row[m]);
        }
        out
    }

    /// The estimated chances of each result for `x`, player 0's features.
    pub fn evaluate(&self, x: &[f32]) -> [f32; OUTPUTS] {
        let mut h = Vec::with_capacity(self.hidden);
        self.hidden_values(x, &mut h);
        self.outputs(&h)
    }
}

/// Player 0's expected points (1 a game, 2 a gammon, 3 a backgammon) from the chances.
pub fn equity(p: &[f32; OUTPUTS]) -> f32 {
    2.0 * p[0] - 1.0 + p[1] + p[2] - p[3] - p[4]
}

/// The network `[ai] network` names: a bundled one, or a file from the rules file's folder
/// (read as rules files are, within their size limit). An error says why in words.
pub fn find(origin: &crate::rules::Origin, name_or_path: &str) -> Result<Net, String> {
    use crate::limits::excerpt;
    use crate::rules::source::{read_regular_file, ReadError};
    if let Some((_, text)) = BUNDLED_NETS.iter().find(|(n, _)| *n == name_or_path) {
        return Net::from_json(text);
    }
    let path = match origin {
        crate::rules::Origin::Folder(dir) => dir.join(name_or_path),
        crate::rules::Origin::Bundled => {
            return Err(format!(
                "no bundled network named `{}`",
                excerpt(name_or_path)
            ))
        }
    };
    let shown = excerpt(&path.to_string_lossy());
    let bytes = read_regular_file(&path).map_err(|e| match e {
        ReadError::Io(e) => format!("cannot read the network `{shown}`: {e}"),
        ReadError::NotAFile => format!("`{shown}` is not a file"),
        ReadError::TooLarge => format!(
            "the network `{shown}` is larger than {} bytes",
            crate::limits::LIMITS.rules_file_bytes
        ),
    })?;
    let text = String::from_utf8(bytes).map_err(|_| format!("`{shown}` is not UTF-8 text"))?;
    Net::from_json(&text).map_err(|e| format!("`{shown}`: {e}"))
}
