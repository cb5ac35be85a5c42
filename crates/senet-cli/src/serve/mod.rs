//! `senet serve`: the game in a web browser. One page (embedded in the binary) and a
//! stateless JSON API: every request carries the game's record, which the server replays
//! and checks, so it keeps no game in memory and undo, redo, saving and replays are the
//! page's business. The endpoints are described in `docs/web.md`. Rooms ([`rooms`]) are the
//! exception: games between two seats by link, kept in SQLite ([`store`]).

mod api;
mod rooms;
mod store;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::http::Request;
use clap::Args;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::Semaphore;

use crate::error::CliError;
use crate::limits::{MAX_CONNECTIONS, WEB_BODY_SECONDS, WEB_HEADER_SECONDS};

pub(crate) use api::router;
use api::{Access, LocalAddr};

/// Play in a web browser: a local server for one page with the board, every ruleset and
/// computer player, the rules in prose, hints with their odds, undo, saving, replays and an
/// analysis of the game (what each move cost, what each throw gave).
///
/// The server listens on 127.0.0.1 (this computer only) unless --host says otherwise, and
/// prints the address to open. Stop it with Ctrl-C.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8421)]
    port: u16,
    /// The address to listen on; 0.0.0.0 opens the game to the whole network (no accounts:
    /// anyone who reaches it can play and use this computer's processors).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// A host name the page may be reached under besides the address (repeatable), such as
    /// this machine's name on the network; requests naming any other host are refused.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    open: bool,
    /// For tests: the header and idle timeout in milliseconds, at most the default.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=WEB_HEADER_SECONDS * 1000))]
    header_timeout_ms: Option<u64>,
    /// The rooms' database (rooms: games with a friend by link); default
    /// `$XDG_DATA_HOME/senet/rooms.sqlite3` or `~/.local/share/senet/rooms.sqlite3`, created
    /// when the first room is. Given, it is opened (and its schema migrated) at start.
    #[arg(long, value_name = "PATH")]
    database: Option<std::path::PathBuf>,
    /// The most unfinished rooms at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_rooms: u64,
    /// The most rooms one client address may open an hour (0: no limit). Behind a reverse
    /// proxy every client has the proxy's address: raise it.
    #[arg(long, default_value_t = 20)]
    rooms_per_hour: u32,
    /// For tests: how long a computer seat of a room waits before it acts, in milliseconds.
    #[arg(long, hide = true, default_value_t = 500, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    room_pace_ms: u64,
    /// For tests: the body timeout in milliseconds, at most the default.
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(1..=WEB_BODY_SECONDS * 1000))]
    body_timeout_ms: Option<u64>,
}

/// Asks the desktop to open `url`; failing to is not an error, the address is printed.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        eprintln!("senet: could not start {opener}; open {url} yourself");
    }
}

/// Checks a name given with `--allow-host`: a DNS name or an address, as a `Host` header
/// writes it, without the port. Returns it in lower case.
fn allowed_name(name: &str) -> Result<String, CliError> {
    let name = name.trim().trim_end_matches('.').to_ascii_lowercase();
    let unbracketed = name.trim_start_matches('[').trim_end_matches(']');
    let is_address = unbracketed.parse::<IpAddr>().is_ok();
    let is_dns_name = !name.is_empty()
        && name.len() <= 253
        && name
            .split('.')
            .all(|label| !label.is_empty() && label.len() <= 63)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if is_address || is_dns_name {
        Ok(name)
    } else {
        Err(CliError::input(format!(
            "--allow-host {}: give a host name (letters, digits, '-' and '.') or an address, \
             without the port",
            senet::shorten(&name)
        )))
    }
}

pub(crate) fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let names = args
        .allow_host
        .iter()
        .map(|n| allowed_name(n))
        .collect::<Result<Vec<_>, _>>()?;
    let header_timeout = args.header_timeout_ms.map_or(
        Duration::from_secs(WEB_HEADER_SECONDS),
        Duration::from_millis,
    );
    let access = Access {
        names,
        body_timeout: args
            .body_timeout_ms
            .map_or(Duration::from_secs(WEB_BODY_SECONDS), Duration::from_millis),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the server: {e}")))?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| CliError::input(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        if !args.host.is_loopback() {
            // The page has no accounts: whoever reaches the port plays and spends the CPU.
            eprintln!(
                "senet: warning: listening on {}, not on this computer alone: anyone who can \
                 reach this address can use the game and this computer's processors (there are \
                 no accounts); use --host 127.0.0.1 to keep it local",
                args.host
            );
        }
        let rooms = rooms::RoomsConfig {
            database: args.database.clone(),
            max_rooms: usize::try_from(args.max_rooms).unwrap_or(usize::MAX),
            per_hour: args.rooms_per_hour as usize,
            pace: Duration::from_millis(args.room_pace_ms),
        };
        let (app, rooms) = router(access, rooms);
        if args.database.is_some() {
            // A database given is checked now: a bad one stops the server at once.
            rooms
                .rooms()
                .await
                .map_err(|e| CliError::input(format!("rooms: {e}")))?;
        }
        let url = format!("http://{bound}/");
        writeln!(out, "senet: serving the game on {url} (Ctrl-C stops)")?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        serve(listener, app, header_timeout).await;
        Ok(())
    })
}

/// Accepts connections until Ctrl-C, at most [`MAX_CONNECTIONS`] open at once, each served by
/// hyper with the header timeout (which also closes idle connections); then lets the requests
/// under way finish for a few seconds.
async fn serve(listener: tokio::net::TcpListener, app: axum::Router, header_timeout: Duration) {
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let stop = async {
        // Without a signal handler the server runs until it is killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let mut stop = std::pin::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = async {
                let permit = connections.clone().acquire_owned().await;
                (permit, listener.accept().await)
            } => accepted,
        };
        let (Ok(permit), Ok((stream, peer))) = accepted else {
            // Out of file descriptors or a connection reset before it was accepted: wait a
            // little rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(local) = stream.local_addr() else {
            continue;
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            // The address the connection came to, for the Host check.
            request.extensions_mut().insert(LocalAddr(local));
            // The client's address, for the cap on the rooms an address opens.
            request.extensions_mut().insert(rooms::PeerAddr(peer));
            tower::Service::call(&mut app.clone(), request)
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that breaks off is no error of the server's.
            let _ = connection.await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(Duration::from_secs(5), graceful.shutdown()).await;
}
