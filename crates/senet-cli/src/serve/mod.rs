//! `senet serve`: the game in a web browser. One page (embedded in the binary) and a
//! stateless JSON API: every request carries the game's record, which the server replays
//! and checks, so it keeps no game in memory and undo, redo, saving and replays are the
//! page's business. The endpoints are described in `docs/web.md`.

mod api;
mod view;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use clap::Args;

use crate::error::CliError;

pub(crate) use api::router;

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
    /// The address to listen on; 0.0.0.0 opens the game to the whole network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    open: bool,
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

pub(crate) fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<(), CliError> {
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
        let url = format!("http://{bound}/");
        writeln!(out, "senet: serving the game on {url} (Ctrl-C stops)")?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        axum::serve(listener, router())
            .with_graceful_shutdown(async {
                // Without a signal handler the server runs until it is killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await?;
        Ok(())
    })
}
