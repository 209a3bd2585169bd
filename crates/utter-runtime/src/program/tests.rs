//! The program format: built through its encoder, read by its evaluator,
//! and the evaluator on corrupted data.

use super::eval::compare_literal;
use super::*;
use crate::memory::{Context, MapMemory, Visibility};
use crate::piece::Piece;
use crate::types::EntryType;
use crate::value::Value;
use crate::value::{CmpOp, ValueRef, compare};
use crate::wording::WordingId;
use proptest::prelude::*;

const ENTRIES: [Entry; 2] = [
    Entry {
        id: 0,
        namespace: "s",
        name: "n",
        visibility: Visibility::Public,
        unset_text: None,
        ty: EntryType::Any,
        values: &[],
        pii: false,
    },
    Entry {
        id: 1,
        namespace: "s",
        name: "m",
        visibility: Visibility::Public,
        unset_text: Some("(unset)"),
        ty: EntryType::Any,
        values: &[],
        pii: false,
    },
];

/// A condition tree for the tests: what the compiler's parsed conditions
/// are to the encoder.
#[derive(Clone, Debug)]
enum Cond {
    Or(Vec<Cond>),
    And(Vec<Cond>),
    Not(Box<Cond>),
    Compare(Box<Cond>, Vec<(CmpOp, Cond)>),
    Ref(usize),
    Lit(Value),
}

impl Condition for Cond {
    fn node(&self) -> Node<'_, Self> {
        match self {
            Cond::Or(items) => Node::Or(items),
            Cond::And(items) => Node::And(items),
            Cond::Not(inner) => Node::Not(inner),
            Cond::Compare(first, rest) => Node::Compare { first, rest },
            Cond::Ref(id) => Node::Ref(*id),
            Cond::Lit(value) => Node::Lit(match value {
                Value::Bool(b) => Literal::Bool(*b),
                Value::Int(i) => Literal::Int(*i),
                Value::Float(f) => Literal::Float(*f),
                Value::Str(s) => Literal::Str(s),
                _ => Literal::None,
            }),
        }
    }
}

/// What a node means, written directly: the specification the encoded
/// program must meet (`or`/`and` yield a bool, comparisons chain).
fn meaning<'a>(cond: &'a Cond, ctx: &'a Context<'_>) -> Result<ValueRef<'a>, EvalError> {
    Ok(match cond {
        Cond::Or(items) | Cond::And(items) => {
            let stop_at = matches!(cond, Cond::Or(_));
            for item in items {
                if meaning(item, ctx)?.truthy() == stop_at {
                    return Ok(ValueRef::Bool(stop_at));
                }
            }
            ValueRef::Bool(!stop_at)
        }
        Cond::Not(inner) => ValueRef::Bool(!meaning(inner, ctx)?.truthy()),
        Cond::Compare(first, rest) => {
            let mut left = meaning(first, ctx)?;
            for (op, operand) in rest {
                let right = meaning(operand, ctx)?;
                if !compare(*op, left, right)? {
                    return Ok(ValueRef::Bool(false));
                }
                left = right;
            }
            ValueRef::Bool(true)
        }
        Cond::Ref(id) => ctx.value(&ENTRIES[*id]),
        Cond::Lit(value) => value.as_ref(),
    })
}

/// `utter_x`: `n < 5` -> "small {session.s.n}" (variant 0), else "big"
/// (variant 1, rephrased).
fn small_or_big() -> ProgramData {
    let condition = Cond::Compare(
        Box::new(Cond::Ref(0)),
        vec![(CmpOp::Lt, Cond::Lit(Value::Int(5)))],
    );
    let small: [Piece<String, Vec<usize>>; 2] = [
        Piece::Text("small ".into()),
        Piece::Session {
            entry: 0,
            raw: "{session.s.n}".into(),
        },
    ];
    let big: [Piece<String, Vec<usize>>; 1] = [Piece::Text("big".into())];
    let mut data = ProgramData::default();
    data.response(
        "utter_x",
        Some(1),
        &[
            VariantSource {
                condition: Some(&condition),
                rephrase: false,
                wording: WordingId(0x0123_4567_89ab_cdef),
                pieces: &small,
            },
            VariantSource {
                condition: None,
                rephrase: true,
                wording: WordingId(u64::MAX),
                pieces: &big,
            },
        ],
    );
    data
}

