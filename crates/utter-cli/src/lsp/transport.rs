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
/// The deepest nesting of arrays and objects a message may have: a real
/// one nests under ten; the JSON parser gives up at 128, which would end
/// the session, so a deeper message is refused alone, with an answer.
pub const MAX_JSON_DEPTH: usize = 64;
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

/// What a body's structure is, read outside strings without parsing.
struct Shape {
    /// How many JSON values it holds at least: its structural characters
    /// outside strings (every value but a lone scalar follows one of them).
    values: usize,
    /// The deepest nesting of arrays and objects.
    depth: usize,
}

fn json_shape(body: &[u8]) -> Shape {
    let (mut values, mut depth, mut deepest) = (0, 0usize, 0);
    let (mut in_string, mut escaped) = (false, false);
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
                b'[' | b'{' => {
                    values += 1;
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                b',' | b':' => values += 1,
                _ => {}
            }
        }
    }
    Shape {
        values,
        depth: deepest,
    }
}

/// The `id` of a request, read from the top level of its body without
/// parsing the rest (a number or a string), for answering a message that
/// cannot be parsed.
fn top_level_id(body: &[u8]) -> Option<lsp_server::RequestId> {
    let (mut depth, mut at) = (0usize, 0);
    while at < body.len() {
        match body[at] {
            b'"' => {
                let end = string_end(body, at)?;
                let key = &body[at + 1..end];
                at = end + 1;
                let colon = body[at..].iter().position(|b| !b.is_ascii_whitespace())?;
                if depth == 1 && key == b"id" && body.get(at + colon) == Some(&b':') {
                    return scalar_id(&body[at + colon + 1..]);
                }
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    None
}

/// The index of the quote that closes the string opening at `start`.
fn string_end(body: &[u8], start: usize) -> Option<usize> {
    let mut escaped = false;
    for (i, &b) in body.iter().enumerate().skip(start + 1) {
        match (escaped, b) {
            (true, _) => escaped = false,
            (false, b'\\') => escaped = true,
            (false, b'"') => return Some(i),
            _ => {}
        }
    }
    None
}

/// A request id at the start of `rest`: an integer or a plain string.
fn scalar_id(rest: &[u8]) -> Option<lsp_server::RequestId> {
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &rest[start..];
    if rest.first() == Some(&b'"') {
        let end = string_end(rest, 0)?;
        let text = std::str::from_utf8(&rest[1..end]).ok()?;
        return (!text.contains('\\')).then(|| text.to_owned().into());
    }
    let len = rest
        .iter()
        .position(|b| !(b.is_ascii_digit() || *b == b'-'))
        .unwrap_or(rest.len());
    let number: i32 = std::str::from_utf8(&rest[..len]).ok()?.parse().ok()?;
    Some(number.into())
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
    /// The body nests deeper than [`MAX_JSON_DEPTH`]; the request's id,
    /// when it has one, for the answer.
    TooDeep(usize, Option<lsp_server::RequestId>),
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
            FrameError::TooDeep(depth, _) => write!(
                f,
                "a message nested {depth} levels deep, deeper than the {MAX_JSON_DEPTH} one may be"
            ),
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
    let shape = json_shape(&body);
    if shape.values > MAX_JSON_VALUES {
        return Err(FrameError::TooManyValues(shape.values));
    }
    if shape.depth > MAX_JSON_DEPTH {
        return Err(FrameError::TooDeep(shape.depth, top_level_id(&body)));
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
    let answers = to_writer.clone();
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
                // A request is answered with the error; the session goes on.
                Err(FrameError::TooDeep(depth, id)) => {
                    let e = FrameError::TooDeep(depth, None);
                    eprintln!("utter lsp: {e}; the message is refused");
                    if let Some(id) = id {
                        let code = lsp_server::ErrorCode::InvalidRequest as i32;
                        let refusal = lsp_server::Response::new_err(id, code, e.to_string());
                        if answers.send(refusal.into()).is_err() {
                            break;
                        }
                    }
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
        assert_eq!(json_shape(br#"{"a":[1,2],"b":"x,y"}"#).values, 6);
    }

    #[test]
    fn a_message_nested_too_deep_is_refused_with_its_id() {
        let nested = format!("{}{}", "[".repeat(126), "]".repeat(126));
        let body = format!(r#"{{"jsonrpc":"2.0","id":7,"method":"x","params":{nested}}}"#);
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(
            read(frame.as_bytes()),
            Err(FrameError::TooDeep(127, Some(id))) if id == 7.into()
        ));
        let body = format!(r#"{{"params":{nested},"id" : "a\"b","jsonrpc":"2.0"}}"#);
        assert_eq!(
            top_level_id(body.as_bytes()),
            None,
            "an escaped id is not guessed"
        );
        let body = format!(r#"{{"params":{{"id":1,"x":{nested}}},"id":"r2"}}"#);
        assert_eq!(top_level_id(body.as_bytes()), Some("r2".to_owned().into()));
        // Brackets inside strings are text.
        let text = "[".repeat(200);
        let body = format!(r#"{{"jsonrpc":"2.0","method":"x","params":{{"t":"{text}"}}}}"#);
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        assert!(matches!(read(frame.as_bytes()), Ok(Some(_))));
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
