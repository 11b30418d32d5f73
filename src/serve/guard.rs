//! Who may drive the workbench: only its own page (and scripts on this
//! machine). A web page the designer visits elsewhere can send requests
//! to `127.0.0.1` too; three checks refuse them before any handler runs:
//!
//! - **Host** must name the address served (421): by default the loopback
//!   names `127.0.0.1`, `localhost` and `[::1]` with the port; with
//!   `--host` that value too (and any IP address when it is `0.0.0.0` or
//!   `::`). A DNS-rebinding page reaches the server under its own name, so
//!   this is what keeps it from reading the answers.
//! - **Origin**, when a browser sends one, must be this server's own
//!   (403): another site's page may send a request but not drive the
//!   workbench. Scripts send no Origin and pass.
//! - **Content-Type** of a POST must be `application/json` (415): a page
//!   may send `text/plain` to any address without asking first (no CORS
//!   preflight), but not JSON.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The authorities (`host:port`) this server answers to.
#[derive(Clone, Debug)]
pub struct Guard {
    /// Lower-case `host:port` names accepted as they are.
    names: Vec<String>,
    /// The port served.
    port: u16,
    /// Listening on every address (`0.0.0.0`, `::`): any IP literal with
    /// the port is this machine (a literal cannot be rebound).
    any_ip: bool,
    /// For messages: the address the page is served at.
    url: String,
}

/// `ip:port` as a URL writes it (`[::1]:7878`).
fn authority(ip: IpAddr, port: u16) -> String {
    SocketAddr::new(ip, port).to_string()
}

impl Guard {
    /// The guard for a server bound to `bound`, asked for with `--host
    /// host` (`None`: the loopback default).
    pub fn serving(bound: SocketAddr, host: Option<&str>) -> Guard {
        let port = bound.port();
        let ip = bound.ip();
        let mut names = Vec::new();
        if ip.is_loopback() || ip.is_unspecified() {
            for name in ["127.0.0.1", "localhost", "[::1]"] {
                names.push(format!("{name}:{port}"));
            }
        }
        if !ip.is_unspecified() {
            names.push(authority(ip, port));
        }
        if let Some(h) = host {
            let h = h.trim().to_ascii_lowercase();
            let h = match h.parse::<IpAddr>() {
                Ok(ip) => authority(ip, port),
                Err(_) => format!("{h}:{port}"),
            };
            if !names.contains(&h) {
                names.push(h);
            }
        }
        let url = if ip.is_unspecified() || ip.is_loopback() {
            format!("http://127.0.0.1:{port}/")
        } else {
            format!("http://{}/", authority(ip, port))
        };
        Guard {
            names,
            port,
            any_ip: ip.is_unspecified(),
            url,
        }
    }

    /// Whether `authority` (a Host header, or an Origin's host part) is
    /// this server.
    pub fn accepts(&self, authority: &str) -> bool {
        let a = authority.trim().to_ascii_lowercase();
        // Port 80 goes unwritten in a URL, and so in Host and Origin.
        let has_port = match a.strip_prefix('[') {
            Some(v6) => v6.contains("]:"),
            None => a.contains(':'),
        };
        let a = if has_port { a } else { format!("{a}:80") };
        if self.names.contains(&a) {
            return true;
        }
        if !self.any_ip {
            return false;
        }
        a.parse::<SocketAddr>().is_ok_and(|s| s.port() == self.port)
    }
}

fn refuse(status: StatusCode, message: String) -> Response {
    ApiError {
        status,
        message,
        field: None,
    }
    .into_response()
}

/// The Host a request names: its URI's authority (absolute form), else
/// its Host header.
fn host_of(req: &Request) -> Option<String> {
    if let Some(a) = req.uri().authority() {
        return Some(a.as_str().to_string());
    }
    req.headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
}

/// Why a request's headers are refused, if they are.
pub fn check(
    guard: &Guard,
    method: &Method,
    host: Option<&str>,
    headers: &HeaderMap,
) -> Option<Response> {
    match host {
        None => {
            return Some(refuse(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "the request names no Host; the workbench answers requests to {}",
                    guard.url
                ),
            ));
        }
        Some(h) if !guard.accepts(h) => {
            return Some(refuse(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "Host {h:?} is not this server's address; the workbench answers requests to {} (a page that reaches it under another name is refused)",
                    guard.url
                ),
            ));
        }
        Some(_) => {}
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        let own = origin
            .strip_prefix("http://")
            .is_some_and(|rest| !rest.contains('/') && guard.accepts(rest));
        if !own {
            return Some(refuse(
                StatusCode::FORBIDDEN,
                format!(
                    "Origin {origin:?} is another site: the workbench answers its own page ({}) and scripts that send no Origin",
                    guard.url
                ),
            ));
        }
    }
    if *method == Method::POST {
        let kind = headers
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let json = kind.as_deref().is_some_and(|k| {
            k.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            let said = match &kind {
                Some(k) => format!("Content-Type {k:?} is not JSON"),
                None => "the request has no Content-Type".to_string(),
            };
            return Some(refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!("{said}; send the body as JSON with Content-Type: application/json"),
            ));
        }
    }
    None
}

/// The middleware: refuse what [`check`] refuses, pass the rest on.
pub async fn layer(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let host = host_of(&req);
    if let Some(refused) = check(&guard, req.method(), host.as_deref(), req.headers()) {
        return refused;
    }
    next.run(req).await
}
