//! `ludus serve`: any rules file played in a browser. A small HTTP API over [`session`] (one
//! served game each, by an unguessable id) and the page that uses it, both inside the binary.
//! The API speaks the protocol's STATE and MOVE forms; README's "Playing in a browser" documents
//! it. Every request is bounded (body size and time, games held, their memory, thinking time),
//! every client gets a share (of connections, games and thinking), heavy work runs off the
//! threads that answer requests, no path a client sends is ever read, and a refused request
//! changes nothing.

mod listen;
pub mod session;

use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json as Body, Router};
use ludus_core::diagnostics;
use ludus_core::game::{Evaluator, Game, Json, Player, Resignation, View};
use ludus_core::limits::{cut, excerpt, quotes_cut, Limits, LIMITS};
use ludus_core::rules::{Origin, Source, BUNDLED};
use ludus_players::Spec;
use ludus_table::record::{self, Header};
use ludus_table::registry::{self, AnyGame};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use session::{parse_seat, Access, Act, Refusal, Seat, Seating, Session, Thinking};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
/// The page's icon: a board of pits with stones (asked for as `/favicon.ico` by browsers too).
const ICON: &str = include_str!("page/favicon.svg");

/// The served games and what bounds them.
pub struct Server {
    games: Mutex<HashMap<String, Slot>>,
    /// The links to a game other than its id: each friend's seat, and the spectators'.
    links: Mutex<HashMap<String, Link>>,
    /// The bytes the held games take, as last measured (after each change).
    bytes: AtomicUsize,
    /// One permit a core: computer players think one a core, the rest wait their turn.
    thinkers: Semaphore,
    /// Each client's turn to think: a client's computer moves think one at a time, so that one
    /// client's queue of long searches never holds every core.
    thinking: Mutex<HashMap<IpAddr, Arc<Semaphore>>>,
    idle: Duration,
    /// The caps of this server (its games and their memory, bodies, steps, thinking time, idle
    /// time, each client's share).
    limits: Limits,
}

/// A held game and the client that began it.
struct Slot {
    client: IpAddr,
    held: Arc<Mutex<Held>>,
}

/// A link to a game other than its id, and what it may do there.
struct Link {
    id: String,
    access: Access,
}

/// A game, when a request last came for it, and the bytes it takes.
struct Held {
    session: Session,
    touched: Instant,
    bytes: usize,
    /// Dropped from the server: its bytes are no longer counted.
    gone: bool,
    /// The game's other links: the spectators', and each friend's seat's.
    watch: String,
    friends: [Option<String>; 2],
    /// Counts the changes, for the pages that follow the game (`GET …/events`).
    changes: tokio::sync::watch::Sender<u64>,
}

impl Held {
    /// Tells the pages that follow the game that it changed.
    fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }

    /// The links of a game, to forget with it.
    fn links(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.watch).chain(self.friends.iter().flatten())
    }
}

/// The address a request came from: a client, for the share each client gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Client(IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Client, Self::Rejection> {
        let address = parts.extensions.get::<ConnectInfo<SocketAddr>>();
        Ok(Client(
            address.map_or(Ipv4Addr::UNSPECIFIED.into(), |a| a.0.ip()),
        ))
    }
}

impl Server {
    pub fn new(limits: Limits) -> Server {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Server {
            games: Mutex::new(HashMap::new()),
            links: Mutex::new(HashMap::new()),
            bytes: AtomicUsize::new(0),
            thinkers: Semaphore::new(cores),
            thinking: Mutex::new(HashMap::new()),
            idle: Duration::from_secs(limits.server_idle_seconds),
            limits,
        }
    }

    /// Drops the games no request has come for in the idle time.
    fn sweep(&self) {
        let mut games = lock(&self.games);
        games.retain(|_, slot| match slot.held.try_lock() {
            Ok(mut h) if h.touched.elapsed() >= self.idle => {
                self.forget(&mut h);
                false
            }
            Ok(_) => true,
            // In use right now.
            Err(_) => true,
        });
    }

    /// A game dropped: its bytes no longer count.
    fn forget(&self, held: &mut Held) {
        held.gone = true;
        self.bytes.fetch_sub(held.bytes, Ordering::Relaxed);
        let mut links = lock(&self.links);
        for key in held.links() {
            links.remove(key);
        }
    }

