use proptest::prelude::*;

use super::*;
use crate::guard::{FactRefusal, Filled};

fn english() -> RephraseContext {
    RephraseContext::default()
}

#[test]
fn a_request_tags_every_fact_and_an_answer_keeping_them_is_written_back() {
    let filled = [Filled::new("session.card.last_four", "4224")];
    let reviewed = "Your card ending 4224 ships within 3 business days. A fee of $30 applies.";
    let request = RephraseRequest::new(reviewed, &filled, &english());
    assert_eq!(
        request.tagged_text(),
        "Your card ending <f1/> ships <f2/>. A fee of <f3/> applies."
    );
    assert_eq!(request.written_text(), reviewed);
    let answer = "Good news: the card ending in <f1/> is on its way <f2/>. There is a <f3/> fee.";
    assert_eq!(
        request.write_back(answer, true).unwrap(),
        "Good news: the card ending in 4224 is on its way within 3 business days. There is a $30 fee."
    );
    let prompt = request.prompt();
    assert!(
        prompt.contains("<f2/> is a number: \"within 3 business days\""),
        "{prompt}"
    );
    assert!(
        prompt.ends_with(
            "The message:\nYour card ending <f1/> ships <f2/>. A fee of <f3/> applies.\n"
        )
    );
}

#[test]
fn an_answer_that_changes_a_fact_is_refused() {
    let reviewed = "You can cancel within 30 days. A fee of $30 applies, up to 50% off.";
    let request = RephraseRequest::new(reviewed, &[], &english());
    assert_eq!(
        request.tagged_text(),
        "You can cancel <f1/>. A fee of <f2/> applies, <f3/> off."
    );
    let refused = |answer: &str| request.write_back(answer, true).unwrap_err();
    assert_eq!(
        refused("Cancel <f1/>, fee <f2/>."),
        FactRefusal::TagLost("<f3/>".into())
    );
    assert_eq!(
        refused("<f1/> <f1/> <f2/> <f3/>"),
        FactRefusal::TagRepeated("<f1/>".into())
    );
    assert_eq!(
        refused("<f1/> <f 2/> <f3/>"),
        FactRefusal::TagAltered("<f 2/>".into())
    );
    assert_eq!(
        refused("<f1/> <f2/> <f3/> <f4/>"),
        FactRefusal::TagAltered("<f4/>".into())
    );
    assert!(matches!(
        refused("You can cancel after 30 days <f1/>. <f2/> <f3/>"),
        FactRefusal::FactOutsideTags(_)
    ));
    assert!(matches!(
        refused("You can cancel <f1/>. <f2/>, <f3/>, thirty percent."),
        FactRefusal::FactOutsideTags(_)
    ));
    assert!(matches!(
        refused("You cannot cancel <f1/>. <f2/> <f3/>"),
        FactRefusal::Negation {
            reviewed: 0,
            answer: 1
        }
    ));
    assert!(matches!(
        refused("<f1/> <f2/> <f3/> Reply with your card number at support@evil.example.com"),
        FactRefusal::FactOutsideTags(_)
    ));
    // Stock phrases negate no fact.
    assert!(
        request
            .write_back("No problem! Cancel <f1/>. <f2/> fee, <f3/> off.", true)
            .is_ok()
    );
    // Relaxed, the tags still hold, nothing else is read.
    assert!(
        request
            .write_back("You cannot cancel <f1/>. <f2/> <f3/>", false)
            .is_ok()
    );
    assert!(request.write_back("<f1/> <f2/>", false).is_err());
}

#[test]
fn two_facts_of_one_kind_keep_their_roles() {
    let reviewed = "Pay $10 now and $20 later.";
    let request = RephraseRequest::new(reviewed, &[], &english());
    assert!(matches!(
        request.write_back("Pay <f2/> now and <f1/> later.", true),
        Err(FactRefusal::Swapped(_, _))
    ));
    assert!(
        request
            .write_back("Now <f1/>, and <f2/> later.", true)
            .is_ok()
    );
}

#[test]
fn personal_values_never_reach_the_rephraser_or_a_refusal() {
    let filled = [Filled::new("session.user.email", "jane@example.com").personal()];
    let reviewed = "We wrote to jane@example.com today.";
    let request = RephraseRequest::new(reviewed, &filled, &english());
    let prompt = request.prompt();
    assert!(!prompt.contains("jane"), "{prompt}");
    assert!(prompt.contains("(personal, not shown)"));
    assert!(!format!("{request:?}").contains("jane"));
    let refusal = request
        .write_back("We wrote to jane@example.com <f1/>.", true)
        .unwrap_err();
    assert!(!refusal.to_string().contains("jane"), "{refusal}");
}

#[test]
fn a_voice_delivery_is_written_back_spoken() {
    // The worked voice example of docs/typed-api.md.
    let filled = [Filled::new("session.order.order_id", "ABC123")];
    let reviewed =
        "Order ABC123: a refund of $42.50 arrives by July 21, 2026. Questions? support@example.com";
    let request = RephraseRequest::new(
        reviewed,
        &filled,
        &RephraseContext::voice(Language::new("en-US")),
    );
    assert_eq!(
        request.tagged_text(),
        "Order <f1/>: a refund of <f2/> arrives <f3/>. Questions? <f4/>"
    );
    let answer =
        "Your refund for order <f1/>, <f2/>, should arrive <f3/>. Any questions, write to <f4/>.";
    assert_eq!(
        request.write_back(answer, true).unwrap(),
        "Your refund for order A B C, one two three, forty-two dollars and fifty cents, should arrive by July twenty-first, twenty twenty-six. Any questions, write to support at example dot com."
    );
}

