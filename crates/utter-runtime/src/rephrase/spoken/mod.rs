//! Facts as said on a voice channel, in the conversation's language:
//! Mantle's voice rules (rasa-pro 3.21.0 `channel_rules.jinja2`) are the
//! specification. Money with its minor unit (`forty-two dollars and fifty
//! cents`), dates with the year in pairs (`July twenty-first, twenty
//! twenty-six`), codes character by character in short groups (`A B C,
//! one two three`), emails and web addresses with spoken symbols
//! (`support at example dot com`), phone numbers digit by digit.

mod numbers;
mod tables;

use crate::guard::figure::{Figure, Unit};
use crate::guard::number::Decimal;
use crate::rephrase::context::{Language, Spoken};

pub(crate) use numbers::{apocope, cardinal, digit};
use numbers::{ordinal, year};
use tables::{currency, magnitude, month, per_phrase, point, symbol, unit_word};

/// A figure as said, or `None` where utter has no spoken form for it (it
/// is then written as reviewed).
pub(crate) fn figure(
    figure: &Figure,
    written: &str,
    code_like: bool,
    language: &Language,
) -> Option<String> {
    let spoken = language.spoken()?;
    match figure {
        Figure::Number { value, unit, per } => {
            if code_like && unit.is_none() && per.is_none() {
                return Some(code(written, spoken));
            }
            number_figure(value, *unit, *per, written, spoken)
        }
        Figure::Code(_) => Some(code(written, spoken)),
        Figure::Time(seconds) => Some(time(*seconds, spoken)),
        Figure::Date { year, month, day } => Some(date(*year, *month, *day, language, spoken)),
        Figure::AsWritten(_) => None,
    }
}

fn number_figure(
    value: &Decimal,
    unit: Option<Unit>,
    per: Option<&'static str>,
    written: &str,
    language: Spoken,
) -> Option<String> {
    let per = match per {
        Some(per) => format!(" {}", per_phrase(per, language)?),
        None => String::new(),
    };
    match unit {
        Some(Unit::Named("percent")) => Some(format!(
            "{} {}{per}",
            decimal(value, language)?,
            unit_word("percent", language)?
        )),
        Some(Unit::Named(name)) if currency(name, language).is_some() => {
            Some(format!("{}{per}", money(value, name, written, language)?))
        }
        Some(Unit::Sign(_)) => None,
        _ => {
            let (run, spoken_run) = first_number(written, language)?;
            Some(format!(
                "{}{}{}",
                &written[..run.start],
                spoken_run,
                &written[run.end..]
            ))
        }
    }
}

/// The first number written in `written` (its digits, grouping and
/// decimal point), and it in words; an ordinal suffix is read with it.
fn first_number(written: &str, language: Spoken) -> Option<(std::ops::Range<usize>, String)> {
    let start = written.find(|c: char| c.is_ascii_digit())?;
    let bytes = written.as_bytes();
    let mut end = start;
    while end < bytes.len()
        && (bytes[end].is_ascii_digit()
            || (matches!(bytes[end], b',' | b'.')
                && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)))
    {
        end += 1;
    }
    let digits = &written[start..end];
    let value = english_digits(digits)?;
    let negative = written[..start].ends_with(['-', '−']);
    let suffix = &written[end..];
    let suffix_len = ["st", "nd", "rd", "th"]
        .iter()
        .find(|s| suffix.starts_with(*s) && !suffix[2..].starts_with(char::is_alphabetic))
        .map_or(0, |s| s.len());
    let words = if suffix_len > 0 {
        ordinal(value.as_u64()?, language)
    } else {
        decimal(&value, language)?
    };
    let words = if negative {
        format!("{} {words}", minus(language))
    } else {
        words
    };
    let start = if negative {
        start - written[..start].chars().next_back()?.len_utf8()
    } else {
        start
    };
    Some((start..end + suffix_len, words))
}

/// Digits read as English writes them: `,` groups thousands, `.` is the
/// decimal point (the reader's default: reviewed texts in other notations
/// keep their digits).
fn english_digits(digits: &str) -> Option<Decimal> {
    let plain: String = digits.chars().filter(|&c| c != ',').collect();
    Decimal::parse(&plain)
}

