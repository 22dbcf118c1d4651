//! The cap on one JSON-RPC message read from the client: [`LineCapped`] passes lines of at most
//! [`MAX_MESSAGE_BYTES`] through and cuts a longer one short (its first bytes and a newline,
//! which the transport answers with a JSON-RPC parse error, -32700), dropping the rest of it, so
//! a huge or endless line is never held in memory and the server goes on with the next line.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// The most bytes one JSON-RPC message (one line on stdio) may hold: 8 MiB, room for a model at
/// `MAX_MODEL_BYTES` with its JSON escapes.
pub const MAX_MESSAGE_BYTES: usize = 8 << 20;

/// A reader whose lines are at most `max` bytes (newline excluded) as the transport sees them.
#[derive(Debug)]
pub struct LineCapped<R> {
    inner: R,
    max: usize,
    /// Bytes of the current line passed on so far.
    line: usize,
    /// Dropping the rest of a line that went over `max`.
    discarding: bool,
}

impl<R> LineCapped<R> {
    /// `inner` with its lines capped at `max` bytes.
    pub fn new(inner: R, max: usize) -> Self {
        LineCapped {
            inner,
            max,
            line: 0,
            discarding: false,
        }
    }

    /// Filters `chunk` in place; returns how many bytes are kept at its start.
    fn filter(&mut self, chunk: &mut [u8]) -> usize {
        let mut kept = 0;
        for i in 0..chunk.len() {
            let byte = chunk[i];
            if self.discarding {
                if byte == b'\n' {
                    self.discarding = false;
                    self.line = 0;
                }
                continue;
            }
            if byte == b'\n' {
                self.line = 0;
            } else if self.line == self.max {
                // One byte over: end the line here (the transport answers a parse error) and
                // drop the rest of it.
                chunk[kept] = b'\n';
                kept += 1;
                self.discarding = true;
                self.line = 0;
                continue;
            } else {
                self.line += 1;
            }
            chunk[kept] = byte;
            kept += 1;
        }
        kept
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for LineCapped<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        loop {
            let before = buf.filled().len();
            match Pin::new(&mut this.inner).poll_read(cx, buf) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
            let read = buf.filled().len() - before;
            if read == 0 {
                return Poll::Ready(Ok(()));
            }
            let kept = this.filter(&mut buf.filled_mut()[before..]);
            buf.set_filled(before + kept);
            // All of it dropped: read on, since an empty read would mean the end of input.
            if kept > 0 {
                return Poll::Ready(Ok(()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Just;
    use tokio::io::AsyncBufReadExt;

    async fn lines(input: &[u8], max: usize) -> Vec<String> {
        let reader = tokio::io::BufReader::with_capacity(3, LineCapped::new(input, max));
        let mut out = Vec::new();
        let mut lines = reader.lines();
        while let Some(line) = lines.next_line().await.unwrap() {
            out.push(line);
        }
        out
    }

    #[tokio::test]
    async fn lines_within_the_cap_pass_and_a_longer_one_is_cut_and_its_rest_dropped() {
        let input = b"abcd\nabcdefghij\nxy\n0123456789012345678901234567890\nok";
        assert_eq!(lines(input, 4).await, ["abcd", "abcd", "xy", "0123", "ok"]);
        assert_eq!(lines(b"\n\nab\n", 2).await, ["", "", "ab"]);
    }

    #[tokio::test]
    async fn an_endless_line_ends_the_input_without_being_held() {
        let input = vec![b'x'; 100_000];
        assert_eq!(lines(&input, 10).await, ["xxxxxxxxxx"]);
    }

    /// What the transport must see: each line of `input` cut to `max` bytes.
    fn expected(input: &[u8], max: usize) -> Vec<Vec<u8>> {
        let mut lines: Vec<&[u8]> = input.split(|b| *b == b'\n').collect();
        if lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
            .iter()
            .map(|l| l[..l.len().min(max)].to_vec())
            .collect()
    }

    async fn read_lines(input: &[u8], max: usize, capacity: usize) -> Vec<Vec<u8>> {
        use tokio::io::AsyncBufReadExt;
        let mut reader = tokio::io::BufReader::with_capacity(capacity, LineCapped::new(input, max));
        let mut out = Vec::new();
        loop {
            let mut line = Vec::new();
            if reader.read_until(b'\n', &mut line).await.unwrap() == 0 {
                return out;
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            }
            out.push(line);
        }
    }

    proptest::proptest! {
        #[test]
        fn every_line_reaches_the_transport_cut_to_the_cap(
            input in proptest::collection::vec(proptest::prop_oneof![Just(b'\n'), Just(b'a'), proptest::num::u8::ANY], 0..400),
            max in 1usize..40,
            capacity in 1usize..64,
        ) {
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let got = runtime.block_on(read_lines(&input, max, capacity));
            proptest::prop_assert_eq!(got, expected(&input, max));
        }
    }
}