#[test]
fn a_declared_value_is_compared_by_number() {
    let cond = Cond::Compare(
        Box::new(Cond::Ref(0)),
        vec![(CmpOp::Eq, Cond::Lit(Value::Str("c".into())))],
    );
    let mut data = ProgramData::default();
    data.declare_values(0, &VALUES);
    let at = data.condition(&cond) as usize;
    let record = &data.code[at + 1..];
    assert_eq!(record[cmp_lit::LITERAL], cmp_lit::CATEGORICAL);
    assert_eq!(record[cmp_lit::VALUE_INDEX], 2, "\"c\" is value number 2");
    // Not declared: compared by text.
    let mut plain = ProgramData::default();
    let at = plain.condition(&cond) as usize;
    assert_eq!(plain.code[at + 1 + cmp_lit::LITERAL], NodeTag::Str as u8);
}

#[test]
fn an_encoded_program_selects_and_renders() {
    let data = small_or_big();
    let program = data.program();
    let small = MapMemory::new().with("s", "n", 3);
    let big = MapMemory::new().with("s", "n", 7);
    let text = MapMemory::new().with("s", "n", "a");
    let deliver = |memory: &MapMemory| program.deliver(0, &ENTRIES, &Context::new(memory));
    let d = deliver(&small);
    assert_eq!(
        (d.text.as_ref(), d.variant, d.rephrase, d.wording),
        (
            "small 3",
            Some(0),
            false,
            Some(WordingId(0x0123_4567_89ab_cdef))
        )
    );
    let d = deliver(&big);
    assert_eq!(
        (d.text.as_ref(), d.variant, d.rephrase, d.wording),
        ("big", Some(1), true, Some(WordingId(u64::MAX)))
    );
    // `"a" < 5` is an error: the variant is skipped.
    assert_eq!(deliver(&text).variant, Some(1));
    // Conditions come before the record that points at them; `n < 5` is one node.
    assert_eq!(
        NodeTag::try_from(data.code[0]),
        Ok(NodeTag::CmpLit),
        "`n < 5`: one node"
    );
    assert!(program.evaluate(0, &ENTRIES, &Context::new(&text)).is_err());
    assert_eq!(program.name(0), Some("utter_x"));
    // No such response: nothing to select.
    assert_eq!(program.select(1, &ENTRIES, &Context::new(&small)), None);
}

/// What compiled selection hands over is what the program delivers (a
/// number past the response's variants delivers the name); without it, the
/// program selects as `deliver` does.
#[test]
fn a_selection_made_by_compiled_code_is_delivered() {
    let mut data = small_or_big();
    let plain: [Piece<String, Vec<usize>>; 1] = [Piece::Text("plain".into())];
    let only: VariantSource<'_, Cond> = VariantSource {
        condition: None,
        rephrase: false,
        wording: WordingId(3),
        pieces: &plain,
    };
    data.response("utter_y", Some(0), &[only]);
    let program = data.program();
    let small = MapMemory::new().with("s", "n", 3);
    let big = MapMemory::new().with("s", "n", 7);
    let delivered = |response, compiled, memory: &MapMemory| {
        let ctx = Context::new(memory);
        let d = program.deliver_selected(response, compiled, &ENTRIES, &ctx);
        (d.text.into_owned(), d.variant, d.rephrase, d.fallback)
    };
    let small_3 = ("small 3".to_owned(), Some(0), false, false);
    let big_1 = ("big".to_owned(), Some(1), true, false);
    let name = ("utter_x".to_owned(), None, false, true);
    // Compiled code decides, whatever the memory says.
    assert_eq!(delivered(0, Choice::Compiled(Some(0)), &small), small_3);
    assert_eq!(delivered(0, Choice::Compiled(Some(1)), &small), big_1);
    assert_eq!(delivered(0, Choice::Compiled(None), &small), name);
    assert_eq!(delivered(0, Choice::Compiled(Some(2)), &small), name);
    assert_eq!(delivered(0, Choice::Compiled(Some(usize::MAX)), &big), name);
    // Else the program selects.
    assert_eq!(delivered(0, Choice::Walk, &small), small_3);
    assert_eq!(delivered(0, Choice::Walk, &big), big_1);
    let plain = ("plain".to_owned(), Some(0), false, false);
    assert_eq!(delivered(1, Choice::Walk, &small), plain);
    assert_eq!(delivered(1, Choice::Compiled(Some(0)), &small), plain);
    // No such response.
    let none = (String::new(), None, false, true);
    assert_eq!(delivered(2, Choice::Compiled(Some(0)), &small), none);
    assert_eq!(delivered(2, Choice::Walk, &small), none);
    let ctx = Context::new(&small);
    let rendered = |compiled| {
        let (name, chosen) = program.rendered_selected(0, compiled, &ENTRIES, &ctx);
        (name, chosen.map(|(index, rephrase, _)| (index, rephrase)))
    };
    assert_eq!(
        rendered(Choice::Compiled(Some(1))),
        ("utter_x", Some((1, true)))
    );
    assert_eq!(rendered(Choice::Compiled(Some(2))), ("utter_x", None));
    assert_eq!(rendered(Choice::Walk), ("utter_x", Some((0, false))));
}

