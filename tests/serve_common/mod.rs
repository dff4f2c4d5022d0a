//! Shared helpers of the tests that talk to `ludus serve`: the server started on a free port of
//! this machine, stopped when dropped.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
}

impl Served {
    /// Starts `ludus serve --port 0` and reads the address it prints.
    pub fn start() -> Served {
        Served::start_with(&[])
    }

    /// Starts `ludus serve --port 0` with more arguments (`--limit server_games=2`).
    pub fn start_with(args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start ludus serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the address");
        let start = line.find("http://").expect("an address");
        let base = line[start..]
            .split_whitespace()
            .next()
            .expect("an address")
            .trim_end_matches('/')
            .to_string();
        assert!(base.starts_with("http://127.0.0.1:"), "{line}");
        Served { child, base }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `host:port`, for a raw connection.
    pub fn address(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// Sends Ctrl-C (SIGINT) and waits at most `within` for the server to exit: whether it did.
    pub fn interrupt(&mut self, within: std::time::Duration) -> bool {
        // SAFETY: a signal to a child process this value owns and has not reaped.
        unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGINT) };
        let since = std::time::Instant::now();
        while since.elapsed() < within {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
