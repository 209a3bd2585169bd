//! `utter deliver-batch` (hidden): many deliveries in one process, one JSON
//! request and answer per line, for conformance scripts.

use std::io::{BufRead, Write as _};
use std::path::Path;
use std::process::ExitCode;

use utter::json::RefusedValues;
use utter_compiler::{Interpreter, Request, RequestError};

use crate::args::Globals;
use crate::fatal::Fatal;
use crate::open::registry_or_errors;

pub fn cmd_deliver_batch(dir: &Path, globals: Globals) -> Result<ExitCode, Fatal> {
    let Globals { color, dialect } = globals;
    let Some(registry) = registry_or_errors(dir, dialect, "delivered", None, color)? else {
        return Ok(ExitCode::from(1));
    };
    let interpreter = registry.interpreter();
    let declared = utter_compiler::load::agent_yml::declared_language(dir)
        .map_err(|e| Fatal(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let limit = utter_compiler::load::project::MAX_FILE_BYTES as usize;
    let mut input = std::io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        let read = next_line(&mut input, &mut buffer, limit)
            .map_err(|e| Fatal(format!("reading the requests: {e}")))?;
        let answer = match read {
            Line::End => break,
            Line::TooLong => serde_json::json!({
                "error": format!("a request of more than {limit} bytes (not read past the limit)")
            }),
            Line::Read => match std::str::from_utf8(&buffer) {
                Ok(line) => deliver_request(&interpreter, line, declared.as_deref()),
                Err(e) => serde_json::json!({"error": format!("the request is not UTF-8: {e}")}),
            },
        };
        writeln!(out, "{}", crate::output::json_text(&answer))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What [`next_line`] read.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line, in the buffer (without its `\n` or `\r\n`).
    Read,
    /// A line longer than the limit: skipped to its end, never held.
    TooLong,
    /// No more input.
    End,
}

/// Reads the next line into `buffer`, holding at most `limit` bytes of it:
/// a longer line is read past (in the reader's chunks) and reported, so a
/// batch's memory is bounded by the limit, not by the line.
fn next_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    buffer.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], true),
            None => (chunk, false),
        };
        if !too_long && buffer.len() + part.len() <= limit {
            buffer.extend_from_slice(part);
        } else {
            too_long = true;
            buffer.clear();
        }
        let used = part.len() + usize::from(ended);
        input.consume(used);
        if ended {
            break;
        }
    }
    if buffer.last() == Some(&b'\r') {
        buffer.pop();
    }
    Ok(match (any, too_long) {
        (false, _) => Line::End,
        (true, true) => Line::TooLong,
        (true, false) => Line::Read,
    })
}

/// One `deliver-batch` request answered. A value its entry does not take
/// is left out and listed under `refused` with the entries the agent does
/// not declare, as the reference engine leaves out a value a slot refuses.
fn deliver_request(
    interpreter: &Interpreter<'_>,
    line: &str,
    declared: Option<&str>,
) -> serde_json::Value {
    let request: serde_json::Value = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return serde_json::json!({"error": format!("not a JSON request: {e}")}),
    };
    let memory = match &request["memory"] {
        serde_json::Value::Null => String::new(),
        memory => memory.to_string(),
    };
    let answer = interpreter.answer(&Request {
        response: request["response"].as_str().unwrap_or_default(),
        skill: request["skill"].as_str(),
        memory: &memory,
        refused_values: RefusedValues::Collect,
        explain: false,
    });
    let answer = match answer {
        Ok(answer) => answer,
        Err(RequestError::Memory(e)) => return serde_json::json!({"error": format!("memory: {e}")}),
        Err(e) => return serde_json::json!({"error": e.to_string()}),
    };
    let registry = interpreter.registry();
    let undeclared = answer.not_stored.undeclared.iter();
    let mut refused: Vec<(usize, String)> = undeclared
        .map(|a| (a.offset, registry.undeclared_entry(&a.namespace, &a.entry)))
        .chain(
            answer
                .not_stored
                .refused
                .iter()
                .map(|e| (e.offset, e.message.clone())),
        )
        .collect();
    refused.sort();
    // `"channel": "voice"` and `"language": "<tag>"` ask for the facts in
    // that form (as `render --channel --lang`).
    let channel = match request["channel"].as_str() {
        None | Some("text") => utter::Channel::Text,
        Some("voice") => utter::Channel::Voice,
        Some(other) => {
            return serde_json::json!({"error": format!("channel `{other}`: `text` or `voice`")});
        }
    };
    let context = match crate::context::delivery_context(
        declared.map(str::to_owned),
        channel,
        request["language"].as_str(),
    ) {
        Ok(context) => context,
        Err(e) => return serde_json::json!({"error": format!("language {e}")}),
    };
    let mut d = answer.delivery;
    crate::context::in_context(&mut d, context.as_ref());
    serde_json::json!({
        "text": d.text,
        "variant": d.variant,
        "rephrase": d.rephrase,
        "fallback": d.fallback,
        "refused": refused.into_iter().map(|(_, message)| message).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        let mut reader = std::io::BufReader::with_capacity(4, input);
        let mut buffer = Vec::new();
        let mut out = Vec::new();
        loop {
            let line = next_line(&mut reader, &mut buffer, limit).unwrap();
            if line == Line::End {
                return out;
            }
            out.push((line, buffer.clone()));
        }
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_without_being_held() {
        let input = b"short\r\n0123456789abcdef\n\xff\xfe\nlast";
        let read = lines(input, 8);
        assert_eq!(
            read,
            [
                (Line::Read, b"short".to_vec()),
                (Line::TooLong, Vec::new()),
                (Line::Read, vec![0xff, 0xfe]),
                (Line::Read, b"last".to_vec()),
            ]
        );
        // The buffer never held more than the limit: a long line is dropped
        // chunk by chunk (chunks of 4 here).
        assert!(
            lines(&vec![b'x'; 10_000], 8)
                .iter()
                .all(|(_, b)| b.len() <= 8)
        );
        assert!(lines(b"", 8).is_empty());
    }
}