    /// Measures a game again after a change.
    fn remeasure(&self, held: &mut Held) {
        if held.gone {
            return;
        }
        let now = held.session.bytes();
        self.bytes.fetch_add(now, Ordering::Relaxed);
        self.bytes.fetch_sub(held.bytes, Ordering::Relaxed);
        held.bytes = now;
    }

    /// Refused when the games held take the memory budget (after dropping the idle ones).
    fn room_for(&self, bytes: usize) -> Result<(), ApiError> {
        let budget = self.limits.server_bytes;
        let fits = || self.bytes.load(Ordering::Relaxed).saturating_add(bytes) <= budget;
        if !fits() {
            self.sweep();
        }
        if fits() {
            return Ok(());
        }
        Err(err(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "the games on this server take {budget} bytes of memory, its most: try again \
                 when one is dropped"
            ),
        ))
    }

    /// Holds a new game of `client` under a new id, and answers with its view; refused when
    /// the server holds its most games or memory, or the client its share of games (after
    /// dropping the idle ones).
    fn hold(&self, session: Session, client: Client) -> Result<Body<Value>, ApiError> {
        let id = new_id();
        let bytes = session.bytes();
        self.room_for(bytes)?;
        let mut games = lock(&self.games);
        let most = self.limits.server_games;
        let share = self.limits.server_client_games;
        let full = |games: &HashMap<String, Slot>| {
            games.len() >= most || games.values().filter(|s| s.client == client.0).count() >= share
        };
        if full(&games) {
            drop(games);
            self.sweep();
            games = lock(&self.games);
        }
        if games.len() >= most {
            return Err(err(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("this server holds {most} games, its most: try again when one is dropped"),
            ));
        }
        if full(&games) {
            return Err(err(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this address holds {share} games, the most one client may: drop one first"
                ),
            ));
        }
        let friends = [0, 1].map(|p| session.elsewhere(p).then(new_id));
        let held = Held {
            session,
            touched: Instant::now(),
            bytes,
            gone: false,
            watch: new_id(),
            friends,
            changes: tokio::sync::watch::channel(0).0,
        };
        let answer = view(&id, &held, Access::Owner, None, None)?;
        let mut links = lock(&self.links);
        links.insert(
            held.watch.clone(),
            Link {
                id: id.clone(),
                access: Access::Watcher,
            },
        );
        for (p, key) in held.friends.iter().enumerate() {
            if let Some(key) = key {
                let (id, access) = (id.clone(), Access::Seat(p));
                links.insert(key.clone(), Link { id, access });
            }
        }
        drop(links);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        let held = Arc::new(Mutex::new(held));
        games.insert(
            id,
            Slot {
                client: client.0,
                held,
            },
        );
        Ok(answer)
    }

    /// The game a link leads to (its id, a friend's or a spectator's link), and what the link
    /// may do there.
    fn held(&self, link: &str) -> Result<(Arc<Mutex<Held>>, Access), ApiError> {
        let (id, access) = match lock(&self.links).get(link) {
            Some(l) => (l.id.clone(), l.access),
            None => (link.to_string(), Access::Owner),
        };
        lock(&self.games)
            .get(&id)
            .map(|s| (Arc::clone(&s.held), access))
            .ok_or_else(|| {
                err(
                    StatusCode::NOT_FOUND,
                    format!(
                        "no game `{}` on this server (it may have been idle for more than {} \
                     minutes and dropped)",
                        excerpt(link),
                        self.idle.as_secs() / 60
                    ),
                )
            })
    }

    /// Runs `f` on the game a link leads to, when the link may do `act`: the game's view after
    /// it.
    fn change(
        &self,
        link: &str,
        act: Act,
        f: impl FnOnce(&mut Session) -> Result<(), Refusal>,
    ) -> Result<Value, ApiError> {
        let (held, access) = self.held(link)?;
        self.room_for(0)?;
        let mut held = lock(&held);
        held.touched = Instant::now();
        permit(&held.session, access, act)?;
        let before = held.session.steps();
        // A session changes only once a request is known to succeed, so a defect that panics
        // half way leaves the game as it was.
        catch_unwind(AssertUnwindSafe(|| f(&mut held.session))).map_err(|_| {
            err(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error (the game was left as it was)",
            )
        })??;
        self.remeasure(&mut held);
        held.changed();
        Ok(view(link, &held, access, None, Some(before))?.0)
    }

    /// Waits for `client`'s turn to think, then for a free core.
    async fn think_turn(
        &self,
        client: Client,
    ) -> Result<
        (
            tokio::sync::OwnedSemaphorePermit,
            tokio::sync::SemaphorePermit<'_>,
        ),
        ApiError,
    > {
        let stopping = || err(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping");
        let mine = Arc::clone(
            lock(&self.thinking)
                .entry(client.0)
                .or_insert_with(|| Arc::new(Semaphore::new(1))),
        );
        let turn = mine.acquire_owned().await.map_err(|_| stopping())?;
        let core = self.thinkers.acquire().await.map_err(|_| stopping())?;
        Ok((turn, core))
    }

    /// Forgets the turns of clients that are not thinking.
    fn tidy_turns(&self) {
        lock(&self.thinking).retain(|_, turn| Arc::strong_count(turn) > 1);
    }
}

