//! The server on a real socket (loopback only): a client that sends half
//! a request, or nothing, is disconnected after the read timeout (before,
//! such connections stayed open for ever), while whole requests are
//! answered, the page's own included.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use super::App;
use super::tests::runtime;

/// A server on a free loopback port with a `timeout` read timeout,
/// running on `rt` until the runtime is dropped; its address.
fn serve_on(rt: &tokio::runtime::Runtime, timeout: Duration) -> SocketAddr {
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a loopback port");
    let bound = listener.local_addr().expect("an address");
    let app = App::new().serving(bound, None).with_read_timeout(timeout);
    rt.spawn(super::run(listener, app, std::future::pending()));
    bound
}

/// Read until the server closes the connection (or `patience` passes):
/// what it sent, and how long the close took.
fn until_closed(stream: &mut TcpStream, patience: Duration) -> (String, Option<Duration>) {
    let started = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .expect("a read timeout");
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while started.elapsed() < patience {
        match stream.read(&mut buf) {
            Ok(0) => {
                return (
                    String::from_utf8_lossy(&got).into_owned(),
                    Some(started.elapsed()),
                );
            }
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            // Reset by the server: closed too.
            Err(_) => {
                return (
                    String::from_utf8_lossy(&got).into_owned(),
                    Some(started.elapsed()),
                );
            }
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), None)
}

#[test]
fn half_sent_requests_are_closed_after_the_read_timeout() {
    let rt = runtime();
    let addr = serve_on(&rt, Duration::from_millis(500));
    // Half a head, then silence; a connection that sends nothing; a head
    // whose body never comes.
    let mut half = TcpStream::connect(addr).expect("connects");
    half.write_all(b"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        .expect("writes");
    let mut idle = TcpStream::connect(addr).expect("connects");
    let mut bodiless = TcpStream::connect(addr).expect("connects");
    bodiless
        .write_all(
            format!(
                "POST /api/answer HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
            )
            .as_bytes(),
        )
        .expect("writes");
    for (name, stream) in [("half a head", &mut half), ("nothing", &mut idle)] {
        let (_, closed) = until_closed(stream, Duration::from_secs(20));
        let closed = closed.unwrap_or_else(|| panic!("{name}: still open after 20 s"));
        assert!(closed < Duration::from_secs(10), "{name}: {closed:?}");
    }
    let (said, closed) = until_closed(&mut bodiless, Duration::from_secs(20));
    assert!(
        closed.is_some(),
        "a body that never comes: still open after 20 s"
    );
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    assert!(said.contains("{\"error\":"), "{said}");
    // Whole requests are answered, and the server still answers after.
    let mut whole = TcpStream::connect(addr).expect("connects");
    let body = r#"{"expression": "3d6"}"#;
    whole
        .write_all(
            format!(
                "POST /api/answer HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .expect("writes");
    let (said, closed) = until_closed(&mut whole, Duration::from_secs(20));
    assert!(closed.is_some());
    assert!(said.starts_with("HTTP/1.1 200"), "{said}");
    assert!(said.contains("\"mechanic\":\"dice.roll\""), "{said}");
}

#[test]
fn a_request_under_another_name_is_refused_on_the_wire() {
    let rt = runtime();
    let addr = serve_on(&rt, Duration::from_secs(5));
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(
        format!(
            "GET /api/mechanics HTTP/1.1\r\nHost: rebound.example:{}\r\nConnection: close\r\n\r\n",
            addr.port()
        )
        .as_bytes(),
    )
    .expect("writes");
    let (said, _) = until_closed(&mut s, Duration::from_secs(20));
    assert!(said.starts_with("HTTP/1.1 421"), "{said}");
    assert!(said.contains("{\"error\":"), "{said}");
}
