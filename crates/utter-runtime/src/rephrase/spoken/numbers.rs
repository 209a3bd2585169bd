//! Numbers in words: English and French from `num2words`; German and
//! Spanish, which it lacks, by their rules here.

use num2words::{Lang, Num2Words};

use crate::rephrase::context::Spoken;

/// The cardinal of `n` in `language`.
pub(crate) fn cardinal(n: u64, language: Spoken) -> String {
    match language {
        Spoken::English => from_crate(Num2Words::new(n as i64), Lang::English, n),
        Spoken::French => from_crate(Num2Words::new(n as i64), Lang::French, n),
        Spoken::German => german(n),
        Spoken::Spanish => spanish(n),
    }
}

/// The ordinal of `n` (`twenty-first`, `einundzwanzigsten`, `vingt et
/// unième`, `vigésimo primero`): German in the dative a date takes.
pub(crate) fn ordinal(n: u64, language: Spoken) -> String {
    match language {
        Spoken::English => from_crate(Num2Words::new(n as i64).ordinal(), Lang::English, n),
        Spoken::French if n == 1 => "premier".to_owned(),
        Spoken::French => from_crate(Num2Words::new(n as i64).ordinal(), Lang::French, n),
        Spoken::German => german_ordinal(n),
        Spoken::Spanish if n == 1 => "primero".to_owned(),
        Spoken::Spanish => spanish(n),
    }
}

/// A year as said: English in pairs (`twenty twenty-six`), German
/// `neunzehnhundertneunzig` before 2000, else the cardinal.
pub(crate) fn year(n: u64, language: Spoken) -> String {
    match language {
        Spoken::English => from_crate(Num2Words::new(n as i64).year(), Lang::English, n),
        Spoken::German if (1100..2000).contains(&n) => {
            format!("{}hundert{}", german(n / 100), german_tail(n % 100))
        }
        _ => cardinal(n, language),
    }
}

/// A digit's name (`0`..`9`).
pub(crate) fn digit(d: u8, language: Spoken) -> &'static str {
    const EN: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    const DE: [&str; 10] = [
        "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
    ];
    const FR: [&str; 10] = [
        "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
    ];
    const ES: [&str; 10] = [
        "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
    ];
    let names = match language {
        Spoken::English => &EN,
        Spoken::German => &DE,
        Spoken::French => &FR,
        Spoken::Spanish => &ES,
    };
    names[usize::from(d % 10)]
}

fn from_crate(words: Num2Words, lang: Lang, n: u64) -> String {
    // The crate converts every integer this is given; the digits stand in
    // should it ever not.
    words
        .lang(lang)
        .to_words()
        .unwrap_or_else(|_| n.to_string())
}

const GERMAN_ONES: [&str; 20] = [
    "null",
    "eins",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "sechs",
    "sieben",
    "acht",
    "neun",
    "zehn",
    "elf",
    "zwölf",
    "dreizehn",
    "vierzehn",
    "fünfzehn",
    "sechzehn",
    "siebzehn",
    "achtzehn",
    "neunzehn",
];
const GERMAN_TENS: [&str; 10] = [
    "", "zehn", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig",
    "neunzig",
];

/// German below 100 inside a compound (`ein` for 1, nothing for 0).
fn german_tail(n: u64) -> String {
    match n {
        0 => String::new(),
        _ => german_below_hundred(n),
    }
}

fn german_below_hundred(n: u64) -> String {
    match n {
        0..20 => GERMAN_ONES[n as usize].to_owned(),
        _ => {
            let (tens, ones) = (n / 10, n % 10);
            match ones {
                0 => GERMAN_TENS[tens as usize].to_owned(),
                1 => format!("einund{}", GERMAN_TENS[tens as usize]),
                _ => format!(
                    "{}und{}",
                    GERMAN_ONES[ones as usize], GERMAN_TENS[tens as usize]
                ),
            }
        }
    }
}

/// A German multiplier inside a compound (`ein` for 1: `eintausend`).
fn german_multiplier(n: u64) -> String {
    if n == 1 { "ein".to_owned() } else { german(n) }
}

fn german(n: u64) -> String {
    match n {
        0..100 => german_below_hundred(n),
        100..1000 => format!(
            "{}hundert{}",
            german_multiplier(n / 100),
            german_tail(n % 100)
        ),
        1000..1_000_000 => {
            let rest = n % 1000;
            let rest = if rest == 0 {
                String::new()
            } else {
                german(rest)
            };
            format!("{}tausend{rest}", german_multiplier(n / 1000))
        }
        _ => {
            let (scale, one, many) = if n >= 1_000_000_000 {
                (1_000_000_000, "Milliarde", "Milliarden")
            } else {
                (1_000_000, "Million", "Millionen")
            };
            let (count, rest) = (n / scale, n % scale);
            let head = if count == 1 {
                format!("eine {one}")
            } else {
                format!("{} {many}", german(count))
            };
            if rest == 0 {
                head
            } else {
                format!("{head} {}", german(rest))
            }
        }
    }
}

