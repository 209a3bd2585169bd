//! What a rephrase may not add or drop besides figures: a contact or a
//! request for personal data the reviewed text lacks, characters that
//! hide or disguise text, or so much of the reviewed text's content that
//! it no longer says it (`Okay.`).

use std::collections::HashSet;

use super::contacts;
use super::number::digit_value;
use super::{FactRefusal, Shown};
use crate::escape::is_unsafe;

/// Requests for personal data, in the four languages read (lowercase).
const DATA_REQUESTS: &[&str] = &[
    "card number",
    "card details",
    "pin",
    "password",
    "passcode",
    "security code",
    "cvv",
    "cvc",
    "one-time code",
    "verification code",
    "social security",
    "account number",
    "login",
    "username",
    "bank details",
    "sort code",
    "iban",
    "date of birth",
    "kartennummer",
    "passwort",
    "kennwort",
    "geheimzahl",
    "kontonummer",
    "zugangsdaten",
    "numéro de carte",
    "mot de passe",
    "code secret",
    "code de sécurité",
    "identifiant",
    "número de tarjeta",
    "contraseña",
    "clave",
    "código de seguridad",
    "número de cuenta",
];

/// A contact, or a request for personal data, in `answer` and not in
/// `reviewed`: how a rephrase could phish.
pub(super) fn nothing_added(reviewed: &str, answer: &str) -> Result<(), FactRefusal> {
    let reviewed_contacts: HashSet<String> = contacts::find(reviewed)
        .into_iter()
        .map(|(span, _)| reviewed[span].to_lowercase())
        .collect();
    for (span, _) in contacts::find(answer) {
        let contact = answer[span].to_lowercase();
        if !reviewed_contacts.contains(&contact) {
            return Err(FactRefusal::Added(Shown {
                text: Some(contact),
                entry: None,
            }));
        }
    }
    let said_lower = answer.to_lowercase();
    let said = words_of(&said_lower);
    let may_ask = DATA_REQUESTS.iter().any(|request| {
        let first = request.split(' ').next().unwrap_or_default();
        said.contains(&first)
    });
    if !may_ask {
        return Ok(());
    }
    let kept_lower = reviewed.to_lowercase();
    let kept = words_of(&kept_lower);
    for request in DATA_REQUESTS.iter().filter(|request| {
        let first = request.split(' ').next().unwrap_or_default();
        said.contains(&first)
    }) {
        // Asked more often than the reviewed text mentions it (`never
        // share your PIN` then `reply with your PIN`).
        if phrase_count(&said, request) > phrase_count(&kept, request) {
            return Err(FactRefusal::Added(Shown {
                text: Some((*request).to_owned()),
                entry: None,
            }));
        }
    }
    Ok(())
}

fn words_of(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect()
}

fn phrase_count(words: &[&str], phrase: &str) -> usize {
    let mut parts = phrase.split(' ');
    let first = parts.next().unwrap_or_default();
    (0..words.len())
        .filter(|&at| {
            words[at] == first
                && parts
                    .clone()
                    .enumerate()
                    .all(|(i, part)| words.get(at + 1 + i) == Some(&part))
        })
        .count()
}

/// Where a character could be read as another: a script with letters
/// like Latin ones, fullwidth forms, mathematical letters and digits.
fn disguise_class(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{0370}'..='\u{03FF}' => "Greek",
        '\u{0400}'..='\u{052F}' => "Cyrillic",
        '\u{0530}'..='\u{058F}' => "Armenian",
        '\u{13A0}'..='\u{13FF}' => "Cherokee",
        '\u{FF01}'..='\u{FF5E}' => "fullwidth",
        '\u{1D400}'..='\u{1D7FF}' => "mathematical",
        _ if !c.is_ascii() && digit_value(c).is_some() => "non-ASCII digit",
        _ => return None,
    })
}

