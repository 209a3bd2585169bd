//! The words read in each language utter reads besides the English
//! lexicon: the words that scope a figure, the unit words a qualifier may
//! stand before, negations and the stock phrases that negate no fact.
//! The tagged protocol and the free-text guard read the same tables.

use std::collections::HashSet;
use std::sync::OnceLock;

/// The languages utter reads negations and scope words in, and speaks
/// facts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Spoken {
    English,
    German,
    French,
    Spanish,
}

/// What a scope word says of the figure it governs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    UpTo,
    AtLeast,
    AtMost,
    MoreThan,
    LessThan,
    Within,
    After,
    Before,
    By,
    From,
    Until,
    Since,
    About,
    Exactly,
    Only,
    PerPerson,
    Each,
    InTotal,
    OrMore,
    OrLess,
}

/// A scope phrase before its figure, or after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Before,
    After,
}

/// Each scope's phrases in a language; the first is the one utter writes.
type Phrases = &'static [(Scope, Side, &'static [&'static str])];

const ENGLISH_SCOPES: Phrases = &[
    (
        Scope::UpTo,
        Side::Before,
        &["up to", "a maximum of", "maximum", "max."],
    ),
    (
        Scope::AtLeast,
        Side::Before,
        &[
            "at least",
            "a minimum of",
            "minimum",
            "no less than",
            "not less than",
            "no fewer than",
        ],
    ),
    (
        Scope::AtMost,
        Side::Before,
        &["at most", "no more than", "not more than", "not exceeding"],
    ),
    (
        Scope::MoreThan,
        Side::Before,
        &["more than", "over", "above", "greater than", "exceeding"],
    ),
    (
        Scope::LessThan,
        Side::Before,
        &["less than", "under", "below", "fewer than"],
    ),
    (Scope::Within, Side::Before, &["within", "in under"]),
    (Scope::After, Side::Before, &["after"]),
    (
        Scope::Before,
        Side::Before,
        &["before", "prior to", "ahead of"],
    ),
    (Scope::By, Side::Before, &["by", "no later than"]),
    (
        Scope::From,
        Side::Before,
        &["from", "starting", "as of", "beginning"],
    ),
    (
        Scope::Until,
        Side::Before,
        &["until", "till", "through", "up until"],
    ),
    (Scope::Since, Side::Before, &["since"]),
    (
        Scope::About,
        Side::Before,
        &[
            "about",
            "around",
            "approximately",
            "roughly",
            "nearly",
            "almost",
        ],
    ),
    (Scope::Exactly, Side::Before, &["exactly"]),
    (Scope::Only, Side::Before, &["only", "just"]),
    (
        Scope::PerPerson,
        Side::After,
        &["per person", "a person", "per head", "per guest"],
    ),
    (Scope::Each, Side::After, &["each", "apiece", "per item"]),
    (
        Scope::InTotal,
        Side::After,
        &["in total", "total", "altogether", "overall"],
    ),
    (
        Scope::OrMore,
        Side::After,
        &[
            "or more",
            "or above",
            "or over",
            "or later",
            "or older",
            "and older",
            "and over",
            "and up",
        ],
    ),
    (
        Scope::OrLess,
        Side::After,
        &["or less", "or fewer", "or below", "or under", "or earlier"],
    ),
    (
        Scope::AtMost,
        Side::After,
        &["at most", "max", "maximum", "at the latest"],
    ),
    (
        Scope::AtLeast,
        Side::After,
        &["at least", "minimum", "at the earliest"],
    ),
    (
        Scope::Before,
        Side::After,
        &["before", "prior to", "earlier"],
    ),
    (Scope::After, Side::After, &["after", "later"]),
];

const GERMAN_SCOPES: Phrases = &[
    (Scope::UpTo, Side::Before, &["bis zu", "maximal"]),
    (Scope::AtLeast, Side::Before, &["mindestens", "wenigstens"]),
    (
        Scope::AtMost,
        Side::Before,
        &["höchstens", "nicht mehr als"],
    ),
    (Scope::MoreThan, Side::Before, &["mehr als", "über"]),
    (Scope::LessThan, Side::Before, &["weniger als", "unter"]),
    (
        Scope::Within,
        Side::Before,
        &["innerhalb von", "innerhalb", "binnen"],
    ),
    (Scope::After, Side::Before, &["nach"]),
    (Scope::Before, Side::Before, &["vor"]),
    (Scope::By, Side::Before, &["bis spätestens", "spätestens"]),
    (Scope::From, Side::Before, &["ab"]),
    (Scope::Until, Side::Before, &["bis zum", "bis"]),
    (Scope::Since, Side::Before, &["seit"]),
    (
        Scope::About,
        Side::Before,
        &["etwa", "ungefähr", "circa", "ca."],
    ),
    (Scope::Exactly, Side::Before, &["genau"]),
    (Scope::Only, Side::Before, &["nur"]),
    (Scope::PerPerson, Side::After, &["pro Person", "je Person"]),
    (Scope::Each, Side::After, &["pro Stück", "je"]),
    (Scope::InTotal, Side::After, &["insgesamt"]),
    (Scope::OrMore, Side::After, &["oder mehr"]),
    (Scope::OrLess, Side::After, &["oder weniger"]),
    (Scope::Before, Side::After, &["vor", "vorher", "früher"]),
    (Scope::After, Side::After, &["nach", "danach", "später"]),
];

const FRENCH_SCOPES: Phrases = &[
    (Scope::UpTo, Side::Before, &["jusqu'à", "au maximum"]),
    (
        Scope::AtLeast,
        Side::Before,
        &["au moins", "au minimum", "minimum"],
    ),
    (Scope::AtMost, Side::Before, &["au plus", "pas plus de"]),
    (Scope::MoreThan, Side::Before, &["plus de", "au-delà de"]),
    (Scope::LessThan, Side::Before, &["moins de"]),
    (
        Scope::Within,
        Side::Before,
        &["dans un délai de", "sous", "d'ici"],
    ),
    (Scope::After, Side::Before, &["après"]),
    (Scope::Before, Side::Before, &["avant"]),
    (
        Scope::By,
        Side::Before,
        &["au plus tard le", "au plus tard"],
    ),
    (
        Scope::From,
        Side::Before,
        &["à partir de", "à partir du", "dès"],
    ),
    (Scope::Until, Side::Before, &["jusqu'au", "jusqu'à"]),
    (Scope::Since, Side::Before, &["depuis"]),
    (Scope::About, Side::Before, &["environ", "près de"]),
    (Scope::Exactly, Side::Before, &["exactement"]),
    (Scope::Only, Side::Before, &["seulement", "uniquement"]),
    (Scope::PerPerson, Side::After, &["par personne"]),
    (Scope::Each, Side::After, &["chacun", "chacune", "l'unité"]),
    (Scope::InTotal, Side::After, &["au total", "en tout"]),
    (Scope::OrMore, Side::After, &["ou plus"]),
    (Scope::OrLess, Side::After, &["ou moins"]),
    (Scope::Before, Side::After, &["avant", "plus tôt"]),
    (Scope::After, Side::After, &["après", "plus tard"]),
];

const SPANISH_SCOPES: Phrases = &[
    (Scope::UpTo, Side::Before, &["hasta", "un máximo de"]),
    (
        Scope::AtLeast,
        Side::Before,
        &["al menos", "como mínimo", "un mínimo de"],
    ),
    (Scope::AtMost, Side::Before, &["como máximo", "no más de"]),
    (Scope::MoreThan, Side::Before, &["más de"]),
    (Scope::LessThan, Side::Before, &["menos de"]),
    (
        Scope::Within,
        Side::Before,
        &["en un plazo de", "dentro de"],
    ),
    (Scope::After, Side::Before, &["después de", "tras"]),
    (Scope::Before, Side::Before, &["antes de", "antes del"]),
    (
        Scope::By,
        Side::Before,
        &["a más tardar el", "a más tardar"],
    ),
    (
        Scope::From,
        Side::Before,
        &["a partir de", "a partir del", "desde"],
    ),
    (Scope::Until, Side::Before, &["hasta el"]),
    (Scope::Since, Side::Before, &["desde el"]),
    (
        Scope::About,
        Side::Before,
        &["unos", "unas", "aproximadamente", "alrededor de"],
    ),
    (Scope::Exactly, Side::Before, &["exactamente"]),
    (Scope::Only, Side::Before, &["solo", "sólo", "solamente"]),
    (Scope::PerPerson, Side::After, &["por persona"]),
    (Scope::Each, Side::After, &["cada uno", "cada una"]),
    (Scope::InTotal, Side::After, &["en total"]),
    (Scope::OrMore, Side::After, &["o más"]),
    (Scope::OrLess, Side::After, &["o menos"]),
    (Scope::Before, Side::After, &["antes", "antes de"]),
    (
        Scope::After,
        Side::After,
        &["después", "después de", "más tarde"],
    ),
];

fn scopes(language: Spoken) -> Phrases {
    match language {
        Spoken::English => ENGLISH_SCOPES,
        Spoken::German => GERMAN_SCOPES,
        Spoken::French => FRENCH_SCOPES,
        Spoken::Spanish => SPANISH_SCOPES,
    }
}

/// The scope phrase of `language` that ends at byte `end` of `text`
/// (before a figure): its start and scope. The longest phrase wins.
pub(crate) fn scope_before(text: &str, end: usize, language: Spoken) -> Option<(usize, Scope)> {
    if !may_scope_before(text, end) {
        return None;
    }
    let before = text[..end].trim_end();
    scopes(language)
        .iter()
        .filter(|(_, side, _)| *side == Side::Before)
        .flat_map(|(scope, _, phrases)| phrases.iter().map(move |p| (*scope, *p)))
        .filter_map(|(scope, phrase)| {
            let start = before.len().checked_sub(phrase.len())?;
            let candidate = before.get(start..)?;
            let whole_word = before[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '\'');
            (candidate.eq_ignore_ascii_case(phrase) && whole_word).then_some((start, scope))
        })
        .min_by_key(|(start, _)| *start)
}

/// The scope phrase of `language` that starts after byte `start` of
/// `text` (after a figure): its end and scope. The longest phrase wins.
pub(crate) fn scope_after(text: &str, start: usize, language: Spoken) -> Option<(usize, Scope)> {
    let rest = &text[start..];
    let skipped = rest.len() - rest.trim_start().len();
    let after = rest.trim_start();
    if !may_scope_after(text, start) {
        return None;
    }
    scopes(language)
        .iter()
        .filter(|(_, side, _)| *side == Side::After)
        .flat_map(|(scope, _, phrases)| phrases.iter().map(move |p| (*scope, *p)))
        .filter_map(|(scope, phrase)| {
            let candidate = after.get(..phrase.len())?;
            let rest = &after[phrase.len()..];
            let whole_word = rest.chars().next().is_none_or(|c| !c.is_alphanumeric());
            // A phrase right before another figure scopes that one
            // (`before $1 after $500`).
            let next_figure = rest
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || "$€£¥+-−".contains(c));
            (candidate.eq_ignore_ascii_case(phrase) && whole_word && !next_figure)
                .then_some((start + skipped + phrase.len(), scope))
        })
        .max_by_key(|(end, _)| *end)
}

