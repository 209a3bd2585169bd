//! The language server's framing over stdio, bounded: `lsp-server`'s own
//! reader allocates whatever `Content-Length` a peer claims and reads a
//! header line until the process dies. Here a header line, the headers and
//! the body have limits; a body is read as it arrives (never reserved up
//! front); and a malformed frame is logged to stderr and ends the server
//! with a failure, never silently.

use std::io::{self, BufRead, Read, Write};

use lsp_server::{Connection, Message};

/// The longest header line read (a real one is under 100 bytes).
const MAX_HEADER_LINE: usize = 8 * 1024;
/// The most header lines in one frame.
const MAX_HEADERS: usize = 32;
/// The largest message body: a document of the largest file utter reads
/// (8 MiB), JSON-escaped, with room to spare.
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// The most JSON values (objects, arrays, members and items) one message
/// may hold: a real one holds tens (a document is one string), and each
/// costs tens of bytes parsed, so a 64 MiB `[0,0,...]` is refused before
/// it becomes gigabytes.
pub const MAX_JSON_VALUES: usize = 1 << 20;
/// The most message bytes waiting for the server: the reader blocks
/// beyond (back-pressure), so a flood of large frames holds at most this
/// much besides the one read and the one handled, while a burst of small
/// changes still arrives whole (and is coalesced). One message of any
/// size is always let through.
const MAX_QUEUED_BYTES: usize = 64 * 1024 * 1024;

/// The bytes of the messages read and not yet taken by the server.
#[derive(Clone, Default)]
pub struct Backlog {
    queued: std::sync::Arc<(std::sync::Mutex<usize>, std::sync::Condvar)>,
    sizes: Option<crossbeam_channel::Receiver<usize>>,
}

impl Backlog {
    /// Called for each message the server takes off the connection.
    pub fn taken(&self) {
        let Some(size) = self.sizes.as_ref().and_then(|s| s.try_recv().ok()) else {
            return;
        };
        let (queued, freed) = &*self.queued;
        let mut queued = queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *queued = queued.saturating_sub(size);
        freed.notify_all();
    }

    /// Waits until `size` more bytes fit, then counts them.
    fn admit(&self, size: usize) {
        let (queued, freed) = &*self.queued;
        let mut queued = queued
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while *queued > 0 && *queued + size > MAX_QUEUED_BYTES {
            queued = freed
                .wait(queued)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        *queued += size;
    }
}

/// How many JSON values `body` holds at least: its structural characters
/// outside strings (every value but a lone scalar follows one of them).
fn json_values(body: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped) = (0, false, false);
    for &b in body {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'[' | b'{' | b',' | b':' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// Why a frame was refused.
#[derive(Debug)]
pub enum FrameError {
    Io(io::Error),
    /// A header line over [`MAX_HEADER_LINE`], or more than [`MAX_HEADERS`].
    HeaderTooLong,
    /// A header without `:` or one that is not UTF-8.
    BadHeader(String),
    NoContentLength,
    /// A length that is not a number, or over [`MAX_BODY`].
    BadLength(String),
    /// The stream ended inside a frame.
    Truncated,
    /// The body is not a JSON-RPC message.
    BadJson(String),
    /// The body holds more than [`MAX_JSON_VALUES`] JSON values.
    TooManyValues(usize),
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Io(e) => write!(f, "reading the client: {e}"),
            FrameError::HeaderTooLong => write!(
                f,
                "a header line over {MAX_HEADER_LINE} bytes, or more than {MAX_HEADERS} header lines"
            ),
            FrameError::BadHeader(h) => write!(f, "a malformed header `{h}`"),
            FrameError::NoContentLength => write!(f, "a frame without `Content-Length`"),
            FrameError::TooManyValues(n) => write!(
                f,
                "a message of {n} JSON values, more than the {MAX_JSON_VALUES} one may hold"
            ),
            FrameError::BadLength(l) => write!(
                f,
                "`Content-Length: {l}` is not a length of at most {MAX_BODY} bytes"
            ),
            FrameError::Truncated => write!(f, "the input ended inside a frame"),
            FrameError::BadJson(e) => write!(f, "a body that is not a JSON-RPC message: {e}"),
        }
    }
}

