//! Load on `ludus serve`: games between remote pairs played at once over HTTP on loopback, as
//! two people on two computers play one by a link. Each person is a client of its own loopback
//! address (so that no client meets its share of connections) with its own link, its own
//! kept-alive connection and the game's stream of events open: 2 clients and 4 connections a
//! game. A move is timed from its request until the other person, told by their stream, has
//! fetched the new view; the mover's own request is timed too. No computer thinking is timed.
//!
//! Three runs: one game alone, moves back to back (the baseline); GAMES games at once, each
//! person pausing PAUSE ms before a move (fast players; the target: p99 under 50 ms); and GAMES
//! games with no pause (saturation: the latency is then the queue). The load runs on the same
//! machine as the server.
//!
//! `cargo bench --bench serve -- [GAMES] [SECONDS] [PAUSE]` (defaults 100, 10 and 100).

use serde::Deserialize;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader as LineReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpSocket, TcpStream};

/// What a client reads of a view (the rest, the picture included, is skipped).
#[derive(Deserialize)]
struct View {
    awaiting: String,
    legal: Vec<Move>,
}

#[derive(Deserialize)]
struct Move {
    text: String,
}

/// What the clients saw.
#[derive(Default)]
struct Seen {
    /// Each move (or roll that passes the turn) from its request until the other person has
    /// the view after it, in microseconds.
    seen: Vec<u64>,
    /// Each move or roll request until its answer, in microseconds.
    answered: Vec<u64>,
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

    fn add(&mut self, other: Seen) {
        self.seen.extend(other.seen);
        self.answered.extend(other.answered);
        self.requests += other.requests;
        self.games += other.games;
        self.errors += other.errors;
        self.failures.extend(other.failures);
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
    LineReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line[line.find("http://").expect("an address")..]
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();

    println!("ludus serve at {base}; Oware and Backgammon games between remote pairs");
    let short = seconds.min(5);
    let alone = run(&base, 1, short, Duration::ZERO);
    report("1 game alone, moves back to back (baseline)", &alone, short);
    let paced = Duration::from_millis(pause);
    let many = run(&base, games, seconds, paced);
    report(
        &format!(
            "{games} games at once ({} clients), {pause} ms before each move",
            2 * games
        ),
        &many,
        seconds,
    );
    let flat_out = run(&base, games, seconds, Duration::ZERO);
    report(
        &format!("{games} games at once, moves back to back (saturation)"),
        &flat_out,
        seconds,
    );
    let p99 = |s: &Seen| percentile(&s.seen, 0.99) as f64;
    println!(
        "p99 of a move seen by the other person: {games} paced games {:.1} ms ({:.1}x the lone \
         game's)",
        p99(&many) / 1000.0,
        p99(&many) / p99(&alone).max(1.0)
    );
    let _ = server.kill();
    let _ = server.wait();
}

fn report(what: &str, seen: &Seen, seconds: u64) {
    let ms = |v: &[u64], q: f64| percentile(v, q) as f64 / 1000.0;
    println!(
        "{what}: {} games played, {} requests ({:.0}/s), {} errors; {} moves seen by the other \
         person: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; their requests answered: p50 {:.1} ms, \
         p99 {:.1} ms",
        seen.games,
        seen.requests,
        seen.requests as f64 / seconds as f64,
        seen.errors,
        seen.seen.len(),
        ms(&seen.seen, 0.50),
        ms(&seen.seen, 0.99),
        ms(&seen.seen, 1.0),
        ms(&seen.answered, 0.50),
        ms(&seen.answered, 0.99),
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

/// A kept-alive HTTP/1.1 connection from a given address.
struct Connection(BufReader<TcpStream>);

async fn connect(server: SocketAddr, from: Ipv4Addr) -> std::io::Result<Connection> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(from.into(), 0))?;
    Ok(Connection(BufReader::new(socket.connect(server).await?)))
}

impl Connection {
    /// Sends a request; the answer's status and, for a body of known length, its JSON.
    async fn call(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        self.send(method, path, body).await?;
        let (status, length) = self.head().await?;
        let length = length.ok_or("no Content-Length")?;
        let mut bytes = vec![0; length];
        self.0
            .read_exact(&mut bytes)
            .await
            .map_err(|e| e.to_string())?;
        if status >= 300 {
            return Err(format!("{status} {}", String::from_utf8_lossy(&bytes)));
        }
        serde_json::from_slice(&bytes).map_err(|e| e.to_string())
    }

    async fn send(&mut self, method: &str, path: &str, body: Option<&Value>) -> Result<(), String> {
        let body = body.map(Value::to_string).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: ludus\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.0
            .get_mut()
            .write_all(request.as_bytes())
            .await
            .map_err(|e| e.to_string())
    }

    async fn line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.0.read_line(&mut line).await {
            Ok(0) => Err("connection closed".into()),
            Ok(_) => Ok(line),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The status and Content-Length of an answer's head.
    async fn head(&mut self) -> Result<(u16, Option<usize>), String> {
        let first = self.line().await?;
        let status = first
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or(first)?;
        let mut length = None;
        loop {
            let line = self.line().await?;
            let line = line.trim_end();
            if line.is_empty() {
                return Ok((status, length));
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().ok();
                }
            }
        }
    }