/// Runs `work` on a blocking thread, off the threads that answer requests: compiling rules,
/// replaying a record and building a view take long for a heavy game, and must not hold up
/// other clients.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|_| {
        err(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (the game was left as it was)",
        )
    })?
}

/// A poisoned lock only means a request panicked; the data it guards is changed only by whole
/// operations (each checked before it changes anything), so it is still sound.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// An error answer: a status and a message, as `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// A rules text's located errors and warnings, as `POST /api/check` gives them.
    diagnostics: Option<Value>,
}

fn err(status: StatusCode, message: impl Into<String>) -> ApiError {
    ApiError {
        status,
        message: message.into(),
        diagnostics: None,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some(d) = self.diagnostics {
            body["diagnostics"] = d;
        }
        (self.status, Body(body)).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let status = match r {
            Refusal::Bad(_) => StatusCode::BAD_REQUEST,
            Refusal::NotNow(_) => StatusCode::CONFLICT,
        };
        err(status, r.message())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        err(r.status(), cut(&quotes_cut(&r.body_text()), MESSAGE_CHARS))
    }
}

/// Characters of a parser's message about a request that are sent back.
const MESSAGE_CHARS: usize = 300;

/// Refused (403) when `access` may not do `act` in `session` now.
fn permit(session: &Session, access: Access, act: Act) -> Result<(), ApiError> {
    session
        .permit(access, act)
        .map_err(|why| err(StatusCode::FORBIDDEN, why))
}

fn bad_request(message: impl Into<String>) -> ApiError {
    err(StatusCode::BAD_REQUEST, message.into())
}

type Answer = Result<Response, ApiError>;

/// A JSON body that may be left out (empty): then every field takes its default.
fn optional<T: DeserializeOwned + Default>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(body).map_err(|e| {
        let why = quotes_cut(&e.to_string());
        bad_request(cut(&format!("malformed JSON body: {why}"), MESSAGE_CHARS))
    })
}

/// The routes of the page and the API.
pub fn app(server: Arc<Server>) -> Router {
    let body_bytes = server.limits.server_body_bytes;
    Router::new()
        .route(
            "/",
            get(|| async { page(PAGE, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE, "text/css; charset=utf-8") }),
        )
        .route(
            "/favicon.svg",
            get(|| async { page(ICON, "image/svg+xml") }),
        )
        .route(
            "/favicon.ico",
            get(|| async { page(ICON, "image/svg+xml") }),
        )
        .route("/api/rules", get(rules_list))
        .route("/api/check", post(check))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show).delete(drop_game))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/roll", post(roll))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/next", post(next))
        .route("/api/games/{id}/end", post(end))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/answer", post(answer))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/moments", get(moments))
        .route("/api/games/{id}/computer", post(computer))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/record", get(download_record))
        .fallback(|| async { err(StatusCode::NOT_FOUND, "no such page or API route") })
        .layer(DefaultBodyLimit::max(body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&server),
            read_body,
        ))
        .with_state(server)
}

