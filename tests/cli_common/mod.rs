//! Shared helpers of the tests that run the `ludus` binary.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `ludus ARGS` to its end.
pub fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("run ludus")
}

/// Runs `program ARGS` with `input` on its standard input, to its end.
pub fn run_with_input(program: &str, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start the program");
    // A program that exits early closes its input: what it read is all it needed.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes());
    child.wait_with_output().expect("wait for the program")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `ludus play ARGS`: its standard output. It exits 0 once the game is over, 3 when the game
/// was abandoned (`quit`, or the input ran out).
pub fn play(args: &[&str]) -> String {
    let o = ludus(&[&["play"], args].concat());
    let out = stdout(&o);
    let expected = if out.contains("Game abandoned.") {
        3
    } else {
        0
    };
    assert_eq!(
        o.status.code(),
        Some(expected),
        "play {args:?}: {}",
        stderr(&o)
    );
    out
}

/// `ludus protocol` as a client talks to it: a request a line, its answer read back; the
/// session ends (its input closed) when this is dropped.
pub struct Protocol {
    child: std::process::Child,
    input: Option<std::process::ChildStdin>,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Protocol {
    pub fn start() -> Protocol {
        Protocol::start_with(&[])
    }

    /// `ludus protocol` with more arguments (`--limit` settings).
    pub fn start_with(args: &[&str]) -> Protocol {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludus"))
            .arg("protocol")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start ludus protocol");
        let input = child.stdin.take();
        let output = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        Protocol {
            child,
            input,
            output,
        }
    }

    /// Sends `request`: its answer, and the answer's length in bytes.
    pub fn ask(&mut self, request: &serde_json::Value) -> (serde_json::Value, usize) {
        use std::io::{BufRead, Write};
        let input = self.input.as_mut().expect("the session is open");
        writeln!(input, "{request}").expect("send a request");
        let mut line = String::new();
        self.output.read_line(&mut line).expect("read an answer");
        let answer = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("unparsable answer {line:?}: {e}"));
        (answer, line.len())
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Protocol {
    fn drop(&mut self) {
        drop(self.input.take());
        let _ = self.child.wait();
    }
}
