//! Polarity per clause: a negation that moved to another clause turns two
//! facts though the count is the same (`You cannot cancel, but you can
//! change` → `You can cancel, but you cannot change`); and a word made its
//! own opposite by a prefix (`covered` → `uncovered`).

use std::collections::HashSet;

use super::FactRefusal;
use super::languages::{Spoken, negation_count};

/// Words that tie a clause to no fact of its own.
const FUNCTION_WORDS: &[&str] = &[
    "the",
    "and",
    "you",
    "your",
    "our",
    "for",
    "with",
    "this",
    "that",
    "are",
    "can",
    "will",
    "have",
    "has",
    "not",
    "but",
    "please",
    "may",
    "its",
    "was",
    "were",
    "been",
    "from",
    "any",
    "all",
    "there",
    "their",
    "they",
    "them",
    "here",
    "what",
    "when",
    "which",
    "also",
    "just",
    "now",
    "then",
    "than",
    "into",
    "onto",
    "about",
    "would",
    "could",
    "should",
    "cannot",
    "don't",
    "can't",
    "won't",
    "isn't",
    "aren't",
    "doesn't",
    "didn't",
    "unfortunately",
    "sorry",
];

/// A clause: its negations and the stems of its content words.
struct Clause {
    negations: usize,
    stems: HashSet<String>,
}

fn clauses(text: &str) -> Vec<Clause> {
    let lower = text.to_lowercase().replace('’', "'");
    let mut parts = vec![lower.as_str()];
    for separator in [
        ". ",
        "! ",
        "? ",
        "; ",
        ", and ",
        " but ",
        ", but ",
        " however ",
        " although ",
        " whereas ",
    ] {
        parts = parts.iter().flat_map(|p| p.split(separator)).collect();
    }
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(|part| Clause {
            negations: negation_count(part, Spoken::English),
            stems: part
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .filter(|w| w.chars().count() >= 3 && !FUNCTION_WORDS.contains(w))
                .map(stem)
                .collect(),
        })
        .collect()
}

fn stem(word: &str) -> String {
    word.chars().take(5).collect()
}

/// Each negation of the answer stands in a clause about what the reviewed
/// text negates: answer clauses are matched to the reviewed clause they
/// share most content words with (only a clear match counts), and every
/// matched reviewed clause keeps its polarity.
pub(super) fn clauses_kept(reviewed: &str, answer: &str) -> Result<(), FactRefusal> {
    let kept = clauses(reviewed);
    if kept.len() < 2 {
        return Ok(());
    }
    let said = clauses(answer);
    let mut totals = vec![(0usize, false); kept.len()];
    for clause in &said {
        let mut scores: Vec<(usize, usize)> = kept
            .iter()
            .enumerate()
            .map(|(i, k)| (k.stems.intersection(&clause.stems).count(), i))
            .collect();
        scores.sort_unstable_by(|a, b| b.cmp(a));
        let clear = scores[0].0 > 0 && scores.get(1).is_none_or(|s| s.0 * 2 < scores[0].0);
        if !clear {
            // An answer clause that merges two reviewed ones: its polarity
            // is counted by the whole-text rule only.
            return Ok(());
        }
        let total = &mut totals[scores[0].1];
        total.0 += clause.negations;
        total.1 = true;
    }
    for (clause, (negations, matched)) in kept.iter().zip(totals) {
        if matched && clause.negations % 2 != negations % 2 {
            return Err(FactRefusal::Negation {
                reviewed: clause.negations,
                answer: negations,
            });
        }
    }
    Ok(())
}

/// Prefixes that make a word its own opposite.
const NEGATING_PREFIXES: &[&str] = &["un", "non-", "non", "in", "im", "ir", "il", "dis"];

/// A word of one text that is a word of the other with a negating prefix
/// (`uncovered` for `covered`), when the other text lacks it.
pub(super) fn prefixes_kept(reviewed: &str, answer: &str) -> Result<(), FactRefusal> {
    let words = |text: &str| -> HashSet<String> {
        text.to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .filter(|w| w.len() >= 4)
            .map(str::to_owned)
            .collect()
    };
    let prefixed = |text: &str| {
        text.split(|c: char| !c.is_alphanumeric() && c != '-')
            .any(|w| {
                NEGATING_PREFIXES
                    .iter()
                    .any(|p| starts_with_ignoring_case(w, p))
            })
    };
    // Most texts have no word with such a prefix: nothing to pair.
    if !prefixed(reviewed) && !prefixed(answer) {
        return Ok(());
    }
    let (kept, said) = (words(reviewed), words(answer));
    for (from, to, reviewed_side) in [(&kept, &said, true), (&said, &kept, false)] {
        for word in to.difference(from) {
            for prefix in NEGATING_PREFIXES {
                let Some(plain) = word.strip_prefix(prefix) else {
                    continue;
                };
                if plain.len() >= 4 && from.contains(plain) && !to.contains(plain) {
                    let (r, a) = if reviewed_side {
                        (plain.to_owned(), word.clone())
                    } else {
                        (word.clone(), plain.to_owned())
                    };
                    return Err(FactRefusal::OppositeWord {
                        reviewed: r,
                        answer: a,
                    });
                }
            }
        }
    }
    Ok(())
}

fn starts_with_ignoring_case(word: &str, prefix: &str) -> bool {
    word.len() >= prefix.len() + 4
        && word.is_char_boundary(prefix.len())
        && word[..prefix.len()].eq_ignore_ascii_case(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negation_moved_to_another_clause_is_refused() {
        let reviewed = "You cannot cancel the booking, but you can change the date.";
        assert!(
            clauses_kept(
                reviewed,
                "You can cancel the booking, but you cannot change the date."
            )
            .is_err()
        );
        assert!(
            clauses_kept(
                reviewed,
                "Changing the date is possible; cancelling the booking is not."
            )
            .is_ok()
        );
        assert!(
            clauses_kept(
                reviewed,
                "The booking can't be cancelled. The date can be changed."
            )
            .is_ok()
        );
    }

    #[test]
    fn a_prefix_that_turns_a_word_is_refused() {
        assert!(prefixes_kept("Water damage is covered.", "Water damage is uncovered.").is_err());
        assert!(
            prefixes_kept(
                "This ticket is refundable.",
                "This ticket is nonrefundable."
            )
            .is_err()
        );
        assert!(prefixes_kept("The item is unavailable.", "The item is available.").is_err());
        assert!(prefixes_kept("We have the information.", "The information is here.").is_ok());
    }
}