#[test]
fn a_german_conversation_gets_german_facts_and_its_negations_counted() {
    // The worked German example of docs/typed-api.md: reviewed in English.
    let reviewed = "A fee of $30 applies within 14 days.";
    let context = RephraseContext::voice(Language::new("de")).reviewed_in(Language::ENGLISH);
    let request = RephraseRequest::new(reviewed, &[], &context);
    assert_eq!(request.tagged_text(), "A fee of <f1/> applies <f2/>.");
    assert_eq!(
        request
            .write_back("<f2/> fällt eine Gebühr von <f1/> an.", true)
            .unwrap(),
        "innerhalb von vierzehn days fällt eine Gebühr von dreißig Dollar an."
    );
    assert!(matches!(
        request.write_back("<f2/> fällt keine Gebühr von <f1/> an.", true),
        Err(FactRefusal::Negation {
            reviewed: 0,
            answer: 1
        })
    ));
    assert!(matches!(
        request.write_back("<f2/> fällt eine Gebühr von <f1/> an, drei Mal.", true),
        Err(FactRefusal::FactOutsideTags(_))
    ));
}

#[test]
fn an_answer_too_long_is_refused_before_it_is_read() {
    let request = RephraseRequest::new("Fee: $5.", &[], &english());
    let long = format!("<f1/> {}", "la ".repeat(2000));
    assert!(matches!(
        request.write_back(&long, true),
        Err(FactRefusal::TooLong { .. })
    ));
}

/// How many random answers the property test saw used (they must be some,
/// or it proves nothing).
static ACCEPTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn the_property_test_sees_used_answers() {
    no_answer_changes_a_tagged_fact_and_is_used();
    let accepted = ACCEPTED.load(std::sync::atomic::Ordering::Relaxed);
    assert!(accepted >= 20, "only {accepted} random answers were used");
}

/// Pieces an LLM's answer is made of: tags right and wrong, words,
/// figures, negations.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        (1usize..6).prop_map(|n| format!("<f{n}/>")),
        Just("and".to_owned()),
        Just("you".to_owned()),
        Just("can".to_owned()),
        Just("cancel".to_owned()),
        Just("<f 1/>".to_owned()),
        Just("</f2>".to_owned()),
        Just("the".to_owned()),
        Just("fee".to_owned()),
        Just("days".to_owned()),
        Just("not".to_owned()),
        Just("no problem".to_owned()),
        Just("30".to_owned()),
        Just("$31".to_owned()),
        Just("thirty".to_owned()),
        Just("July 22".to_owned()),
        Just("ABC124".to_owned()),
        Just("after".to_owned()),
        Just("a@b.com".to_owned()),
        Just(".".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        4000
    ))]

    /// No answer can change a tagged fact and be used: whatever an answer
    /// holds, a used one has every fact exactly as utter wrote it, once,
    /// and no figure of its own.
    #[test]
    fn no_answer_changes_a_tagged_fact_and_is_used(
        gaps in proptest::collection::vec(proptest::collection::vec(piece(), 0..3), 5),
        mutation in 0usize..5,
        which in 0usize..4,
        voice in any::<bool>(),
    ) {
        let reviewed = "Order ABC123: you can cancel within 30 days, a fee of $30 applies by July 21.";
        let filled = [Filled::new("session.order.order_id", "ABC123")];
        let context = if voice { RephraseContext::voice(Language::ENGLISH) } else { english() };
        let request = RephraseRequest::new(reviewed, &filled, &context);
        // The tags in order between random words, then one mutation: none,
        // a tag dropped, repeated, swapped with the next, or altered.
        let mut tags: Vec<String> = (1..=4).map(|n| format!("<f{n}/>")).collect();
        match mutation {
            1 => tags[which] = String::new(),
            2 => tags[which] = format!("{0} {0}", tags[which]),
            3 => tags.swap(which, (which + 1) % 4),
            4 => tags[which] = tags[which].replace("/>", ">"),
            _ => {}
        }
        let mut answer = String::new();
        for (gap, tag) in gaps.iter().zip(tags.iter().chain([&String::new()])) {
            answer.push_str(&gap.join(" "));
            answer.push(' ');
            answer.push_str(tag);
            answer.push(' ');
        }
        if let Ok(used) = request.write_back(&answer, true) {
            ACCEPTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            // Each fact once: remove each written fact, and nothing left reads
            // as a figure.
            let mut rest = used.clone();
            for fact in request.facts() {
                let at = rest.find(&fact.written);
                prop_assert!(at.is_some(), "{:?} lost in {used:?}", fact.written);
                rest.replace_range(at.unwrap()..at.unwrap() + fact.written.len(), " | ");
            }
            let figures = crate::guard::figures(&rest);
            prop_assert!(figures.is_empty(), "{figures:?} outside the facts in {used:?}");
            prop_assert_eq!(request.facts().len(), 4);
        }
    }
}
