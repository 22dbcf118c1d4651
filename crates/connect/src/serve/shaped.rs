//! hyper answers a request it cannot parse (a URI over 64 KiB, a header block over its buffer,
//! a malformed request line) by itself, with an empty body, before any handler runs. This wrapper
//! around the connection recognises that answer as it is written and sends the listener's error
//! body instead, so every error a client sees has the listener's shape.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The body for a status hyper answered by itself: (content type, body).
pub type ErrorBody = fn(u16) -> (&'static str, Vec<u8>);

/// A connection whose bodiless 4xx answers are replaced by `errors`' bodies.
pub struct ShapedErrors<T> {
    inner: T,
    errors: ErrorBody,
    /// Bytes of a replacement still to write.
    pending: Vec<u8>,
    /// How many of them are written.
    sent: usize,
}

impl<T> ShapedErrors<T> {
    /// Wrap `inner`.
    pub fn new(inner: T, errors: ErrorBody) -> ShapedErrors<T> {
        ShapedErrors {
            inner,
            errors,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

/// The status of `buf` when it is a whole bodiless 4xx response head: what hyper writes for a
/// request it could not parse. Handlers behind these listeners always give errors a body.
fn bodiless_client_error(buf: &[u8]) -> Option<u16> {
    let text = std::str::from_utf8(buf).ok()?;
    let (head, rest) = text.split_once("\r\n\r\n")?;
    if !rest.is_empty() {
        return None;
    }
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let status: u16 = status_line
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| status_line.strip_prefix("HTTP/1.0 "))?
        .get(..3)?
        .parse()
        .ok()?;
    let empty = lines.any(|l| l.eq_ignore_ascii_case("content-length: 0"));
    ((400..500).contains(&status) && empty).then_some(status)
}

/// A whole response with `status` and `errors`' body; the connection closes after it.
fn replacement(status: u16, errors: ErrorBody) -> Vec<u8> {
    let (content_type, body) = errors(status);
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in super::guard::HARDENING {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(&body);
    out
}

impl<T: AsyncWrite + Unpin> ShapedErrors<T> {
    /// Write what is left of a replacement; `Ready(Ok)` once none is left.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = std::task::ready!(
                Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..])
            )?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for ShapedErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for ShapedErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        if let Some(status) = bodiless_client_error(buf) {
            let errors = self.errors;
            self.pending = replacement(status, errors);
            self.sent = 0;
            // The replacement stands for what hyper asked to write.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bodiless_client_errors_are_recognised() {
        let hyper_431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Thu, 03 Dec 2026 06:00:00 GMT\r\n\r\n";
        assert_eq!(bodiless_client_error(hyper_431), Some(431));
        let with_body = b"HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(bodiless_client_error(with_body), None);
        let ok = b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(bodiless_client_error(ok), None);
        assert_eq!(bodiless_client_error(b"partial head"), None);
    }

    #[test]
    fn the_replacement_is_a_whole_response() {
        let errors: ErrorBody = |s| ("application/json", format!("{{\"s\":{s}}}").into_bytes());
        let text = String::from_utf8(replacement(414, errors)).unwrap();
        assert!(text.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{text}");
        assert!(text.contains("content-length: 9\r\n"), "{text}");
        assert!(
            text.contains("x-content-type-options: nosniff\r\n"),
            "{text}"
        );
        assert!(text.contains("x-frame-options: DENY\r\n"), "{text}");
        assert!(text.ends_with("\r\n\r\n{\"s\":414}"), "{text}");
    }
}
