//! HTTP/1.1 by hand, one request per connection: what a test sends is exactly what the server
//! reads, whatever a client library would add or refuse.

use std::time::Duration;

/// One HTTP/1.1 request to `base` (`http://127.0.0.1:PORT`) with `Connection: close`; the status
/// and the body as JSON (`Null` when it is not JSON). `Err` when the server cannot be reached or
/// closes without answering.
pub fn http(
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> std::io::Result<(u16, serde_json::Value)> {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        request.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(body.unwrap_or(""));
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no HTTP answer: {text:?}")))?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    Ok((
        status,
        serde_json::from_str(body).unwrap_or(serde_json::Value::Null),
    ))
}

/// `GET path` on `base`: the status, the headers (names lowercased) and the body as text.
pub fn get_text(
    base: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, Vec<(String, String)>, String) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8(answer).expect("a UTF-8 answer");
    let (head, body) = text.split_once("\r\n\r\n").expect("a complete answer");
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Every answer of every listener forbids framing and sniffing: `GET base+path`, with and
/// without a foreign `Origin`, carries `nosniff`, `DENY` and `frame-ancestors 'none'`.
pub fn forbids_framing_and_sniffing(base: &str, path: &str) {
    for origin in [None, Some("http://evil.example")] {
        let headers: Vec<(&str, &str)> = origin.map(|o| ("Origin", o)).into_iter().collect();
        let (status, headers, _) = get_text(base, path, &headers);
        let what = format!("{base}{path} ({status}, origin {origin:?})");
        assert_eq!(
            header(&headers, "x-content-type-options"),
            Some("nosniff"),
            "{what}"
        );
        assert_eq!(header(&headers, "x-frame-options"), Some("DENY"), "{what}");
        let policy = header(&headers, "content-security-policy").unwrap_or("");
        assert!(
            policy.contains("frame-ancestors 'none'"),
            "{what}: {policy}"
        );
    }
}
