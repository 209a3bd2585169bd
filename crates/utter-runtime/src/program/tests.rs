//! The program evaluator on hand-encoded and corrupted data.

use super::*;
use crate::memory::{Context, MapMemory, Visibility};
use crate::types::EntryType;
use proptest::prelude::*;

const ENTRIES: [Entry; 1] = [Entry {
    id: 0,
    namespace: "s",
    name: "n",
    visibility: Visibility::Public,
    unset_text: None,
    ty: EntryType::Any,
    values: &[],
}];

fn le(n: u32) -> [u8; 4] {
    n.to_le_bytes()
}

/// `utter_x`: `n < 5` -> "small {n}" (variant 0), else "big" (variant 1).
fn program_bytes() -> (String, Vec<u8>, Vec<u8>) {
    let strings = "utter_xsmall {session.s.n}big".to_owned();
    let mut code = Vec::new();
    // Condition at 0: COMPARE(end, 1 operand) REF 0, Lt, INT 5.
    code.push(COMPARE);
    code.extend(le(0));
    code.extend(le(1));
    code.push(REF);
    code.extend(le(0));
    code.push(2); // Lt
    code.push(INT);
    code.extend(5i64.to_le_bytes());
    let end = code.len() as u32;
    code[1..5].copy_from_slice(&le(end));
    let record = code.len() as u32;
    code.extend(le(0)); // name offset
    code.extend(le(7)); // name length
    code.extend(le(1)); // default: variant 1
    code.extend(le(2)); // two variants
    // Variant 0: condition at 0, not rephrased, two pieces.
    let mut pieces = vec![TEXT];
    pieces.extend(le(7));
    pieces.extend(le(6)); // "small "
    pieces.push(SESSION);
    pieces.extend(le(0));
    pieces.extend(le(13));
    pieces.extend(le(13)); // "{session.s.n}"
    code.extend(le(0));
    code.push(0);
    code.extend(le(2));
    code.extend(le(pieces.len() as u32));
    code.extend(le(30));
    code.extend(&pieces);
    // Variant 1: unconditioned, rephrased, "big".
    code.extend(le(ABSENT));
    code.push(1);
    code.extend(le(1));
    code.extend(le(9));
    code.extend(le(3));
    code.push(TEXT);
    code.extend(le(26));
    code.extend(le(3));
    (strings, code, le(record).to_vec())
}

#[test]
fn a_hand_encoded_program_selects_and_renders() {
    let (strings, code, responses) = program_bytes();
    let program = Program {
        strings: &strings,
        code: &code,
        responses: &responses,
    };
    let small = MapMemory::new().with("s", "n", 3);
    let big = MapMemory::new().with("s", "n", 7);
    let text = MapMemory::new().with("s", "n", "a");
    let deliver = |memory: &MapMemory| program.deliver(0, &ENTRIES, &Context::new(memory));
    let d = deliver(&small);
    assert_eq!(
        (d.text.as_ref(), d.variant, d.rephrase),
        ("small 3", Some(0), false)
    );
    let d = deliver(&big);
    assert_eq!(
        (d.text.as_ref(), d.variant, d.rephrase),
        ("big", Some(1), true)
    );
    // `"a" < 5` is an error: the variant is skipped.
    assert_eq!(deliver(&text).variant, Some(1));
    assert!(program.evaluate(0, &ENTRIES, &Context::new(&text)).is_err());
    assert_eq!(program.name(0), Some("utter_x"));
    // No such response: nothing to select.
    assert_eq!(program.select(1, &ENTRIES, &Context::new(&small)), None);
}

fn scalar() -> impl Strategy<Value = crate::value::Value> {
    use crate::value::Value;
    prop_oneof![
        Just(Value::None),
        any::<bool>().prop_map(Value::Bool),
        prop_oneof![any::<i64>(), -3i64..3].prop_map(Value::Int),
        prop_oneof![any::<f64>(), Just(1.0), Just(f64::NAN)].prop_map(Value::Float),
        "[a-c]{0,2}".prop_map(Value::Str),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The specialised comparison of an entry with a literal is the
    /// general rule.
    #[test]
    fn literal_comparisons_are_the_general_rule(
        value in scalar(),
        literal in scalar(),
        op in 0usize..6,
    ) {
        let op = OPERATORS[op];
        prop_assert_eq!(
            compare_literal(op, value.as_ref(), literal.as_ref()),
            compare(op, value.as_ref(), literal.as_ref())
        );
    }

    /// Data that does not decode never panics: it selects nothing, or
    /// whatever it happens to say, and renders what it can.
    #[test]
    fn garbage_never_panics(
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in any::<usize>(),
    ) {
        let (strings, mut code, responses) = program_bytes();
        for (at, byte) in flips {
            let at = at % code.len();
            code[at] = byte;
        }
        code.truncate(cut % (code.len() + 1));
        let program = Program { strings: &strings, code: &code, responses: &responses };
        let memory = MapMemory::new().with("s", "n", 3);
        let ctx = Context::new(&memory);
        let _ = program.deliver(0, &ENTRIES, &ctx);
        let _ = program.select(0, &ENTRIES, &ctx);
        let _ = program.evaluate(0, &ENTRIES, &ctx);
    }
}
