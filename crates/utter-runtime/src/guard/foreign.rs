//! Answers in German, French or Spanish read by the English reader: the
//! answer's language is told by its function words, then its number words
//! become digits (`text2num`), its decimal commas points, its unit and
//! currency words and its negations the English ones, its stock phrases
//! dropped. So `drei Tage` is `3 days` and a German answer that adds
//! `keine` adds a negation, compared by value with an English reviewed text.

use super::languages::Spoken;

/// Function words that tell a language (lowercase).
const MARKERS: [(Spoken, &[&str]); 4] = [
    (
        Spoken::English,
        &[
            "the", "and", "you", "your", "is", "are", "of", "to", "for", "will", "with", "a",
        ],
    ),
    (
        Spoken::German,
        &[
            "der",
            "die",
            "das",
            "und",
            "sie",
            "ihr",
            "ihre",
            "ihren",
            "ist",
            "sind",
            "für",
            "mit",
            "eine",
            "ein",
            "einer",
            "wird",
            "werden",
            "den",
            "dem",
            "zu",
            "von",
            "es",
            "nicht",
            "kann",
            "können",
            "wir",
            "auf",
            "bei",
            "nach",
            "innerhalb",
            "kommt",
        ],
    ),
    (
        Spoken::French,
        &[
            "le", "la", "les", "et", "vous", "votre", "vos", "est", "sont", "pour", "avec", "une",
            "un", "des", "du", "sera", "dans", "nous", "ne", "pas", "aucun", "aucune", "sur", "au",
            "aux", "après", "avant",
        ],
    ),
    (
        Spoken::Spanish,
        &[
            "el", "los", "las", "y", "usted", "su", "sus", "es", "son", "para", "con", "una",
            "del", "será", "puede", "llega", "llegará", "está", "no", "dentro", "después", "antes",
            "nuestro", "tarjeta", "cuesta",
        ],
    ),
];

/// The language `text` is written in, by its function words: English
/// unless another language has clearly more.
pub(super) fn language_of(text: &str) -> Spoken {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // One pass: each word counts for every language it marks.
    let mut scores = [0usize; 4];
    for word in &words {
        for (score, (_, markers)) in scores.iter_mut().zip(&MARKERS) {
            *score += usize::from(markers.contains(word));
        }
    }
    let english = scores[0];
    MARKERS[1..]
        .iter()
        .zip(&scores[1..])
        .map(|((language, _), n)| (*n, *language))
        .filter(|(n, _)| *n >= 1 && *n > english)
        .max_by_key(|(n, _)| *n)
        .map_or(Spoken::English, |(_, language)| language)
}

/// Words of each language as the English reader reads them.
const GERMAN_WORDS: &[(&str, &str)] = &[
    ("tag", "day"),
    ("tage", "days"),
    ("tagen", "days"),
    ("werktage", "business days"),
    ("werktagen", "business days"),
    ("stunde", "hour"),
    ("stunden", "hours"),
    ("minute", "minute"),
    ("minuten", "minutes"),
    ("woche", "week"),
    ("wochen", "weeks"),
    ("monat", "month"),
    ("monate", "months"),
    ("monaten", "months"),
    ("jahr", "year"),
    ("jahre", "years"),
    ("jahren", "years"),
    ("nacht", "night"),
    ("nächte", "nights"),
    ("prozent", "percent"),
    ("pfund", "pounds"),
    ("uhr", ""),
    ("januar", "january"),
    ("februar", "february"),
    ("märz", "march"),
    ("mai", "may"),
    ("juni", "june"),
    ("juli", "july"),
    ("oktober", "october"),
    ("dezember", "december"),
];

const FRENCH_WORDS: &[(&str, &str)] = &[
    ("jour", "day"),
    ("jours", "days"),
    ("heure", "hour"),
    ("heures", "hours"),
    ("semaine", "week"),
    ("semaines", "weeks"),
    ("mois", "months"),
    ("an", "year"),
    ("ans", "years"),
    ("année", "year"),
    ("années", "years"),
    ("nuit", "night"),
    ("nuits", "nights"),
    ("livres", "pounds"),
    ("livre", "pound"),
    ("janvier", "january"),
    ("février", "february"),
    ("mars", "march"),
    ("avril", "april"),
    ("juin", "june"),
    ("juillet", "july"),
    ("août", "august"),
    ("septembre", "september"),
    ("octobre", "october"),
    ("novembre", "november"),
    ("décembre", "december"),
];

const SPANISH_WORDS: &[(&str, &str)] = &[
    ("día", "day"),
    ("días", "days"),
    ("hora", "hour"),
    ("horas", "hours"),
    ("minuto", "minute"),
    ("minutos", "minutes"),
    ("semana", "week"),
    ("semanas", "weeks"),
    ("mes", "month"),
    ("meses", "months"),
    ("año", "year"),
    ("años", "years"),
    ("noche", "night"),
    ("noches", "nights"),
    ("dólar", "dollar"),
    ("dólares", "dollars"),
    ("libra", "pound"),
    ("libras", "pounds"),
    ("enero", "january"),
    ("febrero", "february"),
    ("marzo", "march"),
    ("abril", "april"),
    ("mayo", "may"),
    ("junio", "june"),
    ("julio", "july"),
    ("agosto", "august"),
    ("septiembre", "september"),
    ("octubre", "october"),
    ("noviembre", "november"),
    ("diciembre", "december"),
];

