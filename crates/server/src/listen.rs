//! The connections of `ludus serve`: each accepted within the caps (open at once, and from one
//! address), given a bounded time to send each request's head (and closed after as long with
//! no request), and every request tagged with the address it came from. Ctrl-C stops the
//! server at once: no new connection, a moment for the requests being answered, then every
//! connection is cut, even one holding a half-sent request.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use ludus_core::limits::Limits;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_service::Service;

/// How long the requests being answered when the server is stopped may take to finish.
const GRACE: Duration = Duration::from_secs(2);

/// Serves `router` on `listener` until Ctrl-C.
pub(crate) async fn serve(listener: TcpListener, router: Router, limits: Limits) {
    let caps = Arc::new(Caps {
        open: Arc::new(Semaphore::new(limits.server_connections)),
        by_client: Mutex::new(HashMap::new()),
        answering: AtomicUsize::new(0),
        limits,
    });
    let stop = tokio::signal::ctrl_c();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, or a connection reset before it was accepted: wait
                // a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        match Caps::admit(&caps, peer.ip()) {
            Ok(open) => {
                tokio::spawn(connection(stream, peer, router.clone(), open));
            }
            Err(why) => refuse(stream, &why),
        }
    }
    // Stopping: the requests being answered get a moment to finish; then every connection is
    // cut as the runtime stops.
    let since = tokio::time::Instant::now();
    while caps.answering.load(Ordering::Relaxed) > 0 && since.elapsed() < GRACE {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// One connection: its requests served one after another, each head within the request time.
async fn connection(stream: TcpStream, peer: SocketAddr, router: Router, open: Open) {
    let caps = Arc::clone(&open.caps);
    let seconds = caps.limits.server_request_seconds;
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        let mut router = router.clone();
        let answering = Answering::new(&caps);
        async move {
            let answer = router.call(request).await;
            drop(answering);
            answer
        }
    });
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(Duration::from_secs(seconds));
    // A connection that fails (reset, timed out) ends here; the server goes on.
    let _ = http.serve_connection(TokioIo::new(stream), service).await;
    drop(open);
}

/// The connections open, at once and by address, and the requests being answered.
struct Caps {
    open: Arc<Semaphore>,
    by_client: Mutex<HashMap<IpAddr, usize>>,
    answering: AtomicUsize,
    limits: Limits,
}

/// A request being answered, counted while it is.
struct Answering(Arc<Caps>);

impl Answering {
    fn new(caps: &Arc<Caps>) -> Answering {
        caps.answering.fetch_add(1, Ordering::Relaxed);
        Answering(Arc::clone(caps))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answering.fetch_sub(1, Ordering::Relaxed);
    }
}

/// An open connection's place: given back when it closes.
struct Open {
    _permit: OwnedSemaphorePermit,
    caps: Arc<Caps>,
    client: IpAddr,
}

impl Caps {
    /// A place for a new connection from `client`, or why there is none.
    fn admit(caps: &Arc<Caps>, client: IpAddr) -> Result<Open, String> {
        let permit = Arc::clone(&caps.open).try_acquire_owned().map_err(|_| {
            format!(
                "this server keeps {} connections open, its most: try again in a moment",
                caps.limits.server_connections
            )
        })?;
        let mut by_client = super::lock(&caps.by_client);
        let mine = by_client.entry(client).or_insert(0);
        if *mine >= caps.limits.server_client_connections {
            return Err(format!(
                "this address has {} connections open, the most one client may: close one",
                caps.limits.server_client_connections
            ));
        }
        *mine += 1;
        Ok(Open {
            _permit: permit,
            caps: Arc::clone(caps),
            client,
        })
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut by_client = super::lock(&self.caps.by_client);
        if let Some(n) = by_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                by_client.remove(&self.client);
            }
        }
    }
}

/// Answers a connection there is no place for with 503 and the reason (as far as the socket
/// takes it at once: a refusal never waits on the client), then closes it.
fn refuse(stream: TcpStream, why: &str) {
    let body = serde_json::json!({ "error": why }).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}