/// Whether the word before byte `end` may end a scope phrase of any
/// language (the quick test before the phrases are read).
pub(crate) fn may_scope_before(text: &str, end: usize) -> bool {
    let before = text[..end].trim_end();
    let last = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default();
    is_edge_word(
        last.trim_start_matches(|c: char| !c.is_alphanumeric()),
        Side::Before,
    )
}

/// Whether the word after byte `start` may start a scope phrase of any
/// language.
pub(crate) fn may_scope_after(text: &str, start: usize) -> bool {
    let after = text[start..].trim_start();
    let first = after.split(char::is_whitespace).next().unwrap_or_default();
    is_edge_word(
        first.trim_end_matches(|c: char| !c.is_alphanumeric()),
        Side::After,
    )
}

/// Whether `word` may be the word of a scope phrase next to its figure
/// (the last of a phrase before it, the first of one after it) in any
/// language: the quick test that keeps reading a figure's scope cheap.
fn is_edge_word(word: &str, side: Side) -> bool {
    static EDGES: OnceLock<[HashSet<String>; 2]> = OnceLock::new();
    let edges = EDGES.get_or_init(|| {
        let mut edges = [HashSet::new(), HashSet::new()];
        for language in [
            Spoken::English,
            Spoken::German,
            Spoken::French,
            Spoken::Spanish,
        ] {
            for (_, side, phrases) in scopes(language) {
                for phrase in *phrases {
                    let (word, set) = match side {
                        Side::Before => (phrase.rsplit(' ').next(), 0),
                        Side::After => (phrase.split(' ').next(), 1),
                    };
                    edges[set].extend(word.map(str::to_lowercase));
                }
            }
        }
        edges
    });
    let set = &edges[usize::from(side == Side::After)];
    !word.is_empty() && set.contains(&word.to_lowercase())
}