/// A number in words: the cardinal, a fraction digit by digit after the
/// language's decimal point.
fn decimal(value: &Decimal, language: Spoken) -> Option<String> {
    let text = value.to_string();
    if text.contains('e') {
        return None;
    }
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (format!("{} ", minus(language)), rest),
        None => (String::new(), text.as_str()),
    };
    let (integer, fraction) = text.split_once('.').unwrap_or((text, ""));
    let mut words = format!("{sign}{}", cardinal(integer.parse().ok()?, language));
    if !fraction.is_empty() {
        words.push(' ');
        words.push_str(point(language));
        for d in fraction.bytes() {
            words.push(' ');
            words.push_str(digit(d - b'0', language));
        }
    }
    Some(words)
}

fn minus(language: Spoken) -> &'static str {
    match language {
        Spoken::English | Spoken::German => "minus",
        Spoken::French => "moins",
        Spoken::Spanish => "menos",
    }
}

/// An amount with its currency, the minor unit in words too.
fn money(value: &Decimal, name: &str, written: &str, language: Spoken) -> Option<String> {
    let names = currency(name, language)?;
    let text = value.to_string();
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (major, minor) = text.split_once('.').unwrap_or((text, ""));
    if minor.len() > 2 {
        return None;
    }
    let major: u64 = major.parse().ok()?;
    let minor: u64 = if minor.is_empty() {
        0
    } else {
        format!("{minor:0<2}").parse().ok()?
    };
    let amount = |n: u64, one: &str, many: &str| -> String {
        let words = match (n, language) {
            (1, Spoken::German) => "ein".to_owned(),
            (_, Spoken::Spanish) => apocope(cardinal(n, language)),
            _ => cardinal(n, language),
        };
        format!("{words} {}", if n == 1 { one } else { many })
    };
    let said = if let Some(scale) = magnitude(written, language) {
        // The value is scaled; the words say the number as written.
        let (_, as_written) = first_number(written, language)?;
        format!("{as_written} {scale} {}", names.many)
    } else {
        match (major, minor, names.minor) {
            (_, 0, _) => amount(major, names.one, names.many),
            (_, _, None) => return None,
            (0, _, Some((one, many))) => amount(minor, one, many),
            (_, _, Some((one, many))) => format!(
                "{} {} {}",
                amount(major, names.one, names.many),
                names.and,
                amount(minor, one, many)
            ),
        }
    };
    Some(if negative {
        format!("{} {said}", minus(language))
    } else {
        said
    })
}

fn time(seconds: u32, language: Spoken) -> String {
    let (hour, minute) = (u64::from(seconds / 3600), u64::from(seconds / 60 % 60));
    match language {
        Spoken::English => {
            let half = if hour < 12 { "AM" } else { "PM" };
            let twelve = match hour % 12 {
                0 => 12,
                h => h,
            };
            match minute {
                0 => format!("{} {half}", cardinal(twelve, language)),
                1..10 => format!(
                    "{} oh {} {half}",
                    cardinal(twelve, language),
                    cardinal(minute, language)
                ),
                _ => format!(
                    "{} {} {half}",
                    cardinal(twelve, language),
                    cardinal(minute, language)
                ),
            }
        }
        Spoken::German => match (hour, minute) {
            (1, 0) => "ein Uhr".to_owned(),
            (_, 0) => format!("{} Uhr", cardinal(hour, language)),
            _ => format!(
                "{} Uhr {}",
                cardinal(hour, language),
                cardinal(minute, language)
            ),
        },
        Spoken::French => {
            let hours = if hour == 1 {
                "une heure".to_owned()
            } else {
                format!("{} heures", cardinal(hour, language))
            };
            match minute {
                0 => hours,
                _ => format!("{hours} {}", cardinal(minute, language)),
            }
        }
        Spoken::Spanish => {
            let hours = if hour == 1 {
                "la una".to_owned()
            } else {
                format!("las {}", cardinal(hour, language))
            };
            match minute {
                0 => format!("{hours} en punto"),
                _ => format!("{hours} y {}", cardinal(minute, language)),
            }
        }
    }
}