/// Variants 0 to 3 compare one entry with ints (a run, 3 repeated),
/// variant 4 holds, the default is 5.
#[test]
fn a_run_of_int_equalities_is_decided_at_once() {
    let eq = |k: i64| {
        Cond::Compare(
            Box::new(Cond::Ref(0)),
            vec![(CmpOp::Eq, Cond::Lit(Value::Int(k)))],
        )
    };
    let conditions = [eq(10), eq(3), eq(-7), eq(3), Cond::Lit(Value::Bool(true))];
    let text: [Piece<String, Vec<usize>>; 0] = [];
    let mut sources: Vec<VariantSource<'_, Cond>> = conditions
        .iter()
        .map(|c| VariantSource {
            condition: Some(c),
            rephrase: false,
            wording: WordingId(4),
            pieces: &text,
        })
        .collect();
    sources.push(VariantSource {
        condition: None,
        rephrase: false,
        wording: WordingId(5),
        pieces: &text,
    });
    let mut data = ProgramData::default();
    data.response("utter_run", Some(5), &sources);
    let program = data.program();
    let first = le32(
        program.variants.first_chunk::<{ variant::LEN }>().unwrap(),
        variant::CONDITION,
    );
    assert_eq!(
        NodeTag::try_from(data.code[first as usize]),
        Ok(NodeTag::IntRun)
    );
    let select = |value: Value| {
        let memory = MapMemory::new().with("s", "n", value);
        program.select(0, &ENTRIES, &Context::new(&memory))
    };
    assert_eq!(select(Value::Int(10)), Some(0));
    assert_eq!(select(Value::Float(10.0)), Some(0));
    assert_eq!(
        select(Value::Int(3)),
        Some(1),
        "the first of a repeated literal"
    );
    assert_eq!(select(Value::Int(-7)), Some(2));
    assert_eq!(
        select(Value::Bool(true)),
        Some(4),
        "True == 1: no key, the next condition"
    );
    assert_eq!(select(Value::Str("3".into())), Some(4));
    assert_eq!(select(Value::None), Some(4));
    assert_eq!(select(Value::Float(3.5)), Some(4));
}

/// The values the tests declare for both entries, as categorical.
const VALUES: [&str; 3] = ["a", "b", "c"];

/// A reader that answers categorical comparisons by the value's number
/// only (as a typed view does): a wrong number in the program shows.
struct ByNumber<'c>(Context<'c>);

impl Reader for ByNumber<'_> {
    fn skill_id(&self) -> Option<&str> {
        self.0.skill_id()
    }

    fn value<S: AsRef<str>, V>(&self, entry: &Entry<S, V>) -> ValueRef<'_> {
        self.0.value(entry)
    }

    fn holds_text<S: AsRef<str>, V>(&self, entry: &Entry<S, V>, index: usize, _: &str) -> bool {
        VALUES
            .get(index)
            .is_some_and(|v| crate::fast::eq_str(self.0.value(entry), v))
    }
}

/// `entry ==/!= 'text'` (either way round), with declared values and not.
fn text_equality() -> impl Strategy<Value = Cond> {
    let text = prop_oneof![Just("a"), Just("b"), Just("c"), Just("ab"), Just("")];
    (0usize..2, text, any::<bool>(), any::<bool>()).prop_map(|(entry, text, ne, flipped)| {
        let op = if ne { CmpOp::Ne } else { CmpOp::Eq };
        let (entry, text) = (Cond::Ref(entry), Cond::Lit(Value::Str(text.into())));
        let (first, other) = if flipped {
            (text, entry)
        } else {
            (entry, text)
        };
        Cond::Compare(Box::new(first), vec![(op, other)])
    })
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::None),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![any::<i64>(), -3i64..3].prop_map(Value::Int),
        prop_oneof![any::<f64>(), Just(1.0), Just(f64::NAN)].prop_map(Value::Float),
        "[a-c]{0,2}".prop_map(Value::Str),
    ]
}

fn operator_strategy() -> impl Strategy<Value = CmpOp> {
    (0u8..6).prop_map(|b| operator(b).expect("six operators"))
}

