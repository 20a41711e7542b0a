//! Messages over stdin/stdout: LSP's `Content-Length` framing, with lsp-server's message
//! types doing the JSON-RPC.
//!
//! lsp-server's own stdio reader ends the connection at the first message it cannot
//! parse; an editor's server must outlive a malformed message. This reader reports it
//! (the server answers with a JSON-RPC parse error) and carries on with the next one,
//! finding the next `Content-Length` header even after a broken header block.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::Message;

/// Bodies larger than this are skipped unread rather than held in memory.
const MAX_BODY_BYTES: usize = 256 * 1024 * 1024;
/// Header lines longer than this are skipped to their end rather than held in memory.
const MAX_HEADER_LINE_BYTES: usize = 8 * 1024;

/// What the reader got.
#[derive(Debug)]
pub enum Incoming {
    Message(Message),
    /// Something that is not a JSON-RPC message; the text says what was wrong.
    Malformed(String),
}

/// What the writer sends.
#[derive(Debug)]
pub enum Outgoing {
    Message(Message),
    /// A JSON-RPC parse error, answered with a null id as the protocol asks.
    ParseError(String),
}

/// The ends of a transport: messages in, messages out, and the writer thread (which ends
/// once everything sent is written).
pub type Transport = (Receiver<Incoming>, Sender<Outgoing>, thread::JoinHandle<()>);

/// Starts the reader and writer threads over any pair of streams.
pub fn spawn(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) -> io::Result<Transport> {
    let (incoming_sender, incoming) = unbounded();
    let (outgoing, outgoing_receiver) = unbounded::<Outgoing>();
    thread::Builder::new()
        .name("blinkblox-lsp-reader".to_string())
        .spawn(move || read_loop(input, &incoming_sender))?;
    let writer = thread::Builder::new()
        .name("blinkblox-lsp-writer".to_string())
        .spawn(move || {
            let mut output = output;
            for message in outgoing_receiver {
                if write(&mut output, message).is_err() {
                    break;
                }
            }
        })?;
    Ok((incoming, outgoing, writer))
}

fn read_loop(mut input: impl BufRead, sender: &Sender<Incoming>) {
    loop {
        let incoming = match read_frame(&mut input) {
            Ok(Some(Frame::Body(body))) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => Incoming::Message(message),
                Err(err) => Incoming::Malformed(format!("not a JSON-RPC message: {err}")),
            },
            Ok(Some(Frame::Bad(problem))) => Incoming::Malformed(problem),
            Ok(None) | Err(_) => return,
        };
        let is_exit = matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
        if sender.send(incoming).is_err() || is_exit {
            return;
        }
    }
}

enum Frame {
    Body(Vec<u8>),
    Bad(String),
}