/// How `language` writes `scope` on `side` of its figure.
pub(crate) fn scope_phrase(scope: Scope, side: Side, language: Spoken) -> Option<&'static str> {
    scopes(language)
        .iter()
        .find(|(s, sd, _)| *s == scope && *sd == side)
        .map(|(_, _, phrases)| phrases[0])
}

/// Words for a span of time or a count that a qualifier may stand before
/// (`5 business days`, `30 Werktage`): a number's fact runs to them.
const UNIT_WORDS: &[&str] = &[
    "second",
    "seconds",
    "minute",
    "minutes",
    "hour",
    "hours",
    "day",
    "days",
    "week",
    "weeks",
    "month",
    "months",
    "year",
    "years",
    "night",
    "nights",
    "item",
    "items",
    "time",
    "times",
    "sekunde",
    "sekunden",
    "minute",
    "minuten",
    "stunde",
    "stunden",
    "tag",
    "tage",
    "tagen",
    "werktag",
    "werktage",
    "werktagen",
    "woche",
    "wochen",
    "monat",
    "monate",
    "monaten",
    "jahr",
    "jahre",
    "jahren",
    "nacht",
    "nächte",
    "seconde",
    "secondes",
    "heure",
    "heures",
    "jour",
    "jours",
    "semaine",
    "semaines",
    "mois",
    "an",
    "ans",
    "année",
    "années",
    "nuit",
    "nuits",
    "segundo",
    "segundos",
    "minuto",
    "minutos",
    "hora",
    "horas",
    "día",
    "días",
    "semana",
    "semanas",
    "mes",
    "meses",
    "año",
    "años",
    "noche",
    "noches",
];

