//! A `senet serve` on a free loopback port, stopped when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running `senet serve`.
pub(crate) struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub(crate) url: String,
}

impl Server {
    /// Starts the server on port 0 and reads the address it printed.
    pub(crate) fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts the server on port 0 with the further arguments `args`.
    pub(crate) fn start_with(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_senet"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("senet serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("senet serve prints its address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, url }
    }

    /// Starts the server on port 0 with its rooms kept in `database` and played without a
    /// pause (`--room-pace-ms 0`), and the further arguments `args`.
    pub(crate) fn with_rooms(database: &Path, args: &[&str]) -> Server {
        let database = database.to_str().expect("a UTF-8 path");
        let rooms = ["--room-pace-ms", "0", "--database", database];
        Server::start_with(&[&rooms[..], args].concat())
    }

    /// The address of `path` on the server (`path` may start with `/`).
    pub(crate) fn at(&self, path: &str) -> String {
        format!("{}{}", self.url, path.trim_start_matches('/'))
    }

    /// The server's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The port the server listens on.
    pub(crate) fn port(&self) -> u16 {
        let address = self.url.trim_start_matches("http://").trim_end_matches('/');
        let port = address.rsplit(':').next().expect("a port");
        port.parse().expect("a port number")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON answer to `request`, which must be sent and answered.
pub(crate) async fn json_answer(request: reqwest::RequestBuilder) -> Value {
    request.send().await.unwrap().json().await.unwrap()
}
