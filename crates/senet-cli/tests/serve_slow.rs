//! `senet serve` against slow clients, over raw TCP: connections idle or kept alive are
//! closed, headers and bodies that trickle in are cut off, and a body declared larger than
//! the limit is refused before it is sent. The server runs with its hidden test timeouts
//! (1 s for headers, 2 s for bodies) so that the tests take seconds; the defaults (10 s and
//! 30 s) are the same code with other numbers.

mod common;

use common::server::Server;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Generous against a loaded machine, yet below the default header timeout (10 s): a
/// connection closed within it was closed by the test timeout.
const CLOSED_WITHIN: Duration = Duration::from_secs(9);

fn slow_server() -> Server {
    Server::start_with(&["--header-timeout-ms", "1000", "--body-timeout-ms", "2000"])
}

fn connect(server: &Server) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    stream
}

/// What `stream` reads until the server closes it, writing one byte of `trickle` (if any)
/// every 100 ms meanwhile; None if it is still open after [`CLOSED_WITHIN`].
fn until_closed(stream: &mut TcpStream, trickle: Option<u8>) -> Option<(String, Duration)> {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buffer = [0; 4096];
    while started.elapsed() < CLOSED_WITHIN {
        if let Some(byte) = trickle
            && stream.write_all(&[byte]).is_err()
        {
            return Some((
                String::from_utf8_lossy(&got).into_owned(),
                started.elapsed(),
            ));
        }
        match stream.read(&mut buffer) {
            Ok(0) => {
                return Some((
                    String::from_utf8_lossy(&got).into_owned(),
                    started.elapsed(),
                ));
            }
            Ok(n) => got.extend_from_slice(&buffer[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            // Reset: closed with our bytes unread.
            Err(_) => {
                return Some((
                    String::from_utf8_lossy(&got).into_owned(),
                    started.elapsed(),
                ));
            }
        }
    }
    None
}

/// Nine connections that send nothing, and one that stays open after its answer, are all
/// closed by the header timeout, and the server answers others meanwhile.
#[test]
fn idle_connections_are_closed() {
    let server = slow_server();
    let opened = Instant::now();
    let mut idle: Vec<TcpStream> = (0..9).map(|_| connect(&server)).collect();
    let mut kept = connect(&server);
    write!(
        kept,
        "GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        server.port()
    )
    .unwrap();
    for stream in idle.iter_mut().chain([&mut kept]) {
        let (got, _) = until_closed(stream, None).expect("the connection is closed");
        assert!(got.is_empty() || got.starts_with("HTTP/1.1 200"), "{got:?}");
        println!("closed {:?} after it opened", opened.elapsed());
    }
}

/// Headers sent a byte every 100 ms never complete: the connection is closed.
#[test]
fn trickled_headers_are_cut_off() {
    let server = slow_server();
    let mut stream = connect(&server);
    write!(
        stream,
        "POST /api/game HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Slow: ",
        server.port()
    )
    .unwrap();
    let (got, after) = until_closed(&mut stream, Some(b'a')).expect("the connection is closed");
    assert!(!got.contains("200 OK"), "{got:?}");
    println!("closed after {after:?}: {got:?}");
}

/// A body sent a byte every 100 ms gets a 408 with a reason, and the connection is closed.
#[test]
fn a_trickled_body_gets_a_408() {
    let server = slow_server();
    let mut stream = connect(&server);
    write!(
        stream,
        "POST /api/game HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n{{",
        server.port()
    )
    .unwrap();
    let (got, after) = until_closed(&mut stream, Some(b' ')).expect("the connection is closed");
    assert!(got.starts_with("HTTP/1.1 408"), "{got:?}");
    assert!(got.contains("did not arrive within 2 s"), "{got:?}");
    println!("closed after {after:?}");
}

/// A body declared as 10^12 bytes is refused (413) without waiting for it: a wait would end
/// in the body timeout's 408.
#[test]
fn a_body_declared_too_large_is_refused_at_once() {
    let server = slow_server();
    let mut stream = connect(&server);
    write!(
        stream,
        "POST /api/game HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000000000000\r\n\r\n{{",
        server.port()
    )
    .unwrap();
    let (got, _) = until_closed(&mut stream, None).expect("the connection is closed");
    assert!(got.starts_with("HTTP/1.1 413"), "{got:?}");
    assert!(got.contains("20000 actions"), "{got:?}");
}
