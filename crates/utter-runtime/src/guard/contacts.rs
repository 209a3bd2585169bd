//! Email addresses, web addresses and phone numbers in a text: facts the
//! figure reader does not see whole.

use std::ops::Range;

/// What a contact is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Contact {
    Email,
    WebAddress,
    Phone,
}

/// Top-level domains a bare web address (`example.com/help`) is known by.
const DOMAINS: &[&str] = &[
    "com", "org", "net", "io", "co", "uk", "de", "fr", "es", "eu", "gov", "edu", "info", "app",
    "dev", "ai", "us", "ca", "au", "ch", "at", "nl", "be", "it", "biz",
];

/// Fewest digits a phone number without `+` has.
const MIN_PHONE_DIGITS: usize = 9;

/// Every contact in `text`, in order, not overlapping.
pub(crate) fn find(text: &str) -> Vec<(Range<usize>, Contact)> {
    if !may_hold_a_contact(text) {
        return Vec::new();
    }
    let mut found: Vec<(Range<usize>, Contact)> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let next = address(text, at).or_else(|| phone(text, at));
        match next {
            Some((span, kind)) => {
                at = span.end;
                found.push((span, kind));
            }
            // An address starts a run of address characters: past one that
            // is none, the next candidate is after the run (linear).
            None => at = next_start(text, at),
        }
    }
    found
}

/// The quick test: a contact needs an `@`, a `.` with a letter after it
/// (a domain), or seven digits (a phone number).
fn may_hold_a_contact(text: &str) -> bool {
    let bytes = text.as_bytes();
    let dotted = bytes
        .windows(2)
        .any(|w| w[0] == b'.' && w[1].is_ascii_alphabetic());
    dotted || text.contains('@') || longest_digit_group(bytes) >= 7
}

/// The most digits in one run of digits joined by single separators (` `,
/// `-`, `.`, `(`, `)`, `+`): a phone number needs seven.
fn longest_digit_group(bytes: &[u8]) -> usize {
    let (mut longest, mut current) = (0, 0);
    for (at, b) in bytes.iter().enumerate() {
        if b.is_ascii_digit() {
            current += 1;
            longest = longest.max(current);
        } else {
            let joins = matches!(b, b' ' | b'-' | b'.' | b'(' | b')' | b'+')
                && bytes
                    .get(at + 1)
                    .is_some_and(|n| n.is_ascii_digit() || *n == b'(');
            if !joins {
                current = 0;
            }
        }
    }
    longest
}

/// Where the next contact may start after `at`: the next character that is
/// a digit, `+` or `(` (a phone number), or that starts a run of address
/// characters.
fn next_start(text: &str, at: usize) -> usize {
    let mut chars = text[at..].char_indices();
    let Some((_, first)) = chars.next() else {
        return text.len();
    };
    let mut in_run = is_address_char(first);
    for (offset, c) in chars {
        let phone_start = c.is_ascii_digit() || c == '+' || c == '(';
        let run_start = is_address_char(c) && !in_run;
        if phone_start || run_start {
            return at + offset;
        }
        in_run = is_address_char(c);
    }
    text.len()
}

fn is_address_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(
            c,
            '.' | '-' | '_' | '+' | '%' | '@' | '/' | ':' | '?' | '=' | '&' | '#' | '~'
        )
}

/// An email or web address starting at `at` (at a word's start).
fn address(text: &str, at: usize) -> Option<(Range<usize>, Contact)> {
    if text[..at].chars().next_back().is_some_and(is_address_char) {
        return None;
    }
    let len: usize = text[at..]
        .chars()
        .take_while(|&c| is_address_char(c))
        .map(char::len_utf8)
        .sum();
    let mut word = &text[at..at + len];
    // Sentence punctuation after an address is not part of it.
    word = word.trim_end_matches(['.', ':', '?', '&', '#', '=', '-', '_']);
    if word.is_empty() {
        return None;
    }
    let span = at..at + word.len();
    let lower = word.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("www.") {
        return Some((span, Contact::WebAddress));
    }
    if let Some((local, domain)) = word.split_once('@') {
        let valid = !local.is_empty() && has_domain(domain.split('/').next().unwrap_or_default());
        return valid.then_some((span, Contact::Email));
    }
    let host = word.split(['/', '?', '#']).next().unwrap_or_default();
    has_domain(host).then_some((span, Contact::WebAddress))
}

/// `name.tld` with a known top-level domain and a name before it.
fn has_domain(host: &str) -> bool {
    let Some((name, tld)) = host.rsplit_once('.') else {
        return false;
    };
    !name.is_empty()
        && !name.ends_with('.')
        && name.chars().any(char::is_alphabetic)
        && DOMAINS.contains(&tld.to_ascii_lowercase().as_str())
}

/// A phone number starting at `at`: `+` and digits, or at least nine
/// digits, grouped by single spaces, `-`, `.` or parentheses.
fn phone(text: &str, at: usize) -> Option<(Range<usize>, Contact)> {
    let bytes = text.as_bytes();
    let first = *bytes.get(at)?;
    if !(first == b'+' || first == b'(' || first.is_ascii_digit()) {
        return None;
    }
    if at > 0
        && (bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'+' | b'.' | b','))
    {
        return None;
    }
    let mut end = at;
    let mut digits = 0;
    let mut last_digit_end = at;
    while end < bytes.len() {
        let b = bytes[end];
        let next = bytes.get(end + 1).copied().unwrap_or(0);
        let joins = match b {
            b')' => next.is_ascii_digit() || matches!(next, b' ' | b'-'),
            b'-' | b'.' | b'(' | b' ' => next.is_ascii_digit() || next == b'(',
            _ => false,
        };
        if b.is_ascii_digit() {
            digits += 1;
            last_digit_end = end + 1;
        } else if !(joins || (end == at && matches!(b, b'+' | b'('))) {
            break;
        }
        end += 1;
    }
    let plus = first == b'+';
    let enough = if plus {
        digits >= 7
    } else {
        digits >= MIN_PHONE_DIGITS
    };
    let grouped = text[at..last_digit_end].contains([' ', '-', '(', '.']) || plus;
    (enough && grouped).then_some((at..last_digit_end, Contact::Phone))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(&str, Contact)> {
        find(text).into_iter().map(|(s, k)| (&text[s], k)).collect()
    }

    #[test]
    fn contacts_are_found_whole() {
        assert_eq!(
            kinds(
                "Mail support@example.com, see https://my-site.example.com/order-42. Or example.org/help."
            ),
            [
                ("support@example.com", Contact::Email),
                ("https://my-site.example.com/order-42", Contact::WebAddress),
                ("example.org/help", Contact::WebAddress),
            ]
        );
        assert_eq!(
            kinds("Call +1 555 0100 or (030) 1234-5678 today."),
            [
                ("+1 555 0100", Contact::Phone),
                ("(030) 1234-5678", Contact::Phone)
            ]
        );
        // Amounts, dates and sentence ends are no contacts.
        assert!(kinds("Pay $1,000.50 by 2026-07-21. It is 3.5 km. e.g. this").is_empty());
    }
}
