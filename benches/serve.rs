//! Load on `ludus serve`: many games played at once over HTTP on loopback, each by its own
//! client thread with a kept-alive connection, people at both seats (so no computer thinking is
//! timed). Reports the games held, requests per second and the latency of move requests (p50,
//! p99, max), first with one game alone (the baseline) and then with many at once.
//!
//! Three runs: one game alone, moves back to back (the baseline); GAMES games at once, each
//! pausing PAUSE ms before a move (a fast player; the target: p99 under 50 ms); and GAMES games
//! with no pause (saturation: the latency is then the queue, requests in flight over requests
//! per second). The load runs on the same machine as the server.
//!
//! `cargo bench --bench serve -- [GAMES] [SECONDS] [PAUSE]` (defaults 100, 10 and 100).

use serde::Deserialize;
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a client reads of a view (the rest, the picture included, is skipped).
#[derive(Deserialize)]
struct View {
    #[serde(default)]
    id: String,
    awaiting: String,
    legal: Vec<Move>,
}

#[derive(Deserialize)]
struct Move {
    text: String,
}

/// What one client thread saw.
#[derive(Default)]
struct Seen {
    /// Latencies of move and roll requests, in microseconds.
    moves: Vec<u64>,
    requests: u64,
    /// Games played to their end.
    games: u64,
    errors: u64,
    /// The first errors, in words.
    failures: Vec<String>,
}

impl Seen {
    fn fail(&mut self, what: String) {
        self.errors += 1;
        if self.failures.len() < 3 {
            self.failures.push(what);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let seconds: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let pause: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);

    let mut server = Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start ludus serve");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line[line.find("http://").expect("an address")..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();

    println!("ludus serve at {base}; Oware and Backgammon games, people at both seats");
    let short = seconds.min(5);
    let alone = run(&base, 1, short, 1, Duration::ZERO);
    report("1 game alone, moves back to back (baseline)", &alone, short);
    let paced = Duration::from_millis(pause);
    let many = run(&base, games, seconds, 1000, paced);
    report(
        &format!("{games} games at once, {pause} ms between a game's moves"),
        &many,
        seconds,
    );
    let flat_out = run(&base, games, seconds, 2000, Duration::ZERO);
    report(
        &format!("{games} games at once, moves back to back (saturation)"),
        &flat_out,
        seconds,
    );
    let p99 = |s: &Seen| percentile(&s.moves, 0.99) as f64;
    println!(
        "p99 of a move request: {games} paced games {:.1} ms ({:.1}x the lone game's)",
        p99(&many) / 1000.0,
        p99(&many) / p99(&alone).max(1.0)
    );
    let _ = server.kill();
    let _ = server.wait();
}

fn report(what: &str, seen: &Seen, seconds: u64) {
    println!(
        "{what}: {} games played, {} requests ({:.0}/s), {} errors; move requests {}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        seen.games,
        seen.requests,
        seen.requests as f64 / seconds as f64,
        seen.errors,
        seen.moves.len(),
        percentile(&seen.moves, 0.50) as f64 / 1000.0,
        percentile(&seen.moves, 0.99) as f64 / 1000.0,
        seen.moves.iter().max().copied().unwrap_or(0) as f64 / 1000.0,
    );
    for f in seen.failures.iter().take(3) {
        println!("  error: {f}");
    }
}

fn percentile(values: &[u64], q: f64) -> u64 {
    if values.is_empty() {
        return 0;
    }
    let mut v = values.to_vec();
    v.sort_unstable();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// `clients` threads play games for `seconds`, each starting a new game when one ends and
/// waiting `pause` before each move.
fn run(base: &str, clients: usize, seconds: u64, seed: u64, pause: Duration) -> Seen {
    let stop = Arc::new(AtomicBool::new(false));
    let threads: Vec<_> = (0..clients)
        .map(|i| {
            let (base, stop) = (base.to_string(), Arc::clone(&stop));
            std::thread::spawn(move || play(&base, &stop, seed * 1000 + i as u64, pause))
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let mut all = Seen::default();
    for t in threads {
        let s = t.join().expect("a client thread");
        all.moves.extend(s.moves);
        all.requests += s.requests;
        all.games += s.games;
        all.errors += s.errors;
        all.failures.extend(s.failures);
    }
    all
}

fn play(base: &str, stop: &AtomicBool, seed: u64, pause: Duration) -> Seen {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let mut seen = Seen::default();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let rules = if seed.is_multiple_of(2) {
        "oware"
    } else {
        "backgammon"
    };
    // Requests of different clients start at different moments.
    std::thread::sleep(pause.mul_f64(next(1000) as f64 / 1000.0));
    while !stop.load(Ordering::Relaxed) {
        let created = agent.post(&format!("{base}/api/games")).send_json(json!({
            "rules": rules, "seats": ["human", "human"], "seed": seed
        }));
        seen.requests += 1;
        let mut view: View = match created.map(|r| r.into_json()) {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => {
                seen.fail(format!("new game: {e}"));
                continue;
            }
            Err(e) => {
                seen.fail(format!("new game: {e}"));
                continue;
            }
        };
        let id = view.id.clone();
        while !stop.load(Ordering::Relaxed) {
            let (op, body) = match view.awaiting.as_str() {
                "roll" => ("roll", json!({})),
                "move" if !view.legal.is_empty() => {
                    let text = &view.legal[next(view.legal.len())].text;
                    ("move", json!({ "move": text }))
                }
                _ => break,
            };
            std::thread::sleep(pause);
            // Timed from the request's start to its answer read whole (not parsed).
            let start = Instant::now();
            let answer = agent
                .post(&format!("{base}/api/games/{id}/{op}"))
                .send_json(body)
                .map(|r| r.into_string());
            seen.moves.push(start.elapsed().as_micros() as u64);
            seen.requests += 1;
            match answer
                .ok()
                .and_then(|r| r.ok())
                .and_then(|t| serde_json::from_str(&t).ok())
            {
                Some(v) => view = v,
                None => {
                    seen.errors += 1;
                    break;
                }
            }
        }
        if matches!(view.awaiting.as_str(), "nothing" | "next game") {
            seen.games += 1;
        }
        // A finished game is dropped, as a well-behaved client does, so the server's cap on
        // games held is never reached.
        let _ = agent.delete(&format!("{base}/api/games/{id}")).call();
        seen.requests += 1;
    }
    seen
}