    /// The next event's count of changes on a stream of events (chunked).
    async fn event(&mut self) -> Result<u64, String> {
        loop {
            let size = self.line().await?;
            let size = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
            let mut chunk = vec![0; size + 2];
            self.0
                .read_exact(&mut chunk)
                .await
                .map_err(|e| e.to_string())?;
            let text = String::from_utf8_lossy(&chunk);
            if let Some(data) = text.lines().find_map(|l| l.strip_prefix("data:")) {
                let v: Value = serde_json::from_str(data.trim()).map_err(|e| e.to_string())?;
                return v["changes"].as_u64().ok_or_else(|| "no count".to_string());
            }
        }
    }
}

/// One side of a game: the last change it made, for the other side to time.
type Sent = Arc<Mutex<Option<(u64, Instant)>>>;

fn run(base: &str, games: usize, seconds: u64, pause: Duration) -> Seen {
    let server: SocketAddr = base
        .trim_start_matches("http://")
        .parse()
        .expect("an address");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let stop = Arc::new(AtomicBool::new(false));
        let pairs: Vec<_> = (0..games)
            .map(|i| tokio::spawn(pair(server, i, Arc::clone(&stop), pause)))
            .collect();
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        stop.store(true, Ordering::Relaxed);
        let mut all = Seen::default();
        for p in pairs {
            match tokio::time::timeout(Duration::from_secs(10), p).await {
                Ok(Ok(s)) => all.add(s),
                _ => all.fail("a pair did not stop".into()),
            }
        }
        all
    })
}

/// A pair plays games of Oware or Backgammon until stopped, each new game begun by its
/// first side with the second as the friend.
async fn pair(server: SocketAddr, i: usize, stop: Arc<AtomicBool>, pause: Duration) -> Seen {
    let mut seen = Seen::default();
    let address = |side: u8| Ipv4Addr::new(127, 1 + side, (i / 250) as u8, (i % 250) as u8 + 2);
    let rules = if i.is_multiple_of(2) {
        "oware"
    } else {
        "backgammon"
    };
    let mut seed = i as u64;
    while !stop.load(Ordering::Relaxed) {
        seed += 1000;
        let Ok(mut owner) = connect(server, address(0)).await else {
            seen.fail("connect".into());
            return seen;
        };
        let request =
            json!({"rules": rules, "seats": ["human", "friend"], "seed": seed, "first": 0});
        let created = match owner.call("POST", "/api/games", Some(&request)).await {
            Ok(v) => v,
            Err(e) => {
                seen.fail(format!("new game: {e}"));
                return seen;
            }
        };
        seen.requests += 1;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let friend = created["links"]["friends"][1]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let sent: Sent = Arc::new(Mutex::new(None));
        let sides = [
            (id.clone(), 0, owner),
            (friend, 1, connect(server, address(1)).await.unwrap()),
        ];
        let mut played = Vec::new();
        for (link, me, connection) in sides {
            let (stop, sent) = (Arc::clone(&stop), Arc::clone(&sent));
            let events = connect(server, address(me as u8)).await;
            played.push(tokio::spawn(async move {
                let mut seen = Seen::default();
                match events {
                    Ok(events) => {
                        side(
                            &link, me, connection, events, &stop, &sent, pause, &mut seen,
                        )
                        .await
                    }
                    Err(e) => seen.fail(format!("connect: {e}")),
                }
                seen
            }));
        }
        for p in played {
            if let Ok(s) = p.await {
                seen.add(s);
            }
        }
        if let Ok(mut owner) = connect(server, address(0)).await {
            let _ = owner
                .send("DELETE", &format!("/api/games/{id}"), None)
                .await;
            let _ = owner.head().await;
        }
    }
    seen
}

/// One person: follows the game's events; on each change fetches the view, times the
/// other side's move by it, and moves (or rolls) when it is their turn.
#[allow(clippy::too_many_arguments)]
async fn side(
    link: &str,
    me: usize,
    mut connection: Connection,
    mut events: Connection,
    stop: &AtomicBool,
    sent: &Sent,
    pause: Duration,
    seen: &mut Seen,
) {
    let path = format!("/api/games/{link}");
    if let Err(e) = events.send("GET", &format!("{path}/events"), None).await {
        return seen.fail(e);
    }
    if let Err(e) = events.head().await {
        return seen.fail(e);
    }
    let mut rng = (me as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ link.len() as u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    while !stop.load(Ordering::Relaxed) {
        let changes = match tokio::time::timeout(Duration::from_secs(2), events.event()).await {
            Ok(Ok(n)) => n,
            Ok(Err(e)) => return seen.fail(format!("events: {e}")),
            Err(_) => continue,
        };
        let value = match connection.call("GET", &path, None).await {
            Ok(v) => v,
            Err(e) => return seen.fail(format!("view: {e}")),
        };
        seen.requests += 1;
        // The other side's change, now seen here.
        if let Some((n, at)) = *sent.lock().unwrap() {
            if n == changes && value["turn"] == json!(me) {
                seen.seen.push(at.elapsed().as_micros() as u64);
            }
        }
        let view: View = match serde_json::from_value(value.clone()) {
            Ok(v) => v,
            Err(e) => return seen.fail(format!("view: {e}")),
        };
        if value["turn"] != json!(me) {
            if view.awaiting == "nothing" {
                if me == 0 {
                    seen.games += 1;
                }
                return;
            }
            continue;
        }
        tokio::time::sleep(pause).await;
        let (op, body) = match view.awaiting.as_str() {
            "roll" => ("roll", json!({})),
            "move" if !view.legal.is_empty() => (
                "move",
                json!({"move": view.legal[next(view.legal.len())].text}),
            ),
            _ => return,
        };
        let start = Instant::now();
        match connection
            .call("POST", &format!("{path}/{op}"), Some(&body))
            .await
        {
            Ok(after) => {
                seen.requests += 1;
                seen.answered.push(start.elapsed().as_micros() as u64);
                // A roll is the mover's own: only a change that passes the turn is timed.
                if after["turn"] != json!(me) {
                    let n = after["changes"].as_u64().unwrap_or(0);
                    *sent.lock().unwrap() = Some((n, start));
                }
            }
            Err(e) => return seen.fail(format!("{op}: {e}")),
        }
    }
}
