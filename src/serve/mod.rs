//! `oddsmith serve`: the designer's workbench. A page that answers as you
//! type, and the JSON API it (and any script) calls, served by axum on a
//! small tokio runtime. It sits at the edge, like `cli/`: the questions
//! and their errors are the command line's (`cli::odds_questions`), the
//! numbers are the library's one answer ([`oddsmith::answer::ask`]).

mod api;
mod app;
mod best;
mod body;
mod error;
mod examples;
mod guard;
mod jobs;
mod live;
mod read;
mod registry;
mod scenario;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_best;
#[cfg(test)]
mod tests_edge;
#[cfg(test)]
mod tests_fuzz;
#[cfg(test)]
mod tests_live;
#[cfg(test)]
mod tests_socket;
#[cfg(test)]
mod tests_tune;
mod tune;

use crate::cli::stdout::outln;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use anyhow::{Context, bail};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;

pub use api::router;
pub use app::App;

pub use crate::cli::ServeArgs;

/// The address `--host` and `--port` name (the first a name resolves to).
fn address(args: &ServeArgs) -> anyhow::Result<SocketAddr> {
    let Some(host) = &args.host else {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), args.port));
    };
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, args.port));
    }
    let found = (host.as_str(), args.port)
        .to_socket_addrs()
        .with_context(|| format!("--host {host}: not an address, and no name resolves to one"))?
        .next();
    match found {
        Some(a) => Ok(a),
        None => bail!("--host {host}: the name resolves to no address"),
    }
}

pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    // A client that goes away mid-answer must not end the server: the
    // binary resets SIGPIPE to its default for `| head`, so ignore it here.
    #[cfg(unix)]
    // SAFETY: one signal's disposition, set before the runtime's threads.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let addr = address(&args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr} (is another server on that port? try --port)"))?;
        let bound = listener.local_addr().context("no local address")?;
        let url = if bound.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", bound.port())
        } else {
            format!("http://{bound}/")
        };
        outln!("oddsmith workbench: {url}  (Ctrl-C stops it)");
        if !bound.ip().is_loopback() {
            eprintln!(
                "warning: listening on {bound}, not loopback: anyone who can reach this machine can use the workbench; it has no accounts"
            );
        }
        if args.open {
            open_browser(&url);
        }
        let app = App::new().serving(bound, args.host.as_deref());
        let stop = app.clone();
        let shutdown = async move {
            let _ = tokio::signal::ctrl_c().await;
            // Running Monte Carlo stops at its next chunk.
            stop.shut_down();
            eprintln!("\nstopping: the workbench is closed");
        };
        run(listener, app, shutdown).await;
        Ok(())
    })
}

/// Accept connections on `listener` and answer them with the router over
/// `app` until `shutdown` completes, then let the open ones finish. Each
/// connection must send a request's head within the app's read timeout
/// (idle keep-alive connections too), or it is closed: half-sent requests
/// cannot pile up. (`axum::serve` sets no such timeout.)
pub async fn run(
    listener: tokio::net::TcpListener,
    app: App,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let timeout = app.read_timeout;
    let service = TowerToHyperService::new(router(app));
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(timeout);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait, go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let conn = http.serve_connection(TokioIo::new(stream), service.clone());
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // A client that goes away or times out ends its connection only.
            let _ = conn.await;
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Ask the desktop to open `url`; say so when it cannot.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
