//! Memory documents and values from JSON: strictness, locations, types.

use super::*;

#[test]
fn values_round_trip_through_json() {
    let value = Value::Map(vec![
        (
            "a".into(),
            Value::List(vec![Value::Int(1), Value::Float(2.5), Value::None]),
        ),
        ("b".into(), Value::Bool(true)),
        ("c".into(), Value::Str("é".into())),
    ]);
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(text, r#"{"a":[1,2.5,null],"b":true,"c":"é"}"#);
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
}

/// Decimals read as the nearest double, as Python's `float()` does.
#[test]
fn floats_read_exactly() {
    // Rust's `str::parse` is exact: the reference for every case.
    for text in [
        "2210353320000000.25",
        "4.3845252340133454e-184",
        "0.1",
        "1.7976931348623157e308",
        "5e-324",
    ] {
        let got: Value = serde_json::from_str(text).unwrap();
        assert_eq!(got, Value::Float(text.parse().unwrap()), "{text}");
    }
    // The corpus CPython wrote: every decimal reads back to its double.
    let corpus = include_str!("../../../../tests/data/py_float_repr.txt");
    for line in corpus.lines().take(2000) {
        let Some((_, repr)) = line.split_once(' ') else {
            continue;
        };
        if repr.contains(['n', 'i']) {
            continue; // nan, inf
        }
        let got: Value = serde_json::from_str(repr).unwrap();
        assert_eq!(got, Value::Float(repr.parse().unwrap()), "{repr}");
    }
}

#[test]
fn strictness_is_kept() {
    let err = serde_json::from_str::<Value>("{\"a\": 1,\n \"a\": 2}").unwrap_err();
    assert!(err.to_string().contains("duplicate key `a`"), "{err}");
    assert_eq!(err.line(), 2);
    let err = serde_json::from_str::<Value>("[18446744073709551615]").unwrap_err();
    assert!(err.to_string().contains("outside 64 bits"), "{err}");
    let deep = "[".repeat(200) + &"]".repeat(200);
    assert!(serde_json::from_str::<Value>(&deep).is_err());
}

#[test]
fn a_memory_document_becomes_assignments() {
    let got =
        memory_assignments(r#"{"project": {"name": "Ada"}, "s": {"n": 3, "l": [1]}}"#).unwrap();
    let triples: Vec<(&str, &str, &Value)> = got
        .iter()
        .map(|a| (a.namespace.as_str(), a.entry.as_str(), &a.value))
        .collect();
    assert_eq!(
        triples,
        [
            ("project", "name", &Value::from("Ada")),
            ("s", "n", &Value::Int(3)),
            ("s", "l", &Value::List(vec![Value::Int(1)]))
        ]
    );
    let err = memory_assignments(r#"{"s": {"n": 1, "n": 2}}"#).unwrap_err();
    assert!(err.to_string().contains("duplicate key `n`"), "{err}");
    assert!(memory_assignments(r#"{"s": 3}"#).is_err());
    assert!(memory_assignments("[1]").is_err());
    let doc = serde_json::json!({"s": {"flag": true}});
    assert_eq!(
        memory_assignments_from(doc).unwrap()[0].value,
        Value::Bool(true)
    );
}

#[test]
fn located_assignments_know_their_keys() {
    let text = "\u{feff}{\"project\": {\"n\": 5,\n  \"s\": \"a\\\"}\"},\n \"card\": {\"l\": [{\"x\": 1}], \"é\": null}}";
    let got = parse_located(text).unwrap();
    let shown: Vec<(String, String, usize, usize)> = got
        .iter()
        .map(|a| (a.namespace.clone(), a.entry.clone(), a.line, a.column))
        .collect();
    assert_eq!(
        shown,
        [
            ("project".into(), "n".into(), 1, 14),
            ("project".into(), "s".into(), 2, 3),
            ("card".into(), "l".into(), 3, 11),
            ("card".into(), "é".into(), 3, 28),
        ]
    );
}

#[test]
fn located_errors() {
    let cases = [
        ("{\"a\": {\"x\": 1, \"x\": 2}}", 1, "duplicate key"),
        ("{\"a\": {\"x\": 99999999999999999999}}", 1, "64 bits"),
        ("{\"a\": 1}", 1, "namespace must map"),
        ("[1]", 1, "JSON object of namespaces"),
        ("{\"a\": {\"x\": tru}}", 1, "expected"),
        ("{\"a\": {\"x\": 1}} x", 1, "trailing characters"),
        ("{\n  \"a\": {\"x\": 01}}", 2, "invalid number"),
        ("{\"a\": {\"x\": \"\\ud800\"}}", 1, "hex escape"),
        ("{\"a\": {\"x\": 1e999}}", 1, "out of range"),
    ];
    for (text, line, needle) in cases {
        let e = parse_located(text).unwrap_err();
        assert!(e.message.contains(needle), "{text}: {e}");
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.offset <= text.len() && e.column >= 1, "{text}: {e}");
    }
    let e = parse_located("{\"a\": 1}").unwrap_err();
    assert_eq!((e.line, e.column), (1, 7), "at the namespace's value");
    let deep = format!(
        "{{\"a\": {{\"x\": {}1{}}}}}",
        "[".repeat(1000),
        "]".repeat(1000)
    );
    assert!(parse_located(&deep).is_err());
}

#[test]
fn any_serialize_value_and_deliveries() {
    #[derive(Serialize)]
    struct Card {
        label: &'static str,
        last4: u16,
    }
    let v = Value::from_serialize(&Card {
        label: "Visa",
        last4: 4242,
    })
    .unwrap();
    assert_eq!(
        v,
        Value::Map(vec![
            ("label".into(), "Visa".into()),
            ("last4".into(), Value::Int(4242))
        ])
    );
    assert!(Value::from_serialize(&u64::MAX).is_err());
    let d = Delivery::fallback("utter_x");
    assert_eq!(
        serde_json::to_string(&d).unwrap(),
        r#"{"text":"utter_x","response":"utter_x","variant":null,"rephrase":false,"fallback":true,"wording_id":null}"#
    );
    let d = Delivery {
        wording: Some(crate::WordingId(0xab)),
        variant: Some(0),
        fallback: false,
        ..d
    };
    assert!(
        serde_json::to_string(&d)
            .unwrap()
            .ends_with(r#""wording_id":"00000000000000ab"}"#)
    );
}
