//! A stand-in for API Gateway's HTTP API in front of a function under the mock Runtime API: each
//! HTTP request becomes a payload-2.0 event, the function's answer becomes the HTTP response. A
//! bearer token's claims are put in the request context as a JWT authorizer would put them
//! (strings; a list as `[a b]`); like API Gateway, nothing of the token itself reaches the
//! function. Unlike API Gateway it does not check the token's signature: that is the authorizer's
//! job, tested elsewhere, and the function must not rely on it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use crate::runtime_api::{Posted, RuntimeApi};

/// Serve HTTP on a free loopback port in front of `runtime`; the base URL.
pub fn start(runtime: Arc<RuntimeApi>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    // One invocation at a time, as one Lambda instance runs them.
    let lock = Arc::new(Mutex::new(()));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (runtime, lock) = (runtime.clone(), lock.clone());
            std::thread::spawn(move || serve(stream, &runtime, &lock));
        }
    });
    url
}

struct Request {
    method: String,
    target: String,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut headers = BTreeMap::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        if h == "\r\n" || h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
    }
    let length = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        target,
        headers,
        body,
    })
}

fn serve(stream: TcpStream, runtime: &RuntimeApi, lock: &Mutex<()>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut writer = stream;
    while let Some(request) = read_request(&mut reader) {
        let event = event(&request);
        let posted = {
            let _one = lock.lock().expect("lock");
            runtime.call(&event)
        };
        let answer = match posted {
            Posted::Response { body, .. } => http_response(&body),
            other => format!(
                "HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
                format!("{other:?}").len() + 2,
                serde_json::json!(format!("{other:?}"))
            ),
        };
        if writer.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

/// The claims of a bearer JWT as API Gateway's JWT authorizer passes them: every value a string.
fn claims(authorization: Option<&String>) -> Option<serde_json::Value> {
    use base64::Engine as _;
    let token = authorization?.strip_prefix("Bearer ")?;
    let payload = token.split('.').nth(1)?;
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .ok()?;
    let claims: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&raw).ok()?;
    let flat = claims
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Array(items) => format!(
                    "[{}]",
                    items
                        .iter()
                        .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                other => other.to_string(),
            };
            (k, serde_json::Value::String(text))
        })
        .collect();
    Some(serde_json::Value::Object(flat))
}

fn event(request: &Request) -> serde_json::Value {
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let body =
        (!request.body.is_empty()).then(|| String::from_utf8_lossy(&request.body).into_owned());
    let mut headers: BTreeMap<&str, &str> = request
        .headers
        .iter()
        .filter(|(k, _)| k.as_str() != "authorization")
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    headers.entry("host").or_insert("api.example.com");
    let mut event = serde_json::json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": query,
        "headers": headers,
        "requestContext": {
            "accountId": "123456789012", "apiId": "api", "domainName": "api.example.com",
            "domainPrefix": "api", "requestId": "gw", "routeKey": "$default", "stage": "$default",
            "time": "03/Dec/2026:10:00:00 +0000", "timeEpoch": 0,
            "http": {"method": request.method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "gateway"}
        },
        "isBase64Encoded": false
    });
    if !query.is_empty() {
        let mut params = serde_json::Map::new();
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(&s.replace('+', " "))
                    .decode_utf8_lossy()
                    .into_owned()
            };
            params.insert(decode(k), serde_json::Value::String(decode(v)));
        }
        event["queryStringParameters"] = serde_json::Value::Object(params);
    }
    if let Some(body) = body {
        event["body"] = serde_json::Value::String(body);
    }
    if let Some(claims) = claims(request.headers.get("authorization")) {
        event["requestContext"]["authorizer"] =
            serde_json::json!({"jwt": {"claims": claims, "scopes": null}});
    }
    event
}

/// The function's payload-2.0 answer as an HTTP response.
fn http_response(answer: &serde_json::Value) -> String {
    use base64::Engine as _;
    let status = answer["statusCode"].as_u64().unwrap_or(200);
    let text = answer["body"].as_str().unwrap_or("");
    let body = if answer["isBase64Encoded"].as_bool() == Some(true) {
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap_or_default()
    } else {
        text.as_bytes().to_vec()
    };
    let mut out = format!("HTTP/1.1 {status} X\r\n");
    if let Some(headers) = answer["headers"].as_object() {
        for (k, v) in headers {
            if !k.eq_ignore_ascii_case("content-length") {
                out.push_str(&format!("{k}: {}\r\n", v.as_str().unwrap_or("")));
            }
        }
    }
    out.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(&body);
    String::from_utf8_lossy(&bytes).into_owned()
}
