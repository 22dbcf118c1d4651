//! A TCP proxy in front of an endpoint that dies at a chosen step: once a request names one of
//! the given DynamoDB operations, it drops that request and every open connection and stops
//! listening, as an endpoint killed mid-run would. Later calls find the port closed.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The proxy; it serves until a request names a fatal operation.
pub struct Proxy {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    dead: Arc<AtomicBool>,
}

impl Proxy {
    /// A proxy to `upstream` (`http://127.0.0.1:PORT`) that dies at the first request for one
    /// of `operations` (`"UpdateItem"`: the `X-Amz-Target` DynamoDB_20120810.UpdateItem).
    pub fn dying_at(upstream: &str, operations: &[&str]) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        listener.set_nonblocking(true).expect("non-blocking");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let upstream = upstream.trim_start_matches("http://").to_string();
        let fatal: Arc<Vec<Vec<u8>>> = Arc::new(
            operations
                .iter()
                .map(|op| format!("DynamoDB_20120810.{op}\r\n").into_bytes())
                .collect(),
        );
        let dead = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let watch = Arc::clone(&dead);
        std::thread::spawn(move || {
            while !watch.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        client.set_nonblocking(false).expect("blocking");
                        let server = TcpStream::connect(&upstream).expect("reach the upstream");
                        let mut held = open.lock().unwrap();
                        held.push(client.try_clone().unwrap());
                        held.push(server.try_clone().unwrap());
                        drop(held);
                        pipe(client, server, &fatal, &watch, &open);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                    Err(_) => break,
                }
            }
            // Dropping the listener closes the port.
        });
        Proxy { url, dead }
    }

    /// Whether a fatal request came.
    pub fn died(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }
}

/// Copy both ways between `client` and `server`; on a fatal request, close everything.
fn pipe(
    mut client: TcpStream,
    mut server: TcpStream,
    fatal: &Arc<Vec<Vec<u8>>>,
    dead: &Arc<AtomicBool>,
    open: &Arc<Mutex<Vec<TcpStream>>>,
) {
    let (mut back_from, mut back_to) = (server.try_clone().unwrap(), client.try_clone().unwrap());
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut back_from, &mut back_to);
        let _ = back_to.shutdown(Shutdown::Both);
    });
    let (fatal, dead, open) = (Arc::clone(fatal), Arc::clone(dead), Arc::clone(open));
    std::thread::spawn(move || {
        let mut seen: Vec<u8> = Vec::new();
        let mut buf = [0u8; 16 * 1024];
        loop {
            let n = match client.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            // What came, with the tail of what came before (a header split across reads).
            let keep = seen.len().saturating_sub(64);
            seen.drain(..keep);
            seen.extend_from_slice(&buf[..n]);
            let is_fatal = fatal
                .iter()
                .any(|f| seen.windows(f.len()).any(|w| w == f.as_slice()));
            if is_fatal || dead.load(Ordering::SeqCst) {
                dead.store(true, Ordering::SeqCst);
                for stream in open.lock().unwrap().iter() {
                    let _ = stream.shutdown(Shutdown::Both);
                }
                break;
            }
            if server.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = server.shutdown(Shutdown::Both);
    });
}
