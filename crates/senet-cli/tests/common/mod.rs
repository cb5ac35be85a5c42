//! Running the `senet` binary from tests.

#![allow(dead_code)] // each test file uses part of this module

pub(crate) mod browser;
pub(crate) mod server;

use std::io::Write;
use std::process::{Command, Stdio};

/// What a run of `senet` produced.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) status: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// Asserts success and returns stdout.
    pub(crate) fn ok(self) -> String {
        assert_eq!(self.status, Some(0), "{self:#?}");
        self.stdout
    }

    /// Asserts a refusal: exit status 2, nothing on stdout, one line on stderr that starts
    /// with `senet: ` and contains `needle`; returns that line.
    pub(crate) fn refused(self, needle: &str) -> String {
        assert_eq!(self.status, Some(2), "{self:#?}");
        assert_eq!(self.stdout, "", "{self:#?}");
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line expected: {self:#?}");
        assert!(lines[0].starts_with("senet: "), "{self:#?}");
        assert!(
            lines[0].contains(needle),
            "{:?} should mention {needle:?}",
            lines[0]
        );
        assert!(!self.stderr.contains("panicked"), "{self:#?}");
        lines[0].to_string()
    }
}

/// What a test lacks that is not a program (a build, a script): a failure when `require_var`
/// is set (to anything but `0`, as `.ci/run` sets it), else one line on stderr saying that
/// `test` was skipped, what is `missing` and `how` to get it.
pub(crate) fn skip_unless_required(test: &str, require_var: &str, missing: &str, how: &str) {
    let required = std::env::var_os(require_var).is_some_and(|v| v != "0");
    assert!(
        !required,
        "{test}: {missing}, and {require_var} is set; {how}"
    );
    // Straight to the process's stderr: libtest captures the output of a test that passes.
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: {missing} ({how}; {require_var}=1 makes this a failure)"
    );
}

/// Runs `senet` with `args`, feeding `stdin`.
pub(crate) fn senet_with_input(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the senet binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    // The command may stop reading early (on an error); a closed pipe is fine then.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let output = child.wait_with_output().expect("senet finishes");
    Run {
        status: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `senet` with `args` and empty input.
pub(crate) fn senet(args: &[&str]) -> Run {
    senet_with_input(args, "")
}

/// The board part of the position notation with Black on `black` and White on `white`.
pub(crate) fn board(black: &[u8], white: &[u8]) -> String {
    let mut squares = ['.'; 30];
    for (set, letter) in [(black, 'B'), (white, 'W')] {
        for &n in set {
            squares[usize::from(n - 1)] = letter;
        }
    }
    squares.iter().collect()
}

/// A position: `board(black, white)` followed by `rest` (the side and any fields).
pub(crate) fn pos(black: &[u8], white: &[u8], rest: &str) -> String {
    format!("{} {rest}", board(black, white))
}

/// The `(move, after)` pairs printed by `senet moves`.
pub(crate) fn parse_moves(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let object = value.as_object().expect("a JSON object");
            assert_eq!(object.len(), 2, "{line}");
            (
                object["move"]
                    .as_str()
                    .expect("move is a string")
                    .to_string(),
                object["after"]
                    .as_str()
                    .expect("after is a string")
                    .to_string(),
            )
        })
        .collect()
}