/// Whether `word` is a unit word of [`UNIT_WORDS`] (any case).
pub(crate) fn is_unit_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    UNIT_WORDS.contains(&lower.as_str())
}

/// Negations by language, lowercase words (English's `n't` is a suffix).
fn negations(language: Spoken) -> &'static [&'static str] {
    match language {
        Spoken::English => &[
            "no", "not", "never", "none", "nothing", "nobody", "neither", "nor", "without",
            "cannot", "unable", "nowhere",
        ],
        Spoken::German => &[
            "nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines", "nie", "niemals",
            "nichts", "ohne", "weder", "niemand",
        ],
        Spoken::French => &[
            "ne", "n'", "pas", "jamais", "aucun", "aucune", "sans", "rien", "personne", "ni",
        ],
        Spoken::Spanish => &[
            "no", "nunca", "jamás", "sin", "ningún", "ninguna", "ninguno", "nada", "nadie", "ni",
            "tampoco",
        ],
    }
}

/// Stock phrases whose negation negates no fact (`no problem`).
fn stock_phrases(language: Spoken) -> &'static [&'static str] {
    match language {
        Spoken::English => &[
            "no problem",
            "no worries",
            "don't worry",
            "do not worry",
            "don't hesitate",
            "do not hesitate",
            "never mind",
            "no doubt",
            "feel free",
            // Scope words, whose negation bounds a figure (read as its
            // scope) rather than negating a fact.
            "no more than",
            "not more than",
            "no less than",
            "not less than",
            "no fewer than",
            "no later than",
            "not exceeding",
            "not a problem",
        ],
        Spoken::German => &[
            "kein problem",
            "keine sorge",
            "keine ursache",
            "nichts zu danken",
        ],
        Spoken::French => &[
            "pas de problème",
            "pas de souci",
            "pas de soucis",
            "de rien",
            "n'hésitez pas",
        ],
        Spoken::Spanish => &[
            "no hay problema",
            "no se preocupe",
            "no dude",
            "de nada",
            "sin problema",
        ],
    }
}

/// How many negations the stock phrases in `text` hold (`no problem`
/// holds one): what the reader's count leaves out.
pub(crate) fn stock_negations(text: &str, language: Spoken) -> usize {
    let lower = lowercase(text);
    let words = words(&lower);
    stock_spans(&words, language).len()
}

/// `text` in lowercase, `’` as `'`.
fn lowercase(text: &str) -> String {
    text.to_lowercase().replace('’', "'")
}

/// The words of a lowercase text (letters, digits, apostrophes).
fn words(lower: &str) -> Vec<&str> {
    lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect()
}

