//! With the `tracing` feature, every delivery path emits one event (target
//! `utter::delivery`) naming the response, variant, wording id, skill and
//! flags; a capturing subscriber records them. Run with
//! `cargo test -p utter-runtime --features tracing` (CI does).
#![cfg(feature = "tracing")]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use utter_runtime::program::{Choice, Condition, Node, ProgramData, VariantSource};
use utter_runtime::{
    __private, Context, Entry, EntryType, MapMemory, Piece, Rendered, Visibility, WordingId,
};

/// The fields of each event, as text.
type Events = Arc<Mutex<Vec<BTreeMap<String, String>>>>;

struct Capture(Events);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("utter::")
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        fields.insert("level".to_owned(), event.metadata().level().to_string());
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().push(fields);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

static ENTRIES: [Entry; 1] = [Entry {
    id: 0,
    namespace: "card",
    name: "fee",
    visibility: Visibility::Public,
    unset_text: None,
    ty: EntryType::Any,
    values: &[],
    pii: false,
}];

static PIECES: [Piece; 2] = [
    Piece::Text("A fee of "),
    Piece::Session {
        entry: 0,
        raw: "{session.card.fee}",
    },
];

static VARIANTS: [__private::Variant; 1] = [__private::Variant {
    pieces: &PIECES,
    literal: None,
    rephrase: true,
    wording: WordingId(0x0123_4567_89ab_cdef),
    capacity: 33,
    writer: None,
}];

/// A condition that is always true (the variant below has none).
struct True;

impl Condition for True {
    fn node(&self) -> Node<'_, Self> {
        Node::Lit(utter_runtime::program::Literal::Bool(true))
    }
}

fn captured(deliver: impl FnOnce()) -> Vec<BTreeMap<String, String>> {
    let events = Events::default();
    tracing::subscriber::with_default(Capture(events.clone()), deliver);
    events.lock().unwrap().clone()
}

fn expected(variant: Option<usize>, wording: Option<&str>) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::from([
        ("level".to_owned(), "INFO".to_owned()),
        ("message".to_owned(), "delivered".to_owned()),
        ("response".to_owned(), "utter_fee".to_owned()),
        ("fallback".to_owned(), variant.is_none().to_string()),
        ("rephrase".to_owned(), variant.is_some().to_string()),
    ]);
    if let Some(v) = variant {
        fields.insert("variant".to_owned(), v.to_string());
    }
    if let Some(w) = wording {
        fields.insert("wording".to_owned(), w.to_owned());
    }
    fields
}

#[test]
fn straight_line_delivery_and_rendering_emit_one_event_each() {
    let memory = MapMemory::new().with("card", "fee", 7.5);
    let ctx = Context::new(&memory);
    let events = captured(|| {
        let selected = __private::pick(&VARIANTS, Some(0));
        let d = __private::deliver("utter_fee", &ENTRIES, &ctx, selected, |_| None);
        assert_eq!(d.text, "A fee of 7.5");
        let r = __private::rendered("utter_fee", &ENTRIES, &ctx, selected, |_| None);
        assert_eq!(r.to_string(), "A fee of 7.5");
        __private::deliver("utter_fee", &ENTRIES, &ctx, None, |_| None);
    });
    let id = Some("0123456789abcdef");
    assert_eq!(
        events,
        [
            expected(Some(0), id),
            expected(Some(0), id),
            expected(None, None)
        ]
    );
}

#[test]
fn program_delivery_emits_one_event_with_the_skill() {
    let mut data = ProgramData::default();
    let pieces: Vec<Piece<String, Vec<usize>>> = vec![Piece::Text("A fee applies".into())];
    let source: VariantSource<'_, True> = VariantSource {
        condition: None,
        rephrase: true,
        wording: WordingId(42),
        pieces: &pieces,
    };
    data.response("utter_fee", Some(0), &[source]);
    let program = data.program();
    let memory = MapMemory::new();
    let skills = ["card"];
    let ctx = Context::for_skill_id(&memory, "card", &skills).unwrap();
    let events = captured(|| {
        program.deliver(0, &ENTRIES, &ctx);
        let program: utter_runtime::program::Program<'static> = utter_runtime::program::Program {
            strings: Box::leak(data.strings.clone().into_boxed_str()),
            code: Box::leak(data.code.clone().into_boxed_slice()),
            responses: Box::leak(data.responses.clone().into_boxed_slice()),
            variants: Box::leak(data.variants.clone().into_boxed_slice()),
        };
        Rendered::compact_selected(program, 0, Choice::Walk, &ENTRIES, &ctx);
    });
    let mut want = expected(Some(0), Some("000000000000002a"));
    want.insert("skill".to_owned(), "card".to_owned());
    assert_eq!(events, [want.clone(), want]);
}

/// Each asked rephrase emits its outcome (target `utter::rephrase`); a
/// variant that does not opt in emits nothing.
#[test]
fn each_rephrase_says_what_happened() {
    let delivery = |rephrase| utter_runtime::Delivery {
        text: "A fee of 7.5 applies".into(),
        response: "utter_fee",
        variant: Some(0),
        rephrase,
        fallback: false,
        wording: Some(WordingId(9)),
        guard: utter_runtime::FactGuard::default(),
    };
    let events = captured(|| {
        delivery(true).speak_with(|_| "No fee applies".to_owned());
        delivery(true).speak_with(|_| "You pay 7.5".to_owned());
        delivery(true).speak_with(|_| "  ".to_owned());
        delivery(true)
            .relax_fact_guard()
            .speak_with(|_| "No fee".to_owned());
        delivery(false).speak_with(|_| "ignored".to_owned());
    });
    let outcomes: Vec<(&str, Option<&str>, &str)> = events
        .iter()
        .map(|e| {
            (
                e["outcome"].as_str(),
                e.get("reason").map(String::as_str),
                e["wording"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            (
                "refused",
                Some("the rephrased text lost `7.5`"),
                "0000000000000009"
            ),
            ("used", None, "0000000000000009"),
            ("blank", None, "0000000000000009"),
            ("used_unguarded", None, "0000000000000009"),
        ]
    );
}

/// A refusal's reason in the event names the entry and never carries a
/// value of an entry declared `pii: true`; every value in it is escaped.
#[test]
fn a_refusal_event_keeps_personal_data_out() {
    let delivery = || utter_runtime::Delivery {
        text: "We wrote to jane.doe@example.com about card 4242\n::error::x".into(),
        response: "utter_mail",
        variant: Some(0),
        rephrase: true,
        fallback: false,
        wording: Some(WordingId(3)),
        guard: utter_runtime::FactGuard::On {
            filled: vec![
                utter_runtime::Filled::new("session.pay.email", "jane.doe@example.com").personal(),
                utter_runtime::Filled::new("session.card.last_four", "4242\n::error::x"),
            ]
            .into(),
        },
    };
    let events = captured(|| {
        delivery().speak_with(|_| "We wrote to you about card 4242".to_owned());
        delivery().speak_with(|_| "We wrote to jane.doe@example.com".to_owned());
    });
    let reasons: Vec<&str> = events
        .iter()
        .filter_map(|e| e.get("reason").map(String::as_str))
        .collect();
    assert_eq!(reasons.len(), 2, "{events:?}");
    assert!(reasons[0].contains("session.pay.email"), "{}", reasons[0]);
    assert!(
        reasons[1].contains("session.card.last_four"),
        "{}",
        reasons[1]
    );
    for reason in reasons {
        assert!(
            !reason.contains("jane") && !reason.contains("example"),
            "{reason}"
        );
        assert!(!reason.contains('\n'), "{reason:?}");
    }
}
