//! Every comparison operator of the runtime's table (`CmpOp::ALL`) passes
//! through every layer: the parser, the type analysis, the lowering, the
//! compact format and the interpreter, and the variant analysis. Adding an
//! operator to the table without a layer makes this fail (CONTRIBUTING.md,
//! "Adding a comparison operator"); the generated code gets it from the
//! generative tests, whose operators come from the same table.

use utter::{CmpOp, Value, compare};
use utter_compiler::analysis::{Budget, Verdict, analyse};
use utter_compiler::codes;
use utter_compiler::condition::{Expr, parse};
use utter_tests::{checked, deliver, memory, registry};

const MEMORY: &str = "\
n:\n  type: any\ni:\n  type: int\n";

/// Right-hand literals as written, and the value each stands for.
fn literals() -> Vec<(&'static str, Value)> {
    vec![
        ("1", Value::Int(1)),
        ("1.5", Value::Float(1.5)),
        ("'b'", Value::Str("b".into())),
        ("True", Value::Bool(true)),
        ("None", Value::None),
    ]
}

/// Values memory may hold (`None`: unset).
fn values() -> Vec<Value> {
    vec![
        Value::None,
        Value::Int(0),
        Value::Int(1),
        Value::Int(2),
        Value::Float(1.5),
        Value::Str("a".into()),
        Value::Str("b".into()),
        Value::Str("c".into()),
        Value::Bool(true),
        Value::Bool(false),
    ]
}

#[test]
fn the_parser_reads_every_operator_of_the_table() {
    for op in CmpOp::ALL {
        assert_eq!(CmpOp::from_symbol(op.symbol()), Some(op));
        let text = format!("session.project.n {} 1", op.symbol());
        match parse(&text) {
            Ok(Expr::Compare { rest, .. }) => assert_eq!(rest[0].0, op, "{text}"),
            other => panic!("{text} parsed as {other:?}"),
        }
    }
}

#[test]
fn every_operator_is_delivered_as_python_compares() {
    let mut held = [0usize; CmpOp::ALL.len()];
    for (k, op) in CmpOp::ALL.into_iter().enumerate() {
        for (literal, right) in literals() {
            let condition = format!("session.project.n {} {literal}", op.symbol());
            let responses = format!(
                "responses:\n  utter_x:\n    - text: held\n      condition: \"{condition}\"\n    - text: default\n"
            );
            let files = [
                ("memory.yml", MEMORY),
                ("responses.yml", responses.as_str()),
            ];
            // The type analysis refuses it only where every value is a
            // TypeError (ordering against None); else an `any` entry: no claim.
            let found = checked(&files);
            let always_error = values()
                .iter()
                .all(|v| compare(op, v.as_ref(), right.as_ref()).is_err());
            assert_eq!(
                found.has_errors(),
                always_error,
                "{condition}: {:?}",
                found.findings
            );
            if always_error {
                assert!(found.errors().all(|f| f.code == codes::TYPE_MISMATCH));
                continue;
            }
            let registry = registry(&files);
            let response = registry
                .responses
                .iter()
                .find(|r| r.name == "utter_x")
                .expect("lowered");
            match &response.variants[0].condition {
                Some(Expr::Compare { rest, .. }) => assert_eq!(rest[0].0, op),
                other => panic!("{condition} lowered as {other:?}"),
            }
            // The interpreter runs the compact form.
            for value in values() {
                let memory = memory(&[("project", "n", value.clone())]);
                let (_, variant, _, _) = deliver(&registry, "utter_x", None, &memory);
                let expected = compare(op, value.as_ref(), right.as_ref()) == Ok(true);
                assert_eq!(
                    variant == Some(0),
                    expected,
                    "{condition} with n = {value:?}"
                );
                held[k] += usize::from(expected);
            }
        }
    }
    assert!(
        held.iter().all(|&n| n > 0),
        "an operator never held: {held:?}"
    );
}

#[test]
fn the_variant_analysis_decides_every_operator_with_a_delivering_witness() {
    for op in CmpOp::ALL {
        let condition = format!("session.project.i {} 1", op.symbol());
        let responses = format!(
            "responses:\n  utter_x:\n    - text: held\n      condition: \"{condition}\"\n    - text: default\n"
        );
        let files = [
            ("memory.yml", MEMORY),
            ("responses.yml", responses.as_str()),
        ];
        let registry = registry(&files);
        let index = registry
            .responses
            .iter()
            .position(|r| r.name == "utter_x")
            .expect("lowered");
        let analysis = analyse(&registry, index, None, &mut Budget::project());
        for (variant, verdict) in analysis.variants.iter().enumerate() {
            let Verdict::Reachable(witness) = verdict else {
                panic!("{condition}: variant {variant} is {verdict:?}");
            };
            let values: Vec<(&str, &str, Value)> = witness
                .0
                .iter()
                .map(|(id, value)| {
                    let e = &registry.entries[*id];
                    (e.namespace.as_str(), e.name.as_str(), value.clone())
                })
                .collect();
            let (_, delivered, _, _) = deliver(&registry, "utter_x", None, &memory(&values));
            assert_eq!(delivered, Some(variant), "{condition}: witness {witness:?}");
        }
    }
}
