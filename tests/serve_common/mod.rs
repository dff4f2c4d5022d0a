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
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