fn condition() -> impl Strategy<Value = Cond> {
    let leaf = prop_oneof![
        (0usize..2).prop_map(Cond::Ref),
        scalar().prop_map(Cond::Lit)
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(Cond::Or),
            prop::collection::vec(inner.clone(), 1..3).prop_map(Cond::And),
            inner.clone().prop_map(|c| Cond::Not(Box::new(c))),
            (
                inner.clone(),
                prop::collection::vec((operator_strategy(), inner), 1..3)
            )
                .prop_map(|(first, rest)| Cond::Compare(Box::new(first), rest)),
        ]
    })
}

fn piece() -> impl Strategy<Value = Piece<String, Vec<usize>>> {
    prop_oneof![
        "[a-z {}]{0,6}".prop_map(Piece::Text),
        (0usize..3).prop_map(|entry| Piece::Session {
            entry,
            raw: format!("{{session.s.{entry}}}"),
        }),
        prop::collection::vec(0usize..3, 0..3).prop_map(|candidates| Piece::Bare {
            candidates,
            raw: "{m}".into(),
        }),
    ]
}

/// A response to encode: name, default, variants (condition, rephrase, pieces).
type Source = (
    String,
    Option<usize>,
    Vec<(Option<Cond>, bool, Vec<Piece<String, Vec<usize>>>)>,
);

/// `entry == k` (either way round) with small ints: consecutive ones on
/// one entry are encoded as a run.
fn int_equality() -> impl Strategy<Value = Cond> {
    (0usize..2, -2i64..3, any::<bool>()).prop_map(|(entry, k, flipped)| {
        let (entry, k) = (Cond::Ref(entry), Cond::Lit(Value::Int(k)));
        let (first, other) = if flipped { (k, entry) } else { (entry, k) };
        Cond::Compare(Box::new(first), vec![(CmpOp::Eq, other)])
    })
}

fn response() -> impl Strategy<Value = Source> {
    (
        "utter_[a-z]{1,6}",
        prop::collection::vec(
            (
                prop::option::of(prop_oneof![condition(), int_equality(), int_equality()]),
                any::<bool>(),
                prop::collection::vec(piece(), 0..4),
            ),
            0..6,
        ),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(name, variants, default)| {
            let default = (!variants.is_empty()).then(|| default.index(variants.len()));
            (name, default, variants)
        })
}

