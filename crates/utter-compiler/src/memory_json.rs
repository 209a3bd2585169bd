//! Memory given as JSON (`utter render --memory`): `{"<namespace>": {"<entry>": value}}`.
//! A small strict reader of our own: every error has a line and column,
//! duplicate keys are errors, integers outside 64 bits are refused.

use utter::Value;

/// Deepest nesting of arrays and objects accepted.
pub const MAX_DEPTH: usize = 128;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub offset: usize,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for JsonError {}

/// One `namespace.entry = value` of the memory file.
#[derive(Clone, Debug)]
pub struct Assignment {
    pub namespace: String,
    pub entry: String,
    pub value: Value,
    /// Byte offset of the entry's key.
    pub offset: usize,
    pub line: usize,
    pub column: usize,
}

struct Reader<'s> {
    text: &'s str,
    pos: usize,
    depth: usize,
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    crate::diagnostics::SourceFile::new("", text).line_col(offset)
}

impl<'s> Reader<'s> {
    fn error(&self, offset: usize, message: impl Into<String>) -> JsonError {
        let (line, column) = line_col(self.text, offset);
        JsonError {
            offset,
            line,
            column,
            message: message.into(),
        }
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), JsonError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(self.pos, format!("expected {what}, found {}", self.found())))
        }
    }

    fn found(&self) -> String {
        match self.text[self.pos..].chars().next() {
            None => "the end of the file".into(),
            Some(c) => format!("`{c}`"),
        }
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(b'{') => {
                let pairs = self.object(|r| r.value())?;
                Ok(Value::Map(
                    pairs.into_iter().map(|(k, _, v)| (k, v)).collect(),
                ))
            }
            Some(b'[') => {
                self.enter(start)?;
                self.pos += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        items.push(self.value()?);
                        self.skip_ws();
                        match self.peek() {
                            Some(b',') => self.pos += 1,
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            _ => {
                                return Err(self.error(
                                    self.pos,
                                    format!("expected `,` or `]`, found {}", self.found()),
                                ));
                            }
                        }
                    }
                }
                self.depth -= 1;
                Ok(Value::List(items))
            }
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b't') if self.text[self.pos..].starts_with("true") => {
                self.pos += 4;
                Ok(Value::Bool(true))
            }
            Some(b'f') if self.text[self.pos..].starts_with("false") => {
                self.pos += 5;
                Ok(Value::Bool(false))
            }
            Some(b'n') if self.text[self.pos..].starts_with("null") => {
                self.pos += 4;
                Ok(Value::None)
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error(
                start,
                format!("expected a JSON value, found {}", self.found()),
            )),
        }
    }

    fn enter(&mut self, at: usize) -> Result<(), JsonError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(
                at,
                format!("arrays and objects are nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    /// An object; `item` reads each value. Returns key, key offset, value.
    fn object<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, JsonError>,
    ) -> Result<Vec<(String, usize, T)>, JsonError> {
        self.skip_ws();
        let start = self.pos;
        self.enter(start)?;
        self.expect(b'{', "`{`")?;
        let mut pairs: Vec<(String, usize, T)> = Vec::new();
        let mut keys: std::collections::HashSet<String> = std::collections::HashSet::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(pairs);
        }
        loop {
            self.skip_ws();
            let key_at = self.pos;
            if self.peek() != Some(b'"') {
                return Err(self.error(
                    self.pos,
                    format!("expected a string key, found {}", self.found()),
                ));
            }
            let key = self.string()?;
            if !keys.insert(key.clone()) {
                return Err(self.error(key_at, format!("duplicate key \"{key}\"")));
            }
            self.expect(b':', "`:`")?;
            let value = item(self)?;
            pairs.push((key, key_at, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(self.error(
                        self.pos,
                        format!("expected `,` or `}}`, found {}", self.found()),
                    ));
                }
            }
        }
        self.depth -= 1;
        Ok(pairs)
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let at = self.pos;
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        let Some(digits) = digits else {
            return Err(self.error(at, "`\\u` must be followed by 4 hex digits"));
        };
        self.pos += 4;
        u32::from_str_radix(digits, 16).map_err(|_| self.error(at, "invalid `\\u` escape"))
    }

    fn string(&mut self) -> Result<String, JsonError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.pos..].chars().next() else {
                return Err(self.error(start, "unterminated string"));
            };
            let at = self.pos;
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.error(start, "unterminated string"));
                    };
                    self.pos += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\x08'),
                        b'f' => out.push('\x0c'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let high = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&high) {
                                if !self.text[self.pos..].starts_with("\\u") {
                                    return Err(self.error(
                                        at,
                                        "a high surrogate must be followed by a low surrogate",
                                    ));
                                }
                                self.pos += 2;
                                let low = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&low) {
                                    return Err(self.error(
                                        at,
                                        "a high surrogate must be followed by a low surrogate",
                                    ));
                                }
                                0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                high
                            };
                            match char::from_u32(code) {
                                Some(ch) => out.push(ch),
                                None => {
                                    return Err(self.error(at, "lone surrogate in `\\u` escape"));
                                }
                            }
                        }
                        _ => return Err(self.error(at, "invalid escape in string")),
                    }
                }
                c if (c as u32) < 0x20 => {
                    return Err(
                        self.error(at, "control characters must be escaped in JSON strings")
                    );
                }
                c => out.push(c),
            }
        }
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_start = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let int_digits = i - int_start;
        if int_digits == 0 || (int_digits > 1 && bytes[int_start] == b'0') {
            return Err(self.error(start, "invalid number"));
        }
        let mut is_float = false;
        if bytes.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            let frac = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == frac {
                return Err(self.error(start, "invalid number: digits must follow `.`"));
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            is_float = true;
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == exp {
                return Err(self.error(start, "invalid number: digits must follow the exponent"));
            }
        }
        let literal = &self.text[start..i];
        self.pos = i;
        if is_float {
            match literal.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Value::Float(f)),
                _ => Err(self.error(start, format!("number {literal} is out of range"))),
            }
        } else {
            literal.parse::<i64>().map(Value::Int).map_err(|_| {
                self.error(start, format!("integer {literal} does not fit in 64 bits"))
            })
        }
    }
}