fn date(year_: Option<u32>, month_: u8, day: u8, language: &Language, spoken: Spoken) -> String {
    let name = month(month_, spoken);
    let day = u64::from(day);
    let year_ = year_.map(|y| year(u64::from(y), spoken));
    match spoken {
        Spoken::English if language.month_first() => match year_ {
            Some(y) => format!("{name} {}, {y}", ordinal(day, spoken)),
            None => format!("{name} {}", ordinal(day, spoken)),
        },
        Spoken::English => match year_ {
            Some(y) => format!("the {} of {name}, {y}", ordinal(day, spoken)),
            None => format!("the {} of {name}", ordinal(day, spoken)),
        },
        Spoken::German => join([ordinal(day, spoken), name.to_owned()], year_, " "),
        Spoken::French => {
            let day = if day == 1 {
                "premier".to_owned()
            } else {
                cardinal(day, spoken)
            };
            join([day, name.to_owned()], year_, " ")
        }
        Spoken::Spanish => {
            let day = if day == 1 {
                "primero".to_owned()
            } else {
                cardinal(day, spoken)
            };
            join([day, name.to_owned()], year_, " de ")
        }
    }
}

fn join([day, name]: [String; 2], year_: Option<String>, between: &str) -> String {
    match year_ {
        Some(y) => format!("{day}{between}{name}{between}{y}"),
        None => format!("{day}{between}{name}"),
    }
}

/// A code character by character, letters as capitals, digits by name,
/// in groups of at most four (`A B C, one two three`).
pub(crate) fn code(written: &str, language: Spoken) -> String {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut last_kind = None;
    for c in written.chars() {
        let kind = if c.is_ascii_digit() {
            Some(true)
        } else if c.is_alphanumeric() {
            Some(false)
        } else {
            None
        };
        let Some(is_digit) = kind else {
            last_kind = None;
            continue;
        };
        let said = if is_digit {
            digit(c as u8 - b'0', language).to_owned()
        } else {
            c.to_uppercase().collect()
        };
        let full = groups.last().is_none_or(|g| g.len() >= group_size(written));
        if last_kind != Some(is_digit) || full {
            groups.push(Vec::new());
        }
        if let Some(group) = groups.last_mut() {
            group.push(said);
        }
        last_kind = Some(is_digit);
    }
    groups
        .iter()
        .map(|g| g.join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Short groups: a run of up to four is one group, longer runs go by three.
fn group_size(written: &str) -> usize {
    if written.chars().filter(|c| c.is_alphanumeric()).count() <= 4 {
        4
    } else {
        3
    }
}

/// A phone number digit by digit, its groups as written, `+` by name.
pub(crate) fn phone(written: &str, language: Spoken) -> String {
    let plus = written.trim_start().starts_with('+');
    let groups: Vec<String> = written
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .map(|g| {
            g.bytes()
                .map(|d| digit(d - b'0', language))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let said = groups.join(", ");
    if plus {
        format!("{} {said}", symbol('+', language).unwrap_or("plus"))
    } else {
        said
    }
}

/// An email or web address with spoken symbols: words as written, digits
/// by name, the protocol left out.
pub(crate) fn address(written: &str, language: Spoken) -> String {
    let written = ["https://", "http://"]
        .iter()
        .find_map(|p| written.strip_prefix(p))
        .unwrap_or(written);
    let mut said: Vec<String> = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, said: &mut Vec<String>| {
        if !word.is_empty() {
            said.push(std::mem::take(word));
        }
    };
    for c in written.chars() {
        if c.is_ascii_digit() {
            flush(&mut word, &mut said);
            said.push(digit(c as u8 - b'0', language).to_owned());
        } else if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut said);
            match symbol(c, language) {
                Some(name) => said.push(name.to_owned()),
                None => said.push(c.to_string()),
            }
        }
    }
    flush(&mut word, &mut said);
    said.join(" ")
}

#[cfg(test)]
mod tests;
