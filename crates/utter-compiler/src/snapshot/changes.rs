//! What changed between a snapshot file and the snapshot an agent writes
//! now, by response, for `utter snapshot --check` to say in a few lines
//! (as `utter diff` does) instead of a line diff: responses added, removed
//! and changed (with the lines only one side has), and differences no eye
//! sees in a line diff (line endings, a byte-order mark, trailing space).
//! Linear in both texts, so a hostile snapshot file costs no more than
//! reading it.

use std::collections::{BTreeMap, HashMap};

/// A difference of characters a reader does not see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invisible {
    /// Lines end in CR LF (how many), where utter writes LF.
    CarriageReturns(usize),
    /// The file starts with a byte-order mark.
    ByteOrderMark,
    /// Lines end in spaces or tabs (how many).
    TrailingSpace(usize),
    /// The last line has no line end.
    NoFinalNewline,
}

/// One response whose lines differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedResponse {
    /// The response's name as the snapshot quotes it.
    pub name: String,
    /// Lines only the snapshot file has, in its order.
    pub reviewed: Vec<String>,
    /// Lines only the agent's snapshot has, in its order.
    pub now: Vec<String>,
}

/// What changed, by response.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Invisible differences; when nothing else differs, the file is the
    /// agent's snapshot written another way.
    pub invisible: Vec<Invisible>,
    /// Whether the lines before the first response (the header and the
    /// fingerprint) differ.
    pub header: bool,
    /// Responses only the agent has now (quoted names).
    pub added: Vec<String>,
    /// Responses only the snapshot file has (quoted names).
    pub removed: Vec<String>,
    /// Responses in both whose lines differ.
    pub changed: Vec<ChangedResponse>,
}

impl Changes {
    /// Whether only invisible characters differ.
    pub fn only_invisible(&self) -> bool {
        !self.header && self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

/// What changed from `reviewed` (the file) to `now` (what the agent
/// writes); `None` when they are the same text.
pub fn changes(reviewed: &str, now: &str) -> Option<Changes> {
    if reviewed == now {
        return None;
    }
    let (plain, invisible) = without_invisible(reviewed);
    let mut out = Changes {
        invisible,
        ..Changes::default()
    };
    if plain == now {
        return Some(out);
    }
    let (reviewed_header, mut reviewed_responses) = responses(&plain);
    let (now_header, now_responses) = responses(now);
    out.header = reviewed_header != now_header;
    for (name, lines) in now_responses {
        match reviewed_responses.remove(name) {
            None => out.added.push(name.to_owned()),
            Some(before) if before != lines => out.changed.push(changed(name, &before, &lines)),
            Some(_) => {}
        }
    }
    out.removed = reviewed_responses.into_keys().map(str::to_owned).collect();
    Some(out)
}

/// `text` as utter writes it (LF line ends, no byte-order mark, no
/// trailing space, a final line end), and what had to change.
fn without_invisible(text: &str) -> (String, Vec<Invisible>) {
    let mut invisible = Vec::new();
    let body = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            invisible.push(Invisible::ByteOrderMark);
            rest
        }
        None => text,
    };
    let (mut returns, mut trailing) = (0, 0);
    let mut plain = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = match line.strip_suffix('\r') {
            Some(rest) => {
                returns += 1;
                rest
            }
            None => line,
        };
        let trimmed = line.trim_end_matches([' ', '\t']);
        trailing += usize::from(trimmed.len() != line.len());
        plain.push_str(trimmed);
        plain.push('\n');
    }
    if returns > 0 {
        invisible.push(Invisible::CarriageReturns(returns));
    }
    if trailing > 0 {
        invisible.push(Invisible::TrailingSpace(trailing));
    }
    if !body.is_empty() && !body.ends_with('\n') {
        invisible.push(Invisible::NoFinalNewline);
    }
    (plain, invisible)
}

