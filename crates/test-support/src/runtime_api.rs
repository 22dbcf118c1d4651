//! A mock of the AWS Lambda Runtime API (`/2018-06-01/runtime/...`), enough to run a function as
//! Lambda runs it: the function long-polls `invocation/next` for an event, and posts its answer to
//! `invocation/{id}/response` or `invocation/{id}/error`, or an init failure to `init/error`.
//! Standard library only; each connection is served on its own thread.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the function posted.
#[derive(Debug, Clone, PartialEq)]
pub enum Posted {
    /// `invocation/{id}/response`.
    Response { id: String, body: serde_json::Value },
    /// `invocation/{id}/error`.
    Error {
        id: String,
        body: serde_json::Value,
        error_type: Option<String>,
    },
    /// `init/error`.
    InitError {
        body: serde_json::Value,
        error_type: Option<String>,
    },
}

struct Shared {
    events: Mutex<Receiver<(String, String)>>,
    posted: Sender<Posted>,
    polls: Sender<std::time::Instant>,
}

/// The mock: queue events with [`RuntimeApi::invoke`], read what came back from `posted`.
pub struct RuntimeApi {
    /// `host:port`, the value of `AWS_LAMBDA_RUNTIME_API`.
    pub address: String,
    events: Sender<(String, String)>,
    posted: Mutex<Receiver<Posted>>,
    polls: Mutex<Receiver<std::time::Instant>>,
    next_id: Mutex<u64>,
}

impl RuntimeApi {
    /// Listen on a free loopback port.
    pub fn start() -> RuntimeApi {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let address = listener.local_addr().expect("addr").to_string();
        let (events, queued) = channel();
        let (posted_tx, posted) = channel();
        let (polls_tx, polls) = channel();
        let shared = Arc::new(Shared {
            events: Mutex::new(queued),
            posted: posted_tx,
            polls: polls_tx,
        });
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = shared.clone();
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
        RuntimeApi {
            address,
            events,
            posted: Mutex::new(posted),
            polls: Mutex::new(polls),
            next_id: Mutex::new(0),
        }
    }

    /// When the function next asked for an event (its first ask ends its init), within
    /// `timeout`.
    pub fn next_poll(&self, timeout: Duration) -> Option<std::time::Instant> {
        self.polls.lock().expect("lock").recv_timeout(timeout).ok()
    }

    /// Queue `event` for the function; its request id.
    pub fn invoke(&self, event: &serde_json::Value) -> String {
        let mut n = self.next_id.lock().expect("lock");
        *n += 1;
        let id = format!("req-{:04}", *n);
        self.events
            .send((id.clone(), event.to_string()))
            .expect("queue");
        id
    }

    /// The next thing the function posted, within `timeout`.
    pub fn posted(&self, timeout: Duration) -> Option<Posted> {
        self.posted.lock().expect("lock").recv_timeout(timeout).ok()
    }

    /// Invoke and wait for the answer to that invocation.
    pub fn call(&self, event: &serde_json::Value) -> Posted {
        let id = self.invoke(event);
        loop {
            let posted = self
                .posted(Duration::from_secs(30))
                .expect("the function answered within 30 s");
            match &posted {
                Posted::Response { id: got, .. } | Posted::Error { id: got, .. } if *got == id => {
                    return posted;
                }
                Posted::InitError { .. } => return posted,
                _ => {}
            }
        }
    }
}

/// One connection: requests one after another (the runtime client keeps it alive).
fn serve(stream: TcpStream, shared: &Shared) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or("").to_string(),
        );
        let mut headers = HashMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            if h == "\r\n" {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        let length: usize = headers
            .get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body: serde_json::Value =
            serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
        let error_type = headers.get("lambda-runtime-function-error-type").cloned();
        let answer = route(method, &path, body, error_type, shared);
        if writer.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

fn route(
    method: &str,
    path: &str,
    body: serde_json::Value,
    error_type: Option<String>,
    shared: &Shared,
) -> String {
    const PREFIX: &str = "/2018-06-01/runtime/";
    let rest = path.strip_prefix(PREFIX).unwrap_or("");
    let accepted = "HTTP/1.1 202 Accepted\r\nContent-Length: 16\r\nContent-Type: application/json\r\n\r\n{\"status\":\"OK\"}\n".to_string();
    match (method, rest.split('/').collect::<Vec<_>>().as_slice()) {
        ("GET", ["invocation", "next"]) => {
            let _ = shared.polls.send(std::time::Instant::now());
            let Ok((id, event)) = shared.events.lock().expect("lock").recv() else {
                return "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n".into();
            };
            let deadline = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_millis() + 30_000)
                .unwrap_or_default();
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nLambda-Runtime-Aws-Request-Id: {id}\r\nLambda-Runtime-Deadline-Ms: {deadline}\r\nLambda-Runtime-Invoked-Function-Arn: arn:aws:lambda:us-east-1:123456789012:function:shop\r\nLambda-Runtime-Trace-Id: Root=1-00000000-000000000000000000000000\r\nContent-Length: {}\r\n\r\n{event}",
                event.len()
            )
        }
        ("POST", ["invocation", id, "response"]) => {
            let _ = shared.posted.send(Posted::Response {
                id: id.to_string(),
                body,
            });
            accepted
        }
        ("POST", ["invocation", id, "error"]) => {
            let _ = shared.posted.send(Posted::Error {
                id: id.to_string(),
                body,
                error_type,
            });
            accepted
        }
        ("POST", ["init", "error"]) => {
            let _ = shared.posted.send(Posted::InitError { body, error_type });
            accepted
        }
        _ => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".into(),
    }
}

/// An API Gateway HTTP API (payload 2.0) event for `method path?query`, with a body and, when
/// `claims` is given, a JWT authorizer's verified claims.
pub fn http_event(
    method: &str,
    path: &str,
    body: Option<&serde_json::Value>,
    claims: Option<serde_json::Value>,
) -> serde_json::Value {
    let (raw_path, raw_query) = path.split_once('?').unwrap_or((path, ""));
    let mut event = serde_json::json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": raw_path,
        "rawQueryString": raw_query,
        "headers": {"content-type": "application/json", "host": "api.example.com"},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "api",
            "domainName": "api.example.com",
            "domainPrefix": "api",
            "http": {"method": method, "path": raw_path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "test"},
            "requestId": "gw-1",
            "routeKey": "$default",
            "stage": "$default",
            "time": "03/Dec/2026:10:00:00 +0000",
            "timeEpoch": 0
        },
        "isBase64Encoded": false
    });
    if let Some(b) = body {
        event["body"] = serde_json::Value::String(b.to_string());
    }
    if let Some(claims) = claims {
        event["requestContext"]["authorizer"] =
            serde_json::json!({"jwt": {"claims": claims, "scopes": null}});
    }
    event
}