/// One framed message. `Ok(None)` at the end of the input.
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut problem: Option<String> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_header_line(input, &mut line)? {
            // What was wrong with a last, unfinished header is still said.
            HeaderLine::End => return Ok(problem.map(Frame::Bad)),
            HeaderLine::TooLong => {
                problem.get_or_insert_with(|| format!("a header line longer than {MAX_HEADER_LINE_BYTES} bytes"));
                continue;
            }
            HeaderLine::Read => {}
        }
        let text = String::from_utf8_lossy(&line);
        let trimmed = text.trim_end_matches(['\r', '\n']);
        if trimmed.is_empty() {
            if length.is_some() || problem.is_some() {
                break;
            }
            continue;
        }
        // A header may follow the rest of a body whose length was given wrong (that body was
        // reported already): look for it anywhere on the line.
        let lower = trimmed.to_ascii_lowercase();
        if let Some(at) = lower.find("content-length:") {
            let value = trimmed[at + "content-length:".len()..].trim();
            match value.parse::<usize>() {
                Ok(n) => length = Some(n),
                Err(_) => problem = Some(format!("bad `Content-Length` value `{value}`")),
            }
        } else if !trimmed.contains(':') {
            problem.get_or_insert_with(|| format!("malformed header line `{}`", shorten(trimmed)));
        }
    }
    let Some(length) = length else {
        return Ok(Some(Frame::Bad(
            problem.unwrap_or_else(|| "no `Content-Length` header".to_string()),
        )));
    };
    if length > MAX_BODY_BYTES {
        io::copy(&mut input.take(length as u64), &mut io::sink())?;
        return Ok(Some(Frame::Bad(format!("a message of {length} bytes is too large"))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(match problem {
        Some(problem) => Frame::Bad(problem),
        None => Frame::Body(body),
    }))
}

enum HeaderLine {
    Read,
    /// Longer than [`MAX_HEADER_LINE_BYTES`]: skipped to its end (or the input's).
    TooLong,
    End,
}

/// One header line into `line` (with its newline), reading no more than
/// [`MAX_HEADER_LINE_BYTES`] of it into memory.
fn read_header_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<HeaderLine> {
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => HeaderLine::TooLong,
                (false, true) => HeaderLine::End,
                (false, false) => HeaderLine::Read,
            });
        }
        let (taken, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        if !too_long && line.len() + taken <= MAX_HEADER_LINE_BYTES {
            line.extend_from_slice(&available[..taken]);
        } else {
            too_long = true;
            line.clear();
        }
        input.consume(taken);
        if done {
            return Ok(if too_long {
                HeaderLine::TooLong
            } else {
                HeaderLine::Read
            });
        }
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(60).collect()
}

fn write(output: &mut impl Write, message: Outgoing) -> io::Result<()> {
    match message {
        Outgoing::Message(message) => message.write(output),
        Outgoing::ParseError(problem) => {
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": { "code": lsp_server::ErrorCode::ParseError as i32, "message": problem },
            })
            .to_string();
            write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
            output.flush()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Incoming> {
        let (sender, receiver) = unbounded();
        read_loop(io::Cursor::new(input.to_vec()), &sender);
        drop(sender);
        receiver.into_iter().collect()
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn malformed_messages_are_reported_and_the_next_one_is_read() {
        let good = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let mut input = framed("{not json");
        input.push_str("Content-Length: 3\r\nbogus header\r\n\r\nabc");
        input.push_str("garbage without any header\r\n\r\n");
        input.push_str(&framed(good));
        input.push_str("Content-Length: x\r\n\r\n");
        input.push_str(&framed(good));
        let got = frames(input.as_bytes());
        let kinds: Vec<bool> = got.iter().map(|i| matches!(i, Incoming::Message(_))).collect();
        assert_eq!(kinds, [false, false, false, true, false, true]);
    }

    #[test]
    fn a_header_line_without_end_is_skipped_not_held() {
        let mut input = "X".repeat(3 * MAX_HEADER_LINE_BYTES);
        input.push_str("\r\n\r\n");
        input.push_str(&framed(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        let got = frames(input.as_bytes());
        assert!(
            matches!(&got[0], Incoming::Malformed(problem) if problem.contains("header line longer than 8192 bytes")),
            "{got:?}"
        );
        assert!(matches!(&got[1], Incoming::Message(_)), "{got:?}");
        // A line with no newline at all ends with the input, unread past the bound.
        let got = frames("Y".repeat(3 * MAX_HEADER_LINE_BYTES).as_bytes());
        assert!(matches!(&got[..], [Incoming::Malformed(_)]), "{got:?}");
    }

    #[test]
    fn a_body_that_is_not_utf8_is_malformed_not_fatal() {
        let mut input = b"Content-Length: 2\r\n\r\n\xff\xfe".to_vec();
        input.extend(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#).bytes());
        let got = frames(&input);
        assert!(matches!(got[0], Incoming::Malformed(_)));
        assert!(matches!(got[1], Incoming::Message(Message::Notification(_))));
    }
}
