//! Facts about characters that make names and texts deceptive: what the
//! loader and validation report, and what generated docs escape.

/// Bidirectional controls and zero-width characters (Trojan Source): they
/// make a text read otherwise than it is. (Not `escape::is_invisible`, the
/// wider set an escaped text shows as `\u{..}`.)
pub fn is_deceptive(c: char) -> bool {
    matches!(c as u32,
        0x061C | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
}

/// The scripts a name's letters come from, among those whose letters are
/// easily confused (Latin, Greek, Cyrillic): a name mixing them (`utter_рay`
/// with a Cyrillic `р`) looks like another name. A heuristic in the spirit
/// of UTS #39's mixed-script detection, not its full confusables table.
pub fn mixed_scripts(name: &str) -> Option<(&'static str, &'static str)> {
    let script = |c: char| match c as u32 {
        _ if c.is_ascii_alphabetic() => Some("Latin"),
        0x00C0..=0x024F => Some("Latin"),
        0x0370..=0x03FF => Some("Greek"),
        0x0400..=0x052F => Some("Cyrillic"),
        _ => None,
    };
    let mut first: Option<&'static str> = None;
    for s in name.chars().filter_map(script) {
        match first {
            None => first = Some(s),
            Some(f) if f != s => return Some((f, s)),
            Some(_) => {}
        }
    }
    None
}