/// A wording id of every bit pattern's kind, distinct per response and variant.
fn wording_of(response: usize, variant: usize) -> WordingId {
    WordingId(((response as u64) << 32 | variant as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn encode(responses: &[Source]) -> ProgramData {
    let mut data = ProgramData::default();
    for (r, (name, default, variants)) in responses.iter().enumerate() {
        let sources: Vec<VariantSource<'_, Cond>> = variants
            .iter()
            .enumerate()
            .map(|(v, (condition, rephrase, pieces))| VariantSource {
                condition: condition.as_ref(),
                rephrase: *rephrase,
                wording: wording_of(r, v),
                pieces,
            })
            .collect();
        data.response(name, *default, &sources);
    }
    data
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The specialised comparison of an entry with a literal is the
    /// general rule.
    #[test]
    fn literal_comparisons_are_the_general_rule(
        value in scalar(),
        literal in scalar(),
        op in operator_strategy(),
    ) {
        prop_assert_eq!(
            compare_literal(op, value.as_ref(), literal.as_ref()),
            compare(op, value.as_ref(), literal.as_ref())
        );
    }

    /// What the encoder writes, the evaluator reads back: every response's
    /// name, every condition's meaning, the selected variant, its rephrase
    /// flag and its text rendered piece by piece.
    #[test]
    fn encoded_responses_read_back(
        responses in prop::collection::vec(response(), 1..4),
        n in scalar(),
        m in scalar(),
    ) {
        let data = encode(&responses);
        let program = data.program();
        let memory = MapMemory::new().with("s", "n", n).with("s", "m", m);
        let ctx = Context::new(&memory);
        for (index, (name, default, variants)) in responses.iter().enumerate() {
            prop_assert_eq!(program.name(index), Some(name.as_str()));
            let expected = variants
                .iter()
                .position(|(condition, _, _)| {
                    condition.as_ref().is_some_and(|c| meaning(c, &ctx).is_ok_and(ValueRef::truthy))
                })
                .or(*default);
            prop_assert_eq!(program.select(index, &ENTRIES, &ctx), expected);
            let delivery = program.deliver(index, &ENTRIES, &ctx);
            match expected {
                Some(v) => {
                    let (_, rephrase, pieces) = &variants[v];
                    let pieces: Vec<Piece<&str, &[usize]>> = pieces
                        .iter()
                        .map(|p| match p {
                            Piece::Text(t) => Piece::Text(t.as_str()),
                            Piece::Session { entry, raw } => Piece::Session { entry: *entry, raw: raw.as_str() },
                            Piece::Bare { candidates, raw } => Piece::Bare { candidates: candidates.as_slice(), raw: raw.as_str() },
                        })
                        .collect();
                    let text = crate::template::render(&pieces, &ENTRIES, &ctx);
                    prop_assert_eq!(delivery.text.as_ref(), text.as_ref());
                    prop_assert_eq!(delivery.rephrase, *rephrase);
                    prop_assert_eq!(delivery.wording, Some(wording_of(index, v)));
                }
                None => prop_assert!(delivery.fallback && delivery.wording.is_none()),
            }
        }
    }

    /// Every condition evaluates to what it means (or fails as it does).
    #[test]
    fn encoded_conditions_read_back(cond in condition(), n in scalar(), m in scalar()) {
        let mut data = ProgramData::default();
        let at = data.condition(&cond) as usize;
        let memory = MapMemory::new().with("s", "n", n).with("s", "m", m);
        let ctx = Context::new(&memory);
        let expected = meaning(&cond, &ctx).map(ValueRef::truthy);
        prop_assert_eq!(data.program().evaluate(at, &ENTRIES, &ctx), expected);
    }

    /// Categorical comparisons are encoded by the value's number, and a
    /// reader that decides by number agrees with the text, nested in any
    /// condition.
    #[test]
    fn categorical_comparisons_read_back(
        cond in prop_oneof![text_equality(), condition()].prop_recursive(2, 8, 3, |inner| prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(Cond::Or),
            prop::collection::vec(inner.clone(), 1..3).prop_map(Cond::And),
            inner.prop_map(|c| Cond::Not(Box::new(c))),
        ]),
        n in prop_oneof![Just(Value::Str("a".into())), Just(Value::Str("c".into())), scalar()],
        m in prop_oneof![Just(Value::Str("b".into())), scalar()],
    ) {
        let mut data = ProgramData::default();
        data.declare_values(0, &VALUES);
        data.declare_values(1, &VALUES);
        let at = data.condition(&cond) as usize;
        let memory = MapMemory::new().with("s", "n", n).with("s", "m", m);
        let ctx = Context::new(&memory);
        let expected = meaning(&cond, &ctx).map(ValueRef::truthy);
        let program = data.program();
        prop_assert_eq!(program.evaluate(at, &ENTRIES, &ByNumber(Context::new(&memory))), expected);
        prop_assert_eq!(program.evaluate(at, &ENTRIES, &ctx), expected);
        // And as a variant's condition, decided by selection.
        let none: [Piece<String, Vec<usize>>; 0] = [];
        let mut data = ProgramData::default();
        data.declare_values(0, &VALUES);
        data.declare_values(1, &VALUES);
        data.response("utter_c", None, &[VariantSource { condition: Some(&cond), rephrase: false, wording: WordingId(6), pieces: &none }]);
        let selected = data.program().select(0, &ENTRIES, &ByNumber(Context::new(&memory)));
        prop_assert_eq!(selected.is_some(), matches!(meaning(&cond, &ctx), Ok(v) if v.truthy()));
    }

    /// Data that does not decode never panics: it selects nothing, or
    /// whatever it happens to say, and renders what it can.
    #[test]
    fn garbage_never_panics(
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in any::<usize>(),
    ) {
        let ProgramData { strings, code, responses, variants, .. } = small_or_big();
        // Every table corrupted: flipped bytes, then cut short.
        let mut tables = [code, responses, variants];
        for (at, byte) in flips {
            let table = &mut tables[at % 3];
            let at = (at / 3) % table.len();
            table[at] = byte;
        }
        let table = &mut tables[cut % 3];
        table.truncate((cut / 3) % (table.len() + 1));
        let [code, responses, variants] = tables;
        let program = Program { strings: &strings, code: &code, responses: &responses, variants: &variants };
        let memory = MapMemory::new().with("s", "n", 3);
        let ctx = Context::new(&memory);
        let _ = program.deliver(0, &ENTRIES, &ctx);
        let _ = program.select(0, &ENTRIES, &ctx);
        let _ = program.evaluate(0, &ENTRIES, &ctx);
        for compiled in [Choice::Walk, Choice::Compiled(None), Choice::Compiled(Some(0)), Choice::Compiled(Some(1)), Choice::Compiled(Some(usize::MAX))] {
            let _ = program.deliver_selected(0, compiled, &ENTRIES, &ctx);
            let _ = program.rendered_selected(0, compiled, &ENTRIES, &ctx);
        }
    }
}
