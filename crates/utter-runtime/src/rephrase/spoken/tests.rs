use super::*;
use crate::guard::lexicon::ENGLISH;
use crate::guard::read::{Kind, read};

/// The first figure of `text` as said in `language`.
fn said(text: &str, language: &str) -> String {
    let token = read(text, &ENGLISH)
        .into_iter()
        .find(|t| matches!(t.kind, Kind::Figure(_)))
        .expect("a figure");
    let Kind::Figure(f) = &token.kind else {
        unreachable!()
    };
    figure(
        f,
        &text[token.span.clone()],
        false,
        &Language::new(language.to_owned()),
    )
    .expect("a spoken form")
}

#[test]
fn mantle_voice_rule_examples_are_said_as_the_rules_show() {
    // rasa-pro 3.21.0 channel_rules.jinja2, its English examples.
    assert_eq!(
        said("July 21, 2026", "en-US"),
        "July twenty-first, twenty twenty-six"
    );
    assert_eq!(
        said("July 21, 2026", "en-GB"),
        "the twenty-first of July, twenty twenty-six"
    );
    assert_eq!(said("$42.50", "en"), "forty-two dollars and fifty cents");
    assert_eq!(said("€20", "en"), "twenty euros");
    assert_eq!(code("ABC123", Spoken::English), "A B C, one two three");
    assert_eq!(
        address("support@example.com", Spoken::English),
        "support at example dot com"
    );
    assert_eq!(
        address("https://my-site.example.com/order-42", Spoken::English),
        "my hyphen site dot example dot com slash order hyphen four two"
    );
}

#[test]
fn figures_are_said_in_the_conversations_language() {
    assert_eq!(
        said("$42.50", "de"),
        "zweiundvierzig Dollar und fünfzig Cent"
    );
    assert_eq!(said("€1", "de"), "ein Euro");
    assert_eq!(
        said("€42.50", "fr"),
        "quarante-deux euros et cinquante centimes"
    );
    assert_eq!(said("€21", "es"), "veintiún euros");
    assert_eq!(said("£5m", "en"), "five million pounds");
    assert_eq!(said("$45 a day", "en"), "forty-five dollars per day");
    assert_eq!(said("15%", "de"), "fünfzehn Prozent");
    assert_eq!(said("3 hours", "en"), "three hours");
    assert_eq!(said("1.5 hours", "fr"), "un virgule cinq hours");
    assert_eq!(said("the 1st", "en"), "first");
    assert_eq!(said("18:40", "en"), "six forty PM");
    assert_eq!(said("09:05", "en"), "nine oh five AM");
    assert_eq!(said("18:40", "de"), "achtzehn Uhr vierzig");
    assert_eq!(said("18:00", "fr"), "dix-huit heures");
    assert_eq!(said("13:15", "es"), "las trece y quince");
    assert_eq!(
        said("July 21, 2026", "de"),
        "einundzwanzigsten Juli zweitausendsechsundzwanzig"
    );
    assert_eq!(
        said("July 1, 2026", "fr"),
        "premier juillet deux mille vingt-six"
    );
    assert_eq!(
        said("July 21, 2026", "es"),
        "veintiuno de julio de dos mil veintiséis"
    );
    assert_eq!(
        phone("+1 555 0100", Spoken::English),
        "plus one, five five five, zero one zero zero"
    );
    assert_eq!(
        address("support@example.com", Spoken::Spanish),
        "support arroba example punto com"
    );
}

#[test]
fn a_language_utter_does_not_speak_has_no_spoken_form() {
    let token = read("$42.50", &ENGLISH).remove(0);
    let Kind::Figure(f) = &token.kind else {
        unreachable!()
    };
    assert_eq!(figure(f, "$42.50", false, &Language::new("ja")), None);
}
