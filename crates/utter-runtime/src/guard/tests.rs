//! The reading and the rules, one class at a time; then properties: an
//! honest answer is used, and changing any one fact of it is refused.
//! (The corpus of rephrasings measured both ways is tests/guard_corpus.rs.)

use super::*;
use proptest::prelude::*;

fn read_figures(text: &str) -> Vec<read::Figure> {
    read::read(text, &lexicon::ENGLISH)
        .into_iter()
        .filter_map(|t| match t.kind {
            read::Kind::Figure(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// The figures of `text` as `value unit` strings.
fn shown(text: &str) -> Vec<String> {
    read_figures(text)
        .into_iter()
        .map(|f| match f {
            read::Figure::Number { value, unit, .. } => match unit {
                Some(unit) => format!("{value} {unit}"),
                None => value.to_string(),
            },
            read::Figure::Code(code) => format!("code {code}"),
            read::Figure::Time(s) => format!("time {:02}:{:02}", s / 3600, s / 60 % 60),
            read::Figure::Date { year, month, day } => format!("date {year:?}-{month}-{day}"),
            read::Figure::AsWritten(w) => format!("as written {w}"),
        })
        .collect()
}

#[test]
fn numbers_are_read_by_value_in_any_form() {
    for (text, want) in [
        ("1,000.50", "1000.5"),
        ("1000.5", "1000.5"),
        ("1 000", "1000"),
        ("1\u{A0}000", "1000"),
        ("1\u{202F}000", "1000"),
        ("1'000.5", "1000.5"),
        ("1.0005e3", "1000.5"),
        ("1.0005E+3", "1000.5"),
        ("one thousand point five", "1000.5"),
        ("٢٠", "20"),
        ("２０", "20"),
        ("२०", "20"),
        ("1.5 million", "1500000"),
        ("1.5M", "1500000"),
        ("2bn", "2000000000"),
        ("twenty-five", "25"),
        ("the 21st", "21"),
        ("twenty first", "21"),
        ("10³", "1000"),
        ("1e-3", "0.001"),
        ("1e+20", "100000000000000000000"),
        ("-20.0", "-20"),
        ("−20", "-20"),
        ("minus 20", "-20"),
        ("+20", "20"),
    ] {
        assert_eq!(shown(text), [want], "{text}");
    }
}

#[test]
fn a_number_keeps_its_sign_and_what_it_measures() {
    for (text, want) in [
        ("$1000", "1000 dollar"),
        ("1000 USD", "1000 dollar"),
        ("USD 1000", "1000 dollar"),
        ("one thousand dollars", "1000 dollar"),
        ("$1k", "1000 dollar"),
        ("-$20", "-20 dollar"),
        ("$-20", "-20 dollar"),
        ("-20.0 EUR", "-20 euro"),
        ("€20", "20 euro"),
        ("20 €", "20 euro"),
        ("15%", "15 percent"),
        ("15 per cent", "15 percent"),
        ("3 hours", "3 hour"),
        ("3-hour", "3 hour"),
        ("3 hrs", "3 hour"),
        ("three hours", "3 hour"),
        ("5km", "5 kilometre"),
        ("₿5", "5 ₿"),
    ] {
        assert_eq!(shown(text), [want], "{text}");
    }
    // A range's dash is no sign.
    assert_eq!(shown("5-10 days"), ["5", "10 day"]);
}

#[test]
fn codes_times_and_dates() {
    for (text, want) in [
        ("007", "code 007"),
        ("02134", "code 02134"),
        ("UA455", "code ua455"),
        ("B12", "code b12"),
        ("12E", "code 12e"),
        ("18:40", "time 18:40"),
        ("6:40 pm", "time 18:40"),
        ("6:40PM", "time 18:40"),
        ("6.40 p.m.", "time 18:40"),
        ("6 pm", "time 18:00"),
        ("12 am", "time 00:00"),
        ("2026-12-05", "date Some(2026)-12-5"),
        ("December 5, 2026", "date Some(2026)-12-5"),
        ("5th December 2026", "date Some(2026)-12-5"),
        ("the 5th of Dec 2026", "date Some(2026)-12-5"),
        ("December 5", "date None-12-5"),
        ("12/05/2026", "as written 12/05/2026"),
        ("7,5", "as written 7,5"),
        ("½", "as written ½"),
    ] {
        assert_eq!(shown(text), [want], "{text}");
    }
    // A pronoun is no number.
    assert_eq!(shown("the new one"), Vec::<String>::new());
}

/// A digit of every script is read at its value: each run of ten `Nd`
/// code points CPython 3.11 knows (their zeros, from `unicodedata`).
#[test]
fn digits_of_every_script() {
    const ZEROS: [u32; 64] = [
        0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
        0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
        0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
        0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
        0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0,
        0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E950,
    ];
    for zero in ZEROS {
        for value in 0..10u8 {
            let c = char::from_u32(zero + u32::from(value)).expect("a digit");
            assert_eq!(number::digit_value(c), Some(value), "U+{:04X}", c as u32);
        }
    }
    assert_eq!(number::digit_value('a'), None);
    assert_eq!(number::digit_value('²'), None);
}

fn value(entry: &str, text: &str) -> Filled {
    Filled::new(format!("session.{entry}"), text)
}

#[test]
fn each_rule_refuses_with_its_reason() {
    let refused = |reviewed: &str, filled: &[Filled], answer: &str| {
        check(reviewed, filled, answer)
            .expect_err(answer)
            .to_string()
    };
    assert_eq!(
        refused("A fee of $1000", &[], "A fee of €1000"),
        "the rephrased text changes `$1000` to `€1000`"
    );
    assert_eq!(
        refused("A fee of $30 applies", &[], "No fee of $30 applies"),
        "the rephrased text has 1 negation where the reviewed text has 0"
    );
    assert_eq!(
        refused(
            "Transfer from Alice to Bob",
            &[value("t.from", "Alice"), value("t.to", "Bob")],
            "Transfer from Bob to Alice"
        ),
        "the rephrased text puts `Alice` (the value of session.t.from) where the reviewed \
         text has `Bob` (the value of session.t.to)"
    );
    assert_eq!(
        refused(
            "Your code is 007",
            &[value("a.code", "007")],
            "Your code is 7"
        ),
        "the rephrased text lost `007` (the value of session.a.code)"
    );
    assert_eq!(
        refused("Pay 5 now", &[], "Pay 5 now, or 6 tomorrow"),
        "the rephrased text adds `6`"
    );
    assert_eq!(
        refused("Pay 5 now and 6 later", &[], "Pay 5 now"),
        "the rephrased text lost `6`"
    );
}

/// A refusal names the entry and never shows a personal value; every value
/// it shows is escaped.
#[test]
fn refusals_keep_secrets_and_escape() {
    let email = Filled::new("session.pay.email", "jane.doe@example.com").personal();
    let phone = Filled::new("session.pay.phone", "555 0100 1234").personal();
    let reviewed = "We wrote to jane.doe@example.com and 555 0100 1234";
    for answer in [
        "We wrote to you and 555 0100 1234",
        "We wrote to jane.doe@example.com and 555 0100 1235",
        "We wrote to jane.doe@example.com and 5550100 1234",
        "We wrote to jane.doe@example.com and 555 0100 1234 and 0100",
    ] {
        let refusal = check(reviewed, &[email.clone(), phone.clone()], answer)
            .expect_err(answer)
            .to_string();
        for secret in ["jane", "example", "555", "0100", "1234", "1235"] {
            assert!(!refusal.contains(secret), "{refusal}");
        }
        assert!(refusal.contains("session.pay."), "{refusal}");
    }
    let hostile = Filled::new("session.x.name", "Ann\n::error::forged\u{1b}[31m");
    let refusal = check("Hi Ann\n::error::forged\u{1b}[31m", &[hostile], "Hi")
        .expect_err("lost")
        .to_string();
    assert!(
        !refusal.contains('\n') && !refusal.contains('\u{1b}'),
        "{refusal:?}"
    );
}

/// A reviewed text of words, figures and filled values, from vocabularies
/// that do not meet, each figure after a role word of its own.
fn reviewed() -> impl Strategy<Value = (Vec<String>, Vec<Filled>)> {
    let word = prop::sample::select(vec![
        "the", "fee", "card", "ships", "in", "now", "your", "is", "soon", "here",
    ]);
    let name = prop::sample::select(vec!["Visa", "rush delivery", "Ada", "lost", "gold card"]);
    let number = prop_oneof![
        (0u32..10_000).prop_map(|n| n.to_string()),
        (0u32..1000, 1u32..10).prop_map(|(a, b)| format!("{a}.{b}")),
        (1u32..100, 0u32..1000).prop_map(|(a, b)| format!("{a},{b:03}")),
        (1u32..1000).prop_map(|n| format!("${n}")),
        (1u32..100).prop_map(|n| format!("{n} hours")),
        (1u32..100).prop_map(|n| format!("-{n} EUR")),
        (1u32..1000).prop_map(|n| format!("UA{n}")),
    ];
    let token = prop_oneof![
        3 => word.prop_map(|w| (w.to_owned(), None)),
        1 => name.prop_map(|v| (v.to_owned(), Some(v.to_owned()))),
        1 => number.clone().prop_map(|n| (n.clone(), Some(n))),
        1 => number.prop_map(|n| (n, None)),
    ];
    prop::collection::vec(token, 1..10).prop_map(|mut tokens| {
        // Two numbers one space apart read as one grouped number (`5 123`):
        // a word between them.
        let mut at = 1;
        while at < tokens.len() {
            let digit = |t: &str| t.starts_with(|c: char| c.is_ascii_digit());
            if digit(&tokens[at].0) && tokens[at - 1].0.ends_with(|c: char| c.is_ascii_digit()) {
                tokens.insert(at, ("then".to_owned(), None));
            }
            at += 1;
        }
        let words: Vec<String> = tokens.iter().map(|(t, _)| t.clone()).collect();
        let filled = tokens
            .into_iter()
            .enumerate()
            .filter_map(|(i, (_, f))| f.map(|f| value(&format!("v.e{i}"), &f)))
            .collect();
        (words, filled)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The reviewed text itself, in capitals, with its words moved, is
    /// used; a digit changed, a figure added, a value dropped, a sign or a
    /// unit changed, or a negation added is refused.
    #[test]
    fn one_fact_changed_is_refused(
        (words, filled) in reviewed(),
        pick in any::<prop::sample::Index>(),
    ) {
        let text = words.join(" ");
        prop_assert_eq!(check(&text, &filled, &text), Ok(()));
        let shouted = format!("{}!", words.join(", ").to_uppercase());
        prop_assert_eq!(check(&text, &filled, &shouted), Ok(()));
        // A plain word moved (with no two values of a kind, which the moved
        // word could seem to tie to each other's roles: the corpus measures
        // honest reorderings).
        let named = filled.iter().filter(|f| figures(&f.value).is_empty()).count();
        let figured = figures(&text).len();
        if let Some(plain) = words.iter().position(|w| named < 2 && figured < 2 && !filled.iter().any(|f| &f.value == w) && figures(w).is_empty()) {
            let mut moved = words.clone();
            let word = moved.remove(plain);
            moved.push(word);
            prop_assert_eq!(check(&text, &filled, &moved.join(" ")), Ok(()));
        }

        // Drop a value.
        if !filled.is_empty() {
            let dropped = &filled[pick.index(filled.len())].value;
            let kept: Vec<&str> = words.iter().filter(|w| *w != dropped).map(String::as_str).collect();
            prop_assert!(check(&text, &filled, &kept.join(" ")).is_err(), "dropped {}", dropped);
        }
        // Change a digit.
        let digits: Vec<usize> = text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
        if !digits.is_empty() {
            let at = digits[pick.index(digits.len())];
            let mut changed = text.clone().into_bytes();
            changed[at] = b'0' + (changed[at] - b'0' + 1) % 10;
            let changed = String::from_utf8(changed).unwrap();
            prop_assert!(check(&text, &filled, &changed).is_err(), "{}", changed);
        }
        // Turn a sign, change a unit.
        for (from, to) in [("-", ""), ("$", "€"), (" hours", " days"), (" EUR", " USD")] {
            if text.contains(from) {
                let changed = text.replacen(from, to, 1);
                prop_assert!(check(&text, &filled, &changed).is_err(), "{}", changed);
            }
        }
        // Add a figure, add a negation.
        let added = format!("{text}, or 987654");
        prop_assert!(check(&text, &filled, &added).is_err(), "{}", added);
        let negated = format!("{text}, not never");
        prop_assert!(check(&text, &filled, &negated).is_err(), "{}", negated);
    }

    /// Two values that could trade places, each after its own role word:
    /// kept in their roles (in any order of clauses) used, traded refused.
    #[test]
    fn role_bound_values_keep_their_roles(
        (first, second) in (1u32..500, 500u32..1000),
        names in prop::sample::subsequence(vec!["Alice", "Bob", "Carol", "Dan"], 2),
        roles in prop::sample::select(vec![("from", "to"), ("before", "after"), ("debit", "credit")]),
        money in any::<bool>(),
    ) {
        let (a, b) = if money { (format!("${first}"), format!("${second}")) } else { (names[0].to_owned(), names[1].to_owned()) };
        let filled = [value("t.a", &a), value("t.b", &b)];
        let reviewed = format!("Moved {} {a} {} {b} today.", roles.0, roles.1);
        let reordered = format!("Today: {} {b}, {} {a}.", roles.1, roles.0);
        prop_assert_eq!(check(&reviewed, &filled, &reordered), Ok(()));
        let traded = format!("Moved {} {b} {} {a} today.", roles.0, roles.1);
        prop_assert!(
            matches!(check(&reviewed, &filled, &traded), Err(FactRefusal::Swapped(..))),
            "{}", traded
        );
    }
}

/// The number-word fast path skips `text2num` only where it finds nothing:
/// over the corpus's texts and every number word in its forms.
#[test]
fn the_number_word_fast_path_misses_nothing() {
    let corpus = include_str!("../../tests/guard_corpus/corpus.txt");
    let mut texts: Vec<String> = corpus.lines().map(str::to_owned).collect();
    for word in lexicon::ENGLISH.number_word_list {
        for form in [word.to_string(), format!("{word}s"), word.to_uppercase()] {
            texts.push(format!("we have {form} of them"));
            texts.push(format!("twenty-{form} and {form}-two"));
        }
    }
    let language = (lexicon::ENGLISH.number_words)();
    for text in texts {
        let lexemes = lex::lex(&text, &lexicon::ENGLISH);
        let words: Vec<(String, _)> = lexemes
            .iter()
            .filter_map(|l| match &l.lex {
                lex::Lex::Word(w) => Some((w.to_string(), l.entry)),
                _ => None,
            })
            .collect();
        let joined = words
            .iter()
            .map(|(w, _)| w.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let found = text2num::replace_numbers_in_text(&joined, &language, 0.0) != joined;
        let may_be = words
            .iter()
            .any(|(w, entry)| lexicon::ENGLISH.may_be_number_word(w, *entry));
        assert!(!found || may_be, "{text}");
    }
}

/// A filled value read where it stands in the reviewed text reads as the
/// value read alone, but for a number word read as a pronoun there (the
/// guard reads it in place to save a reading): over
/// every reviewed text of the corpus and the values placed in it, and
/// values in contexts that reach across them.
#[test]
fn a_value_read_in_place_reads_as_the_value_alone() {
    let corpus = include_str!("../../tests/guard_corpus/corpus.txt");
    let mut cases: Vec<(String, Vec<String>)> = vec![
        ("Pay $7.5 now".into(), vec!["7.5".into()]),
        (
            "On December 5, 2026".into(),
            vec!["5".into(), "2026".into()],
        ),
        ("this one and one more".into(), vec!["one".into()]),
        (
            "UA 455 leaves at 18:40".into(),
            vec!["UA 455".into(), "18".into()],
        ),
        ("Alice's bag".into(), vec!["Alice".into()]),
    ];
    for template in corpus.lines().filter_map(|l| l.strip_prefix("R ")) {
        let (mut text, mut values, mut rest) = (String::new(), Vec::new(), template);
        while let Some(open) = rest.find('{') {
            let close = open + rest[open..].find('}').expect("closed");
            let (_, value) = rest[open + 1..close].split_once('=').expect("entry=value");
            let value = value.trim_end_matches('!');
            text.push_str(&rest[..open]);
            text.push_str(value);
            values.push(value.to_owned());
            rest = &rest[close + 1..];
        }
        text.push_str(rest);
        cases.push((text, values));
    }
    let kinds = |tokens: &[read::Token]| -> Vec<read::Kind<'static>> {
        tokens
            .iter()
            .filter(|t| t.kind != read::Kind::Break)
            .map(|t| match &t.kind {
                read::Kind::Word(w) => read::Kind::Word(w.to_string().into()),
                read::Kind::Figure(f) => read::Kind::Figure(f.clone()),
                read::Kind::Break => read::Kind::Break,
            })
            .collect()
    };
    let mut in_place = 0;
    for (text, values) in &cases {
        let kept = read::read(text, &lexicon::ENGLISH);
        for value in values {
            let Some(tokens) = compare::read_in_place(text, &kept, value) else {
                continue;
            };
            in_place += 1;
            let (there, alone) = (kinds(tokens), kinds(&read::read(value, &lexicon::ENGLISH)));
            // The one difference: a number word its context reads as a
            // pronoun (`this one`), which the answer may repeat.
            let pronoun = matches!(there.as_slice(), [read::Kind::Word(_)])
                && matches!(
                    alone.as_slice(),
                    [read::Kind::Figure(read::Figure::Number { .. })]
                );
            assert!(
                there == alone || pronoun,
                "{value:?} in {text:?}: {there:?} {alone:?}"
            );
        }
    }
    // 60 when written: the test must keep seeing values read in place.
    assert!(in_place >= 50, "only {in_place} values were read in place");
}

#[test]
fn no_filled_values_are_no_allocation_and_read_as_an_empty_slice() {
    // What keeps a delivery that does not rephrase free to build and drop
    // in line: its guard holds a null pointer, never an empty box.
    let none = FilledValues::from(Vec::new());
    assert!(none.0.is_none());
    assert_eq!(none, FilledValues::default());
    assert!(none.is_empty());
    assert_eq!(size_of::<FilledValues>(), 2 * size_of::<usize>());
    let some: FilledValues = [value("t.a", "4242"), value("t.b", "rush")]
        .into_iter()
        .collect();
    assert_eq!(
        some.iter().map(|f| f.value.as_str()).collect::<Vec<_>>(),
        ["4242", "rush"]
    );
    assert_eq!(some.len(), 2);
}

/// A personal value shows in no refusal in any form the guard reads it in:
/// a date or time written another way, digits of another script, number
/// words, a contact, a scope around it.
#[test]
fn personal_values_show_in_no_refusal_in_any_form() {
    let cases = [
        ("1990-12-24", "24 December 1990"),
        ("18:40", "6:40 pm"),
        ("4821", "٤٨٢١"),
        ("25", "twenty-five"),
        ("jane@example.com", "jane@example.com"),
    ];
    for (value, form) in cases {
        let filled = [value_of("session.user.secret", value).personal()];
        let reviewed = format!("Noted: {value}. The fee is $5.");
        for answer in [
            format!("Noted: {value}. The fee is $5, and {form}."),
            format!("Noted: {form}. The fee is $6."),
            format!("Noted: within {form}. The fee is $5."),
            format!("Noted: {value}. The fee is $5. Write to {form}."),
        ] {
            let Err(refusal) = check(&reviewed, &filled, &answer) else {
                continue;
            };
            let shown = refusal.to_string();
            for hidden in [value, form, "1990", "4821", "٤٨٢١", "twenty-five", "jane"] {
                if value.contains(hidden) || form.contains(hidden) {
                    assert!(!shown.contains(hidden), "{value} as {form}: {shown}");
                }
            }
        }
    }
}

fn value_of(entry: &str, text: &str) -> Filled {
    Filled::new(entry, text)
}