/// The lines before the first response, and each response's lines by its
/// quoted name (a name written twice keeps its lines together).
fn responses(text: &str) -> (Vec<&str>, BTreeMap<&str, Vec<&str>>) {
    let mut header = Vec::new();
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut current: Option<&str> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("response ") {
            current = Some(name);
            by_name.entry(name).or_default();
            continue;
        }
        match current {
            Some(name) => by_name.entry(name).or_default().push(line),
            None => header.push(line),
        }
    }
    (header, by_name)
}

/// A response whose lines differ: the lines only one side has, or, when
/// both have the same lines in another order, the lines that moved.
fn changed(name: &str, before: &[&str], now: &[&str]) -> ChangedResponse {
    let (mut reviewed, mut after) = (only_in(before, now), only_in(now, before));
    if reviewed.is_empty() && after.is_empty() {
        for (was, is) in before.iter().zip(now).filter(|(was, is)| was != is) {
            reviewed.push((*was).to_owned());
            after.push((*is).to_owned());
        }
    }
    ChangedResponse {
        name: name.to_owned(),
        reviewed,
        now: after,
    }
}

/// The lines of `these` that `those` does not have (as many times as
/// `these` has them more), in order.
fn only_in(these: &[&str], those: &[&str]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for line in those {
        *count.entry(line).or_default() += 1;
    }
    these
        .iter()
        .filter(|line| match count.get_mut(*line) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .map(|line| (*line).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "# header\nfingerprint 1\n\nresponse \"utter_a\"\n  variant 0\n    text \"Hi\"\n\nresponse \"utter_b\"\n  variant 0\n    text \"Bye\"\n";

    #[test]
    fn the_same_text_has_no_changes() {
        assert_eq!(changes(NOW, NOW), None);
    }

    #[test]
    fn invisible_differences_are_named() {
        let crlf = format!("\u{feff}{}", NOW.replace('\n', "\r\n"));
        let found = changes(&crlf, NOW).expect("different");
        assert!(found.only_invisible());
        assert_eq!(
            found.invisible,
            [Invisible::ByteOrderMark, Invisible::CarriageReturns(10)]
        );
        let spaced = NOW.replace("Hi\"", "Hi\"  ").trim_end().to_owned();
        let found = changes(&spaced, NOW).expect("different");
        assert!(found.only_invisible());
        assert_eq!(
            found.invisible,
            [Invisible::TrailingSpace(1), Invisible::NoFinalNewline]
        );
    }

    #[test]
    fn responses_added_removed_and_changed_by_name() {
        let reviewed = NOW
            .replace("text \"Hi\"", "text \"Hello\"")
            .replace("utter_b", "utter_old")
            .replace("fingerprint 1", "fingerprint 0");
        let found = changes(&reviewed, NOW).expect("different");
        assert!(found.header && found.invisible.is_empty());
        assert_eq!(found.added, ["\"utter_b\""]);
        assert_eq!(found.removed, ["\"utter_old\""]);
        assert_eq!(
            found.changed,
            [ChangedResponse {
                name: "\"utter_a\"".to_owned(),
                reviewed: vec!["    text \"Hello\"".to_owned()],
                now: vec!["    text \"Hi\"".to_owned()],
            }]
        );
    }

    /// Lines that only moved are shown as they stand on each side (found
    /// by fuzzing: a change of order listed no line).
    #[test]
    fn lines_that_moved_are_shown() {
        let reviewed = NOW.replace(
            "  variant 0\n    text \"Hi\"",
            "    text \"Hi\"\n  variant 0",
        );
        let found = changes(&reviewed, NOW).expect("different");
        assert_eq!(found.changed.len(), 1);
        assert_eq!(
            found.changed[0].reviewed,
            ["    text \"Hi\"", "  variant 0"]
        );
        assert_eq!(found.changed[0].now, ["  variant 0", "    text \"Hi\""]);
    }

    /// A hostile file (a million lines, no response) is summed up in
    /// linear time: its header differs and every response is added.
    #[test]
    fn a_hostile_file_is_summed_up() {
        let hostile = "x\n".repeat(1_000_000);
        let found = changes(&hostile, NOW).expect("different");
        assert!(found.header);
        assert_eq!(found.added.len(), 2);
    }
}