/// Where each stock phrase stands among `words` (word indexes), found in
/// one pass: a phrase is looked for only where its first word is.
fn stock_spans(words: &[&str], language: Spoken) -> Vec<std::ops::Range<usize>> {
    let phrases = stock_phrase_words(language);
    let mut spans = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let found = phrases.iter().find_map(|parts| {
            let end = at + parts.len();
            (words.get(at..end) == Some(parts.as_slice())).then_some(at..end)
        });
        match found {
            Some(span) => {
                at = span.end;
                spans.push(span);
            }
            None => at += 1,
        }
    }
    spans
}

/// Each stock phrase of `language` as its words, split once.
fn stock_phrase_words(language: Spoken) -> &'static [Vec<&'static str>] {
    static SPLIT: OnceLock<[Vec<Vec<&'static str>>; 4]> = OnceLock::new();
    let split = SPLIT.get_or_init(|| {
        [
            Spoken::English,
            Spoken::German,
            Spoken::French,
            Spoken::Spanish,
        ]
        .map(|language| {
            stock_phrases(language)
                .iter()
                .map(|phrase| words(phrase))
                .collect()
        })
    });
    &split[language as usize]
}

/// The negations of `text` in `language`, stock phrases left out. French
/// `ne ... pas` counts once: `ne` and `n'` are the negation, `pas` the
/// rest of it, counted alone only without them.
pub(crate) fn negation_count(text: &str, language: Spoken) -> usize {
    let lower = lowercase(text);
    let all = words(&lower);
    let stock = stock_spans(&all, language);
    let negations = negations(language);
    let mut count = 0;
    let mut french_ne = 0;
    let mut french_rest = 0;
    for (at, word) in all.iter().enumerate() {
        if stock.iter().any(|span| span.contains(&at)) {
            continue;
        }
        if language == Spoken::French {
            if *word == "ne" || word.starts_with("n'") {
                french_ne += 1;
            } else if negations.contains(word) {
                french_rest += 1;
            }
            continue;
        }
        if negations.contains(word)
            || (language == Spoken::English && (word.ends_with("n't") || word.ends_with("nt'")))
        {
            count += 1;
        }
    }
    if language == Spoken::French {
        // `sans`, `aucun` and the like stand alone; `ne ... pas` is one.
        return french_ne.max(french_rest);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_phrases_are_found_next_to_their_figure() {
        let text = "Refunds within 30 days, up to $50 per person.";
        let at = text.find("30").unwrap();
        assert_eq!(
            scope_before(text, at, Spoken::English),
            Some((8, Scope::Within))
        );
        let at = text.find("$50").unwrap();
        assert_eq!(
            scope_before(text, at, Spoken::English),
            Some((at - "up to ".len(), Scope::UpTo))
        );
        let end = at + 3;
        assert_eq!(
            scope_after(text, end, Spoken::English),
            Some((end + " per person".len(), Scope::PerPerson))
        );
        // A word that merely ends like a phrase is no scope.
        let text = "Sunder 30";
        assert_eq!(scope_before(text, 7, Spoken::English), None);
        let text = "innerhalb von 30 Tagen";
        assert_eq!(
            scope_before(text, 14, Spoken::German),
            Some((0, Scope::Within))
        );
        assert_eq!(
            scope_phrase(Scope::Within, Side::Before, Spoken::French),
            Some("dans un délai de")
        );
    }

    #[test]
    fn negations_are_counted_without_stock_phrases() {
        assert_eq!(
            negation_count("No problem! You can cancel.", Spoken::English),
            0
        );
        assert_eq!(negation_count("You cannot cancel.", Spoken::English), 1);
        assert_eq!(
            negation_count("You can't cancel, don't worry.", Spoken::English),
            1
        );
        assert_eq!(
            negation_count("Es fällt keine Gebühr an.", Spoken::German),
            1
        );
        assert_eq!(
            negation_count("Vous ne pouvez pas annuler.", Spoken::French),
            1
        );
        assert_eq!(
            negation_count("Vous pouvez annuler sans frais.", Spoken::French),
            1
        );
        assert_eq!(
            negation_count("No se preocupe, no hay cargo.", Spoken::Spanish),
            1
        );
        assert!(is_unit_word("Tagen") && is_unit_word("days") && !is_unit_word("business"));
    }
}