/// Reads a request's body before any route sees it: refused past the body limit (before
/// reading, when its declared length says so) or when it is not all sent within the request
/// time, so that no route waits on a slow client.
async fn read_body(
    State(server): State<Arc<Server>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let most = server.limits.server_body_bytes;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > most as u64) {
        return err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body has {n} bytes; at most {most} are read"),
        )
        .into_response();
    }
    let seconds = server.limits.server_request_seconds;
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(
        Duration::from_secs(seconds),
        axum::body::to_bytes(body, most),
    )
    .await;
    match read {
        Ok(Ok(bytes)) => {
            let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            next.run(request).await
        }
        Ok(Err(_)) => err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body could not be read: more than {most} bytes, or cut off"),
        )
        .into_response(),
        Err(_) => err(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body was not all sent within {seconds} s"),
        )
        .into_response(),
    }
}

fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Connections the system may queue before they are accepted (it may cap this lower).
const LISTEN_QUEUE: u32 = 4096;

/// Where `ludus serve` listens.
pub struct Options {
    pub bind: IpAddr,
    pub port: u16,
    /// The caps the server keeps (`--limit` lowers them).
    pub limits: Limits,
}

/// Serves until interrupted (Ctrl-C). Prints the address once listening (port 0 takes a free
/// port, so the printed line is the way to learn it).
pub fn serve(options: Options) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let result = runtime.block_on(async {
        let address = SocketAddr::new(options.bind, options.port);
        let socket = match address {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        socket.bind(address)?;
        // A long queue of connections not yet accepted: a burst of new clients waits in it
        // instead of being dropped and retried a second later.
        let listener = socket.listen(LISTEN_QUEUE)?;
        let address = listener.local_addr()?;
        println!("Ludus serves at http://{address}/ (Ctrl-C stops it)");
        let server = Arc::new(Server::new(options.limits));
        let sweeper = Arc::clone(&server);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                sweeper.sweep();
                sweeper.tidy_turns();
            }
        });
        listen::serve(listener, app(server), options.limits).await;
        Ok::<(), std::io::Error>(())
    });
    // A search still thinking, a connection still open: not waited for.
    runtime.shutdown_background();
    result
}

/// `GET /api/rules`: the bundled games.
async fn rules_list() -> Answer {
    static LIST: OnceLock<Value> = OnceLock::new();
    let list = blocking(|| {
        Ok(LIST.get_or_init(|| {
            let games: Vec<Value> = BUNDLED
                .iter()
                .filter_map(|(name, text)| {
                    let game = registry::compile(text).ok()?;
                    Some(json!({
                        "name": name,
                        "family": game.family(),
                        "title": title(&game),
                        "players": game.player_names(),
                        "dice": game.dice().is_some(),
                    }))
                })
                .collect();
            json!({ "rules": games })
        }))
    })
    .await?;
    Ok(Body(list).into_response())
}

fn title(game: &AnyGame) -> String {
    game.describe()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    text: String,
}

/// `POST /api/check {"text": RULES}`: the rules' errors and warnings, located.
async fn check(body: Result<Body<CheckRequest>, JsonRejection>) -> Answer {
    let Body(request) = body?;
    let source = uploaded(&request.text)?;
    let answer = blocking(move || {
        let report = registry::check_source(&source);
        let errors = report.errors().count();
        Ok(json!({
            "errors": errors,
            "game": report.game.as_ref().map(|g| json!({"name": g.name(), "family": g.family(), "title": title(g)})),
            "diagnostics": diagnostics::to_json("rules", &source.text, &report.diagnostics),
        }))
    })
    .await?;
    Ok(Body(answer).into_response())
}