fn german_ordinal(n: u64) -> String {
    let stem = match n {
        1 => "erst".to_owned(),
        3 => "dritt".to_owned(),
        7 => "siebt".to_owned(),
        8 => "acht".to_owned(),
        2..20 => format!("{}t", german(n)),
        _ => format!("{}st", german(n)),
    };
    format!("{stem}en")
}

const SPANISH_BELOW_30: [&str; 30] = [
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
];
const SPANISH_TENS: [&str; 10] = [
    "",
    "",
    "",
    "treinta",
    "cuarenta",
    "cincuenta",
    "sesenta",
    "setenta",
    "ochenta",
    "noventa",
];
const SPANISH_HUNDREDS: [&str; 10] = [
    "",
    "ciento",
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
];

fn spanish(n: u64) -> String {
    match n {
        0..30 => SPANISH_BELOW_30[n as usize].to_owned(),
        30..100 => match n % 10 {
            0 => SPANISH_TENS[(n / 10) as usize].to_owned(),
            ones => format!(
                "{} y {}",
                SPANISH_TENS[(n / 10) as usize],
                SPANISH_BELOW_30[ones as usize]
            ),
        },
        100 => "cien".to_owned(),
        101..1000 => match n % 100 {
            0 => SPANISH_HUNDREDS[(n / 100) as usize].to_owned(),
            rest => format!("{} {}", SPANISH_HUNDREDS[(n / 100) as usize], spanish(rest)),
        },
        1000..1_000_000 => {
            let head = match n / 1000 {
                1 => "mil".to_owned(),
                count => format!("{} mil", apocope(spanish(count))),
            };
            match n % 1000 {
                0 => head,
                rest => format!("{head} {}", spanish(rest)),
            }
        }
        _ => {
            let (scale, one, many) = if n >= 1_000_000_000_000 {
                (1_000_000_000_000, "un billón", "billones")
            } else {
                (1_000_000, "un millón", "millones")
            };
            let head = match n / scale {
                1 => one.to_owned(),
                count => format!("{} {many}", apocope(spanish(count))),
            };
            match n % scale {
                0 => head,
                rest => format!("{head} {}", spanish(rest)),
            }
        }
    }
}

/// `uno` before a masculine noun or a multiplier: `un`, `veintiún`.
pub(crate) fn apocope(words: String) -> String {
    if let Some(stem) = words.strip_suffix("veintiuno") {
        return format!("{stem}veintiún");
    }
    match words.strip_suffix("uno") {
        Some(stem) if stem.is_empty() || stem.ends_with(' ') => format!("{stem}un"),
        _ => words,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn german_numbers_are_written_as_said() {
        let cases = [
            (0, "null"),
            (1, "eins"),
            (21, "einundzwanzig"),
            (99, "neunundneunzig"),
            (101, "einhunderteins"),
            (1000, "eintausend"),
            (2026, "zweitausendsechsundzwanzig"),
            (1_000_000, "eine Million"),
            (2_500_000, "zwei Millionen fünfhunderttausend"),
        ];
        for (n, words) in cases {
            assert_eq!(cardinal(n, Spoken::German), words, "{n}");
        }
        assert_eq!(year(1990, Spoken::German), "neunzehnhundertneunzig");
        assert_eq!(ordinal(21, Spoken::German), "einundzwanzigsten");
        assert_eq!(ordinal(3, Spoken::German), "dritten");
    }

    #[test]
    fn spanish_numbers_are_written_as_said() {
        let cases = [
            (1, "uno"),
            (21, "veintiuno"),
            (42, "cuarenta y dos"),
            (100, "cien"),
            (115, "ciento quince"),
            (500, "quinientos"),
            (1000, "mil"),
            (2026, "dos mil veintiséis"),
            (21_000, "veintiún mil"),
            (1_000_000, "un millón"),
            (3_000_001, "tres millones uno"),
        ];
        for (n, words) in cases {
            assert_eq!(cardinal(n, Spoken::Spanish), words, "{n}");
        }
        assert_eq!(apocope("veintiuno".to_owned()), "veintiún");
        assert_eq!(apocope("uno".to_owned()), "un");
    }

    #[test]
    fn english_and_french_come_from_num2words() {
        assert_eq!(cardinal(42, Spoken::English), "forty-two");
        assert_eq!(year(2026, Spoken::English), "twenty twenty-six");
        assert_eq!(ordinal(21, Spoken::English), "twenty-first");
        assert_eq!(cardinal(21, Spoken::French), "vingt et un");
        assert_eq!(ordinal(1, Spoken::French), "premier");
    }
}