/// Reads a memory JSON document.
pub fn parse(text: &str) -> Result<Vec<Assignment>, JsonError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        pos: 0,
        depth: 0,
    };
    reader.skip_ws();
    if reader.peek() != Some(b'{') {
        return Err(reader.error(reader.pos, format!(
            "memory must be a JSON object of namespaces, like {{\"project\": {{\"entry\": value}}}}, found {}",
            reader.found()
        )));
    }
    let namespaces = reader.object(|r| {
        r.skip_ws();
        if r.peek() != Some(b'{') {
            return Err(r.error(
                r.pos,
                format!(
                    "a namespace must map entry names to values (a JSON object), found {}",
                    r.found()
                ),
            ));
        }
        r.object(|r| r.value())
    })?;
    reader.skip_ws();
    if reader.pos < text.len() {
        return Err(reader.error(
            reader.pos,
            format!("unexpected {} after the JSON document", reader.found()),
        ));
    }
    let mut out = Vec::new();
    // One line index for every position: O(log n) each.
    let source = crate::diagnostics::SourceFile::new("", text);
    for (namespace, _, entries) in namespaces {
        for (entry, offset, value) in entries {
            let (line, column) = source.line_col(offset);
            out.push(Assignment {
                namespace: namespace.clone(),
                entry,
                value,
                offset,
                line,
                column,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_namespaces_and_values() {
        let got = parse(r#"{"project": {"n": 5, "f": 2.5, "s": "a\u00e9\ud83d\ude00", "l": [true, null], "m": {"k": -1}}, "card": {}}"#).unwrap();
        let shown: Vec<String> = got
            .iter()
            .map(|a| {
                format!(
                    "{}.{}={}",
                    a.namespace,
                    a.entry,
                    utter::py_str(a.value.as_ref())
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                "project.n=5",
                "project.f=2.5",
                "project.s=aé😀",
                "project.l=[True, None]",
                "project.m={'k': -1}"
            ]
        );
    }

    #[test]
    fn errors_have_positions() {
        let cases = [
            ("{\"a\": {\"x\": 1, \"x\": 2}}", 1, 16, "duplicate key"),
            ("{\"a\": {\"x\": 99999999999999999999}}", 1, 13, "64 bits"),
            ("{\"a\": 1}", 1, 7, "namespace must map"),
            ("[1]", 1, 1, "JSON object of namespaces"),
            ("{\"a\": {\"x\": tru}}", 1, 13, "expected a JSON value"),
            ("{\"a\": {\"x\": 1}} x", 1, 17, "after the JSON document"),
            ("{\n  \"a\": {\"x\": 01}}", 2, 14, "invalid number"),
            ("{\"a\": {\"x\": \"\\ud800\"}}", 1, 14, "surrogate"),
            ("{\"a\": {\"x\": 1e999}}", 1, 13, "out of range"),
        ];
        for (text, line, column, needle) in cases {
            let e = parse(text).unwrap_err();
            assert!(e.message.contains(needle), "{text}: {e}");
            assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
        }
        let deep = format!(
            "{{\"a\": {{\"x\": {}1{}}}}}",
            "[".repeat(1000),
            "]".repeat(1000)
        );
        assert!(parse(&deep).unwrap_err().message.contains("nested deeper"));
    }
}