/// One header line without its line ending, read at most to the limit;
/// `None` at the end of the input before any byte.
fn header_line(input: &mut impl BufRead) -> Result<Option<String>, FrameError> {
    let mut line = Vec::new();
    let read = input
        .take(MAX_HEADER_LINE as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(FrameError::Io)?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') {
        return Err(if line.len() > MAX_HEADER_LINE {
            FrameError::HeaderTooLong
        } else {
            FrameError::Truncated
        });
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line)
        .map(Some)
        .map_err(|e| FrameError::BadHeader(String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// The next message; `None` at the end of the input between frames (the
/// unit tests and the `lsp_frames` fuzz target read through it).
#[cfg_attr(not(test), allow(dead_code))]
pub fn read_message(input: &mut impl BufRead) -> Result<Option<Message>, FrameError> {
    Ok(read_sized(input)?.map(|(message, _)| message))
}

/// The next message and the size of its body.
fn read_sized(input: &mut impl BufRead) -> Result<Option<(Message, usize)>, FrameError> {
    let mut length = None;
    let mut headers = 0;
    loop {
        let Some(line) = header_line(input)? else {
            return if headers == 0 {
                Ok(None)
            } else {
                Err(FrameError::Truncated)
            };
        };
        if line.is_empty() {
            break;
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return Err(FrameError::HeaderTooLong);
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| FrameError::BadHeader(line.clone()))?;
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            let n: usize = value
                .parse()
                .map_err(|_| FrameError::BadLength(value.to_owned()))?;
            if n > MAX_BODY {
                return Err(FrameError::BadLength(value.to_owned()));
            }
            length = Some(n);
        }
    }
    let length = length.ok_or(FrameError::NoContentLength)?;
    // Grown as bytes arrive: a peer's claim reserves nothing.
    let mut body = Vec::with_capacity(length.min(64 * 1024));
    input
        .take(length as u64)
        .read_to_end(&mut body)
        .map_err(FrameError::Io)?;
    if body.len() < length {
        return Err(FrameError::Truncated);
    }
    let values = json_values(&body);
    if values > MAX_JSON_VALUES {
        return Err(FrameError::TooManyValues(values));
    }
    serde_json::from_slice(&body)
        .map(|message| Some((message, length)))
        .map_err(|e| FrameError::BadJson(e.to_string()))
}

/// A connection over stdin and stdout with bounded framing: a reader
/// thread parses frames into the returned connection, a writer thread
/// writes its answers. A malformed frame is logged and ends the process
/// with exit code 1 (the client broke the protocol; nothing can follow).
pub fn stdio() -> (Connection, Backlog) {
    let (to_server, from_reader) = crossbeam_channel::unbounded();
    let (to_writer, from_server) = crossbeam_channel::unbounded();
    let (sizes, sized) = crossbeam_channel::unbounded();
    let server = Connection {
        sender: to_writer,
        receiver: from_reader,
    };
    let backlog = Backlog {
        sizes: Some(sized),
        ..Backlog::default()
    };
    let admission = backlog.clone();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            match read_sized(&mut input) {
                Ok(Some((message, size))) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    admission.admit(size);
                    // The size first: the server takes it with the message.
                    if sizes.send(size).is_err() || to_server.send(message).is_err() || exit {
                        break;
                    }
                }
                // The end of the input ends the session.
                Ok(None) => break,
                // Framed well, so the stream is intact: refused alone, logged.
                Err(e @ FrameError::TooManyValues(_)) => {
                    eprintln!("utter lsp: {e}; the message is ignored");
                }
                Err(e) => {
                    eprintln!(
                        "utter lsp: {}; stopping",
                        utter_compiler::diagnostics::escape::escape(&e.to_string())
                    );
                    std::process::exit(1);
                }
            }
        }
    });
    std::thread::spawn(move || {
        let stdout = io::stdout();
        for message in from_server {
            let mut out = stdout.lock();
            if message.write(&mut out).and_then(|()| out.flush()).is_err() {
                break;
            }
        }
    });
    (server, backlog)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8]) -> Result<Option<Message>, FrameError> {
        read_message(&mut io::Cursor::new(bytes))
    }

    #[test]
    fn well_formed_frames_are_read() {
        let body = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(
            read(frame.as_bytes()),
            Ok(Some(Message::Notification(_)))
        ));
        // LF-only headers are read too (some clients send them).
        let frame = format!("Content-Length: {}\n\n{body}", body.len());
        assert!(matches!(read(frame.as_bytes()), Ok(Some(_))));
        assert!(matches!(read(b""), Ok(None)));
    }

    #[test]
    fn the_backlog_holds_the_reader_back_until_the_server_takes() {
        let (sizes, sized) = crossbeam_channel::unbounded();
        let backlog = Backlog {
            sizes: Some(sized),
            ..Backlog::default()
        };
        // One message of any size passes when nothing waits.
        backlog.admit(MAX_QUEUED_BYTES);
        sizes.send(MAX_QUEUED_BYTES).unwrap();
        let reader = backlog.clone();
        let (done, finished) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            reader.admit(1);
            let _ = done.send(());
        });
        // The next waits for the server to take the first.
        let wait = std::time::Duration::from_millis(200);
        assert!(finished.recv_timeout(wait).is_err());
        backlog.taken();
        assert!(finished.recv_timeout(wait * 50).is_ok());
    }

    #[test]
    fn a_message_of_too_many_values_is_refused_before_parsing() {
        let many = format!("[{}0]", "0,".repeat(MAX_JSON_VALUES));
        let frame = format!("Content-Length: {}\r\n\r\n{many}", many.len());
        assert!(matches!(
            read(frame.as_bytes()),
            Err(FrameError::TooManyValues(n)) if n > MAX_JSON_VALUES
        ));
        // Structure inside strings is text: a document full of commas is one value.
        let text = ",[{:".repeat(MAX_JSON_VALUES);
        let body =
            format!(r#"{{"jsonrpc":"2.0","method":"x","params":{{"text":"{text}\\\"[,"}}}}"#);
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(read(frame.as_bytes()), Ok(Some(_))));
        assert_eq!(json_values(br#"{"a":[1,2],"b":"x,y"}"#), 6);
    }

    #[test]
    fn hostile_frames_are_refused_without_allocating_what_they_claim() {
        assert!(matches!(
            read(b"Content-Length: 1000000000000\r\n\r\n{}"),
            Err(FrameError::BadLength(_))
        ));
        assert!(matches!(
            read(b"Content-Length: -5\r\n\r\n"),
            Err(FrameError::BadLength(_))
        ));
        assert!(matches!(
            read(b"Content-Length: 99999999999999999999999\r\n\r\n"),
            Err(FrameError::BadLength(_))
        ));
        // A claim under the limit with no body: truncated, not a 60 MB buffer.
        assert!(matches!(
            read(b"Content-Length: 60000000\r\n\r\n{"),
            Err(FrameError::Truncated)
        ));
        assert!(matches!(
            read(b"Content-Type: x\r\n\r\n{}"),
            Err(FrameError::NoContentLength)
        ));
        assert!(matches!(
            read(b"Content-Length: 2\r\n\r\n{]"),
            Err(FrameError::BadJson(_))
        ));
        assert!(matches!(
            read(b"garbage\r\n\r\n"),
            Err(FrameError::BadHeader(_))
        ));
        let endless = vec![b'a'; MAX_HEADER_LINE * 4];
        assert!(matches!(read(&endless), Err(FrameError::HeaderTooLong)));
        let many = "X-A: 1\r\n".repeat(MAX_HEADERS + 1) + "\r\n";
        assert!(matches!(
            read(many.as_bytes()),
            Err(FrameError::HeaderTooLong)
        ));
    }
}
