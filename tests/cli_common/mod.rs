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