/// Negations, one English `not` each; French `pas` follows its `ne`.
fn is_negation(word: &str, language: Spoken) -> bool {
    match language {
        Spoken::English => false,
        Spoken::German => matches!(
            word,
            "nicht"
                | "kein"
                | "keine"
                | "keinen"
                | "keinem"
                | "keiner"
                | "keines"
                | "nie"
                | "niemals"
                | "nichts"
                | "ohne"
                | "niemand"
        ),
        Spoken::French => matches!(
            word,
            "ne" | "n" | "jamais" | "aucun" | "aucune" | "sans" | "rien"
        ),
        Spoken::Spanish => matches!(
            word,
            "no" | "nunca"
                | "jamás"
                | "sin"
                | "ningún"
                | "ninguna"
                | "ninguno"
                | "nada"
                | "nadie"
                | "tampoco"
        ),
    }
}

/// Phrases whose negation negates no fact, by language (lowercase).
const STOCK: &[&str] = &[
    "kein problem",
    "keine sorge",
    "keine ursache",
    "nichts zu danken",
    "pas de problème",
    "pas de souci",
    "pas de soucis",
    "de rien",
    "n'hésitez pas",
    "no hay problema",
    "no se preocupe",
    "no dude",
    "de nada",
    "sin problema",
];

/// `answer`, in `language`, as the English reader reads it; `None` for an
/// English answer (read as it is).
pub(super) fn as_english(answer: &str, language: Spoken) -> Option<String> {
    let number_words = match language {
        Spoken::English => return None,
        Spoken::German => text2num::Language::german(),
        Spoken::French => text2num::Language::french(),
        Spoken::Spanish => text2num::Language::spanish(),
    };
    let words = match language {
        Spoken::German => GERMAN_WORDS,
        Spoken::French => FRENCH_WORDS,
        _ => SPANISH_WORDS,
    };
    let mut text = answer.replace('’', "'");
    for phrase in STOCK {
        text = replace_ignoring_case(&text, phrase, " ");
    }
    // `un`, `ein`, `una` stand alone as articles as often as numbers: a
    // number word alone is read from 2 up.
    let text = text2num::replace_numbers_in_text(&text, &number_words, 2.0);
    let text = decimal_commas(&text);
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        let lower = word.to_lowercase();
        if language == Spoken::French && lower == "pas" {
            // The rest of `ne ... pas`: the `ne` counted it.
        } else if is_negation(&lower, language) {
            out.push_str("not");
        } else if let Some((_, english)) = words.iter().find(|(w, _)| *w == lower) {
            out.push_str(english);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            // `n'arrive`: the elided negation is a word of its own.
            let elided = c == '\'' && out.ends_with("not");
            out.push(if elided { ' ' } else { c });
        }
    }
    flush(&mut word, &mut out);
    Some(day_before_month(&out))
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// `21. july` (German) and `21 de july` (Spanish) as English reads a day
/// before its month: `21 july`, `21 of july`.
fn day_before_month(text: &str) -> String {
    let mut out = text.to_owned();
    for month in MONTHS {
        for (from, to) in [(". ", " "), (" de ", " of ")] {
            let pattern = format!("{from}{month}");
            let mut at = 0;
            while let Some(found) = out[at..].find(&pattern).map(|f| f + at) {
                let after_day = out[..found].ends_with(|c: char| c.is_ascii_digit());
                if after_day {
                    out.replace_range(found..found + from.len(), to);
                }
                at = found + 1;
            }
        }
    }
    out
}

/// `42,50` → `42.50` (one or two digits after a comma, none before a
/// third): the decimal comma of the three languages.
fn decimal_commas(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        let decimal = c == ','
            && at > 0
            && bytes[at - 1].is_ascii_digit()
            && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
            && {
                let digits = bytes[at + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                digits <= 2
            };
        out.push(if decimal { '.' } else { c });
    }
    out
}

fn replace_ignoring_case(text: &str, phrase: &str, with: &str) -> String {
    let lower = text.to_lowercase();
    if lower.len() != text.len() || !lower.contains(phrase) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(found) = lower[at..].find(phrase) {
        out.push_str(&text[at..at + found]);
        out.push_str(with);
        at += found + phrase.len();
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_language_is_told_by_its_function_words() {
        assert_eq!(language_of("Your card ships in 3 days."), Spoken::English);
        assert_eq!(
            language_of("Ihre Karte wird in drei Tagen versandt, und die Gebühr ist 5 €."),
            Spoken::German
        );
        assert_eq!(
            language_of("Votre carte sera envoyée dans trois jours et les frais sont de 5 €."),
            Spoken::French
        );
        assert_eq!(
            language_of("Su tarjeta se enviará en tres días y la tarifa es de 5 €."),
            Spoken::Spanish
        );
    }

    #[test]
    fn a_german_answer_is_read_as_english() {
        assert_eq!(
            as_english(
                "Es fällt keine Gebühr von 30 Dollar an, in drei Tagen.",
                Spoken::German
            )
            .unwrap(),
            "Es fällt not Gebühr von 30 Dollar an, in 3 days."
        );
        assert_eq!(
            as_english("Kein Problem! Die Gebühr beträgt 42,50 €.", Spoken::German).unwrap(),
            " ! Die Gebühr beträgt 42.50 €."
        );
        assert_eq!(
            as_english(
                "Vous ne pouvez pas annuler après vingt jours.",
                Spoken::French
            )
            .unwrap(),
            "Vous not pouvez  annuler après 20 days."
        );
        assert_eq!(
            as_english("Votre carte n'arrive pas dans trois jours.", Spoken::French).unwrap(),
            "Votre carte not arrive  dans 3 days."
        );
    }
}