/// No character the reader cannot see (a bidirectional control, a
/// zero-width or tag character), and no letter or digit of a kind the
/// reviewed text does not use where it could pass for another.
pub(super) fn nothing_disguised(reviewed: &str, answer: &str) -> Result<(), FactRefusal> {
    // Printable ASCII hides and disguises nothing.
    if answer
        .bytes()
        .all(|b| (b' '..=b'~').contains(&b) || matches!(b, b'\n' | b'\t' | b'\r'))
    {
        return Ok(());
    }
    let reviewed_classes: HashSet<&str> = reviewed.chars().filter_map(disguise_class).collect();
    for c in answer.chars() {
        let hidden = is_unsafe(c) && !matches!(c, '\n' | '\t' | '\r');
        let disguised = disguise_class(c).is_some_and(|class| !reviewed_classes.contains(class));
        if (hidden && !reviewed.contains(c)) || disguised {
            return Err(FactRefusal::Disguised(c));
        }
    }
    Ok(())
}

/// Words that carry no content of their own.
const STOP_WORDS: &[&str] = &[
    "the", "and", "you", "your", "our", "for", "with", "this", "that", "are", "can", "will",
    "have", "has", "please", "may", "was", "were", "been", "from", "any", "all", "there", "their",
    "they", "here", "what", "when", "which", "also", "just", "now", "then", "than", "into",
    "about", "would", "could", "should", "okay", "sure", "thanks", "thank",
];

/// Content words (stems: their first four letters) of a lowercase text,
/// sorted, each once.
fn content(lower: &str) -> Vec<&str> {
    let mut stems: Vec<&str> = lower
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 4 && !STOP_WORDS.contains(w))
        .map(|w| &w[..w.char_indices().nth(4).map_or(w.len(), |(at, _)| at)])
        .collect();
    stems.sort_unstable();
    stems.dedup();
    stems
}

/// The fewest content words of the reviewed text a rephrase keeps, in
/// fifths: one in five (an LLM rewords freely; `Okay.` keeps none).
const KEPT_FIFTHS: usize = 1;

/// The reviewed text's content words (stems of four letters) the answer
/// keeps: at least one in five when the reviewed text has three or more.
pub(super) fn content_kept(reviewed: &str, answer: &str) -> Result<(), FactRefusal> {
    let kept_lower = reviewed.to_lowercase();
    let kept = content(&kept_lower);
    if kept.len() < 3 {
        return Ok(());
    }
    let said_lower = answer.to_lowercase();
    let said = content(&said_lower);
    let shared = kept
        .iter()
        .filter(|stem| said.binary_search(stem).is_ok())
        .count();
    if shared * 5 < kept.len() * KEPT_FIFTHS {
        return Err(FactRefusal::TooLittleKept {
            kept: shared,
            of: kept.len(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contacts_and_requests_for_data_may_not_be_added() {
        let reviewed = "Your card ships in 3 days. Questions? help@bank.example.com";
        assert!(
            nothing_added(
                reviewed,
                "Your card arrives in 3 days. Ask help@bank.example.com."
            )
            .is_ok()
        );
        assert!(
            nothing_added(
                reviewed,
                "Your card arrives in 3 days. Ask help@evil.example.com."
            )
            .is_err()
        );
        assert!(
            nothing_added(
                reviewed,
                "Your card arrives in 3 days. Reply with your card number."
            )
            .is_err()
        );
        assert!(
            nothing_added(
                reviewed,
                "Your card arrives in 3 days, see bank-help.com/verify"
            )
            .is_err()
        );
        assert!(nothing_added("Enter your PIN.", "Please enter your PIN.").is_ok());
    }

    #[test]
    fn hidden_and_disguised_characters_are_refused() {
        let reviewed = "A fee of $30 applies.";
        assert!(nothing_disguised(reviewed, "A $30 fee applies.").is_ok());
        assert!(nothing_disguised(reviewed, "A $30 fee \u{202E}applies.").is_err());
        assert!(nothing_disguised(reviewed, "A $30 fee\u{200B} applies.").is_err());
        assert!(nothing_disguised(reviewed, "A $3\u{0660} fee applies.").is_err());
        assert!(nothing_disguised(reviewed, "A $30 fee аpplies.").is_err());
        assert!(nothing_disguised("Привет, $30.", "Привет, $30!").is_ok());
    }

    #[test]
    fn an_answer_keeping_too_little_is_refused() {
        let reviewed = "Your replacement card ships within three business days.";
        assert!(content_kept(reviewed, "Okay.").is_err());
        assert!(
            content_kept(
                reviewed,
                "We'll send the new card out within three working days."
            )
            .is_ok()
        );
    }
}