/// An uploaded rules text: checked as if bundled, so the rules it names (a match's games) are
/// bundled ones and nothing is read from the server's disk.
fn uploaded(text: &str) -> Result<Source, ApiError> {
    if text.len() as u64 > LIMITS.rules_file_bytes {
        return Err(err(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the rules text has {} bytes; a rules file may have at most {}",
                text.len(),
                LIMITS.rules_file_bytes
            ),
        ));
    }
    Ok(Source {
        name: "rules".into(),
        text: text.to_string(),
        origin: Origin::Bundled,
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A bundled game's name.
    rules: Option<String>,
    /// A rules text (pasted or uploaded).
    text: Option<String>,
    /// A record to replay (its rules bundled, or given as `text`).
    record: Option<String>,
    seats: Option<[String; 2]>,
    first: Option<Player>,
    seed: Option<u64>,
}

/// `POST /api/games`: a new game of bundled rules or of a rules text, or a record replayed.
async fn new_game(
    State(server): State<Arc<Server>>,
    client: Client,
    body: Result<Body<NewGame>, JsonRejection>,
) -> Answer {
    let Body(request) = body?;
    let seats = match &request.seats {
        Some([a, b]) => Some([
            parse_seat(a, &server.limits)?,
            parse_seat(b, &server.limits)?,
        ]),
        None => None,
    };
    if request.first.is_some_and(|p| p > 1) {
        return Err(bad_request("`first` must be 0 or 1"));
    }
    let answer = blocking(move || begin(&server, request, seats, client)).await?;
    Ok((StatusCode::CREATED, answer).into_response())
}

/// A new game (or a record replayed) held for `client`: its view.
fn begin(
    server: &Server,
    request: NewGame,
    seats: Option<[Seat; 2]>,
    client: Client,
) -> Result<Body<Value>, ApiError> {
    // Without seats: a person against the rules' learned network where they name one, else
    // against mcts.
    let seats = |game: &AnyGame| {
        let here = |spec| Seat {
            spec,
            elsewhere: false,
        };
        seats.unwrap_or_else(|| match game.names_network() {
            true => [Spec::Human, ludus_players::NetPlayer::default().into()].map(here),
            false => [Spec::Human, ludus_players::Mcts::default().into()].map(here),
        })
    };
    let session = match &request.record {
        Some(record) => {
            if request.rules.is_some() {
                return Err(bad_request(
                    "a record names its own rules: give `text` only when they are not bundled",
                ));
            }
            let header = record::read_header(&mut record.as_bytes())
                .map_err(|e| bad_request(format!("record line {}: {}", e.line, e.message)))?;
            let source = match &request.text {
                Some(text) => uploaded(text)?,
                None => Source::find_from(&Origin::Bundled, &header.rules).map_err(|_| {
                    bad_request(format!(
                        "the record was played with the rules `{}`, which are not bundled: \
                         give their text as well",
                        excerpt(&header.rules)
                    ))
                })?,
            };
            if source.digest() != header.digest {
                return Err(bad_request(
                    "the rules are not the text the record was made with (they changed since)",
                ));
            }
            let game = compiled(&source)?;
            let seats = seats(&game);
            Session::replayed(game, header, record, seats, &server.limits)?
        }
        None => {
            let (source, rules) = match (&request.rules, &request.text) {
                (Some(name), None) => {
                    let source = Source::find_from(&Origin::Bundled, name).map_err(|_| {
                        let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
                        err(
                            StatusCode::NOT_FOUND,
                            format!(
                                "no bundled game named `{}` (bundled: {}); to play other \
                                 rules, send their text as `text`",
                                excerpt(name),
                                names.join(", ")
                            ),
                        )
                    })?;
                    (source, name.clone())
                }
                (None, Some(text)) => (uploaded(text)?, "uploaded.toml".to_string()),
                _ => {
                    return Err(bad_request(
                        "give either `rules` (a bundled game's name) or `text` (a rules text)",
                    ))
                }
            };
            let header = Header {
                record: record::FORMAT.into(),
                rules,
                digest: source.digest(),
                seed: None,
                players: ["human".into(), "human".into()],
            };
            let game = compiled(&source)?;
            let start = Seating {
                seats: seats(&game),
                first: request.first,
                seed: request.seed,
            };
            Session::new(game, header, start, &server.limits)
        }
    };
    server.hold(session, client)
}

/// The game of a rules source, or its located errors (400, with `diagnostics`).
fn compiled(source: &Source) -> Result<AnyGame, ApiError> {
    let report = registry::check_source(source);
    match report.game {
        Some(game) => Ok(game),
        None => {
            let errors: Vec<_> = report.errors().collect();
            let first = errors.first().map_or(String::new(), |d| {
                let start = d.span.as_ref().map_or(0, |s| s.start);
                let (line, column) = diagnostics::line_column(&source.text, start);
                format!("line {line}, column {column}: {}", d.message)
            });
            Err(ApiError {
                status: StatusCode::BAD_REQUEST,
                message: format!(
                    "the rules have {} error(s); the first at {first}",
                    errors.len()
                ),
                diagnostics: Some(diagnostics::to_json(
                    &source.name,
                    &source.text,
                    &report.diagnostics,
                )),
            })
        }
    }
}

/// 128 random bits in hex: an id no other client can guess.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    ChaCha8Rng::from_entropy().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The view of a game as the link `link` gets it; after a change, with only the steps the
/// change added to the move list. The link the game was begun from also gets the other links.
fn view(
    link: &str,
    held: &Held,
    access: Access,
    at: Option<usize>,
    log_from: Option<usize>,
) -> Result<Body<Value>, ApiError> {
    let mut v = held.session.view(at, log_from, access)?;
    v["id"] = json!(link);
    v["changes"] = json!(*held.changes.borrow());
    if access == Access::Owner {
        v["links"] = json!({"watch": held.watch, "friends": held.friends});
    }
    Ok(Body(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct At {
    at: Option<usize>,
    /// The first step of the move list to send (a page that holds the steps before it).
    from: Option<usize>,
}

/// `GET /api/games/{id}[?at=N][&from=K]`: the game's view, at step N for review, its move list
/// from step K.
async fn show(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    at: Result<Query<At>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(At { at, from }) = at.map_err(|e| bad_request(e.body_text()))?;
    reading(&server, id, move |id, held, access| {
        view(id, held, access, at, from)
    })
    .await
}

/// Answers a request that reads the game `id` names (any of its links may): `answer` of the game
/// as held, off the threads that answer requests.
async fn reading(
    server: &Server,
    id: String,
    answer: impl FnOnce(&str, &Held, Access) -> Result<Body<Value>, ApiError> + Send + 'static,
) -> Answer {
    let (held, access) = server.held(&id)?;
    let answer = blocking(move || {
        let mut held = lock(&held);
        held.touched = Instant::now();
        answer(&id, &held, access)
    })
    .await?;
    Ok(answer.into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    step: Option<usize>,
}

/// `GET /api/games/{id}/moments[?step=N]`: the move of step N (the latest by default) played out
/// stone by stone, for the page to animate.
async fn moments(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    step: Result<Query<Step>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(Step { step }) = step.map_err(|e| bad_request(e.body_text()))?;
    reading(&server, id, move |_, held, access| {
        Ok(Body(held.session.moments(step, access)?))
    })
    .await
}

async fn drop_game(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Answer {
    let (held, access) = server.held(&id)?;
    permit(&lock(&held).session, access, Act::Own)?;
    if let Some(slot) = lock(&server.games).remove(&id) {
        server.forget(&mut lock(&slot.held));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// `POST /api/games/{id}/move {"move": TEXT}`.
async fn play(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Body<MoveRequest>, JsonRejection>,
) -> Answer {
    let Body(request) = body?;
    changed(server, id, Act::Turn, move |s| s.play(&request.text)).await
}

/// Runs `f` on the game a link leads to, off the request threads, when the link may do `act`:
/// the game's view after it.
async fn changed(
    server: Arc<Server>,
    id: String,
    act: Act,
    f: impl FnOnce(&mut Session) -> Result<(), Refusal> + Send + 'static,
) -> Answer {
    let v = blocking(move || server.change(&id, act, f)).await?;
    Ok(Body(v).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RollRequest {
    dice: Option<Vec<u8>>,
}

/// `POST /api/games/{id}/roll [{"dice": [a, b]}]`: the server's dice, or real ones typed in.
async fn roll(State(server): State<Arc<Server>>, Path(id): Path<String>, body: Bytes) -> Answer {
    let request: RollRequest = optional(&body)?;
    changed(server, id, Act::Turn, move |s| {
        s.roll(request.dice.as_deref())
    })
    .await
}

async fn undo(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Answer {
    changed(server, id, Act::Undo, Session::undo).await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NextRequest {
    first: Option<Player>,
}

async fn next(State(server): State<Arc<Server>>, Path(id): Path<String>, body: Bytes) -> Answer {
    let request: NextRequest = optional(&body)?;
    if request.first.is_some_and(|p| p > 1) {
        return Err(bad_request("`first` must be 0 or 1"));
    }
    changed(server, id, Act::Next, move |s| s.next_game(request.first)).await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct EndRequest {
    accepted: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    resign: Option<Resignation>,
    accepted: Option<bool>,
}

/// `POST /api/games/{id}/resign [{"resign": "gammon", "accepted": B}]`: the person whose turn
/// it is resigns; the view after, with `"accepted"` (null while a person elsewhere is to
/// answer).
async fn resign(State(server): State<Arc<Server>>, Path(id): Path<String>, body: Bytes) -> Answer {
    let request: ResignRequest = optional(&body)?;
    let level = request.resign.unwrap_or(Resignation::Single);
    answered(server, id, Act::Turn, move |s, access| {
        s.resign(level, request.accepted, access)
    })
    .await
}

/// The view after an offer that ends the game (`offer`: whether it was accepted, `None` while a
/// person elsewhere is to answer), with `"accepted"`.
async fn answered(
    server: Arc<Server>,
    link: String,
    act: Act,
    offer: impl FnOnce(&mut Session, Access) -> Result<Option<bool>, Refusal> + Send + 'static,
) -> Answer {
    let (_, access) = server.held(&link)?;
    let v = blocking(move || {
        let mut accepted = None;
        let mut v = server.change(&link, act, |s| {
            accepted = offer(s, access)?;
            Ok(())
        })?;
        v["accepted"] = json!(accepted);
        Ok(v)
    })
    .await?;
    Ok(Body(v).into_response())
}

/// `POST /api/games/{id}/end [{"accepted": B}]`: the person to move offers to end the game;
/// the view after, with `"accepted"` (null while a person elsewhere is to answer).
async fn end(State(server): State<Arc<Server>>, Path(id): Path<String>, body: Bytes) -> Answer {
    let request: EndRequest = optional(&body)?;
    answered(server, id, Act::Turn, move |s, access| {
        s.offer_end(request.accepted, access)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerRequest {
    accepted: bool,
}

/// `POST /api/games/{id}/answer {"accepted": B}`: the person an offer was made to answers it;
/// the view after, with `"accepted"`.
async fn answer(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Body<AnswerRequest>, JsonRejection>,
) -> Answer {
    let Body(request) = body?;
    answered(server, id, Act::Answer, move |s, _| {
        s.answer(request.accepted).map(Some)
    })
    .await
}

/// `GET /api/games/{id}/events`: server-sent events, one (`change`, with the count of changes)
/// as the stream opens and after every change of the game, so that every page following it
/// (a friend's, a spectator's) asks for the new view at once. It ends when the game is dropped;
/// a comment every [`KEEP_ALIVE`] keeps proxies from closing it and finds clients gone.
async fn events(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Answer {
    let (held, _) = server.held(&id)?;
    let mut changes = lock(&held).changes.subscribe();
    drop(held);
    changes.mark_changed();
    let stream = futures_util::stream::unfold(changes, |mut changes| async move {
        changes.changed().await.ok()?;
        let n = *changes.borrow_and_update();
        let event = Event::default()
            .event("change")
            .data(json!({ "changes": n }).to_string());
        Some((Ok::<_, std::convert::Infallible>(event), changes))
    });
    let keep = KeepAlive::new().interval(KEEP_ALIVE);
    Ok(Sse::new(stream).keep_alive(keep).into_response())
}

/// How often a stream of events sends a comment when nothing happens.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Thinks about `thinking` on a blocking thread once a core is free: the chosen move's index
/// and the search's report.
async fn think(
    server: &Server,
    client: Client,
    thinking: &Thinking,
    hint: bool,
) -> Result<(usize, Value), ApiError> {
    let _turn = server.think_turn(client).await?;
    let thinking = thinking.clone();
    tokio::task::spawn_blocking(move || {
        let (game, state, spec) = (&thinking.game, &thinking.state, thinking.spec);
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return Err(err(StatusCode::CONFLICT, "no legal move"));
        }
        let (index, analysis) = thinking.decide(hint);
        let mut report = json!({"player": spec.to_string()});
        if let Some(a) = analysis {
            let best: Vec<Value> = a
                .moves
                .iter()
                .take(5)
                .map(|m| {
                    json!({
                        "move": game.move_json(state, &moves[m.index]),
                        "value": ludus_players::rounded(m.value),
                        "visits": m.visits,
                    })
                })
                .collect();
            report["depth"] = json!(a.depth);
            report["nodes"] = json!(a.nodes);
            report["moves"] = json!(best);
        }
        Ok((index, report))
    })
    .await
    .map_err(|_| {
        err(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the computer player failed",
        )
    })?
}

/// `POST /api/games/{id}/computer`: the computer player to move thinks and plays.
async fn computer(
    State(server): State<Arc<Server>>,
    client: Client,
    Path(id): Path<String>,
) -> Answer {
    let (held, access) = server.held(&id)?;
    let thinking = {
        let held = lock(&held);
        permit(&held.session, access, Act::Own)?;
        held.session.thinking(false)?
    };
    let (index, report) = think(&server, client, &thinking, false).await?;
    let v = blocking(move || {
        let mut v = server.change(&id, Act::Own, |s| s.play_thought(&thinking, index))?;
        v["thought"] = report;
        Ok(v)
    })
    .await?;
    Ok(Body(v).into_response())
}

/// `POST /api/games/{id}/hint`: the best moves as a computer player sees them (not played).
async fn hint(State(server): State<Arc<Server>>, client: Client, Path(id): Path<String>) -> Answer {
    let (held, access) = server.held(&id)?;
    let thinking = {
        let held = lock(&held);
        permit(&held.session, access, Act::Turn)?;
        held.session.thinking(true)?
    };
    let (_, report) = think(&server, client, &thinking, true).await?;
    lock(&held).touched = Instant::now();
    Ok(Body(report).into_response())
}

/// `GET /api/games/{id}/record`: the record, a file `ludus replay` reads.
async fn download_record(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Answer {
    let (held, _) = server.held(&id)?;
    let (name, record) = blocking(move || {
        let mut held = lock(&held);
        held.touched = Instant::now();
        Ok((held.session.file_name(), held.session.record()))
    })
    .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-ndjson; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        record,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oware() -> Session {
        let (source, game) = registry::load("oware").unwrap();
        let header = Header {
            record: record::FORMAT.into(),
            rules: "oware".into(),
            digest: source.digest(),
            seed: None,
            players: ["human".into(), "human".into()],
        };
        let start = Seating {
            seats: [Seat {
                spec: Spec::Human,
                elsewhere: false,
            }; 2],
            first: Some(0),
            seed: Some(1),
        };
        Session::new(game, header, start, &LIMITS)
    }

    const CLIENT: Client = Client(IpAddr::V4(Ipv4Addr::LOCALHOST));

    #[test]
    fn idle_games_are_dropped_and_others_kept() {
        let kept = Server::new(LIMITS);
        let id = kept.hold(oware(), CLIENT).unwrap().0["id"]
            .as_str()
            .unwrap()
            .to_string();
        kept.sweep();
        assert!(kept.held(&id).is_ok());

        let idle = Server::new(Limits {
            server_idle_seconds: 0,
            ..LIMITS
        });
        let id = idle.hold(oware(), CLIENT).unwrap().0["id"]
            .as_str()
            .unwrap()
            .to_string();
        let (in_use, _) = idle.held(&id).unwrap();
        let guard = lock(&in_use);
        idle.sweep();
        assert!(idle.held(&id).is_ok(), "a game in use is kept");
        drop(guard);
        idle.sweep();
        let Err(e) = idle.held(&id) else {
            panic!("an idle game is dropped")
        };
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        assert!(e.message.contains("idle"), "{}", e.message);
    }

    #[test]
    fn a_client_thinks_one_move_at_a_time_and_another_gets_a_free_core() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let server = Server {
                thinkers: Semaphore::new(2),
                ..Server::new(LIMITS)
            };
            let other = Client(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
            let wait = Duration::from_millis(50);
            let first = server.think_turn(CLIENT).await.unwrap();
            // The same client's next search waits for its first, though a core is free...
            let second = tokio::time::timeout(wait, server.think_turn(CLIENT)).await;
            assert!(second.is_err(), "a client's second search waits its turn");
            // ...which another client gets at once.
            let theirs = tokio::time::timeout(wait, server.think_turn(other)).await;
            assert!(theirs.is_ok(), "another client thinks on the free core");
            // With every core taken, a search waits for one.
            let third = Client(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3)));
            let waits = tokio::time::timeout(wait, server.think_turn(third)).await;
            assert!(waits.is_err(), "both cores are taken");
            drop(first);
            let second = tokio::time::timeout(wait, server.think_turn(CLIENT)).await;
            assert!(
                second.is_ok(),
                "the client's turn again, on the core it freed"
            );
            drop((second, theirs));
            server.tidy_turns();
            assert!(lock(&server.thinking).is_empty(), "no client is thinking");
        });
    }

    #[test]
    fn ids_are_128_random_bits() {
        let (a, b) = (new_id(), new_id());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
