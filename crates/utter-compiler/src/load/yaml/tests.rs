//! The YAML reader: spans, styles, limits and budgets.

use super::*;

fn scalar(node: &Node) -> &str {
    &node.as_scalar().unwrap().value
}

#[test]
fn spans_are_bytes() {
    let text = "é: \"héllo\"\nk: v\n";
    let root = parse(text).unwrap().unwrap();
    let NodeKind::Map(pairs) = &root.kind else {
        panic!()
    };
    assert_eq!(&text[pairs[0].1.span.clone()], "\"héllo\"");
    assert_eq!(scalar(&pairs[1].0), "k");
    assert_eq!(&text[pairs[1].1.span.clone()], "v");
    assert_eq!(pairs[0].1.value_offset(text, 1), text.find("éllo").unwrap());
}

#[test]
fn core_schema_is_yaml_1_2() {
    let root = parse("[yes, no, on, true, ~, 1.5, 0x1F, '1', 1e3, .inf, 12abc]")
        .unwrap()
        .unwrap();
    let NodeKind::Seq(items) = root.kind else {
        panic!()
    };
    let got: Vec<_> = items
        .iter()
        .map(|n| format!("{:?}", n.as_scalar().unwrap().resolve()))
        .collect();
    assert_eq!(
        got,
        [
            "Str(\"yes\")",
            "Str(\"no\")",
            "Str(\"on\")",
            "Bool(true)",
            "Null",
            "Float(1.5)",
            "Int(31)",
            "Str(\"1\")",
            "Float(1000.0)",
            "Float(inf)",
            "Str(\"12abc\")"
        ]
    );
}

#[test]
fn alias_bombs_are_refused() {
    let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        let p = i - 1;
        text.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let err = parse(&text).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::Limit);
}

#[test]
fn alias_bombs_by_bytes_are_refused() {
    // A 1 MB scalar aliased 100 times: few nodes, 100 MB of text.
    let big = "x".repeat(1 << 20);
    let mut text = format!("a: &a {big}\nb: [");
    text.push_str(&vec!["*a"; 100].join(", "));
    text.push_str("]\n");
    let err = parse(&text).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::Limit);
    assert!(err.message.contains("bytes"), "{}", err.message);
}

#[test]
fn nested_anchors_over_a_large_tree_are_refused() {
    let mut tree = format!("[{}]", vec!["x"; 100_000].join(", "));
    for i in 0..40 {
        tree = format!("&n{i} [{tree}]");
    }
    let text = format!("root: {tree}\n");
    let err = parse(&text).unwrap_err();
    assert_eq!(err.kind, YamlErrorKind::Limit);
    assert!(err.message.contains("copy"), "{}", err.message);
}

#[test]
fn the_project_budget_spans_documents() {
    let mut budget = YamlBudget::PROJECT;
    let doc = format!("[{}]", vec!["x"; 200_000].join(", "));
    let mut refused = false;
    for _ in 0..20 {
        if parse_embedded(&doc, 0, &mut budget).is_err_and(|e| e.message.contains("in all")) {
            refused = true;
            break;
        }
    }
    assert!(
        refused,
        "twenty documents of 200,000 nodes exceed the project budget"
    );
}

#[test]
fn deep_nesting_is_refused() {
    let text = "[".repeat(10_000);
    assert!(parse(&text).is_err());
    let text = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    assert_eq!(parse(&text).unwrap_err().kind, YamlErrorKind::Limit);
}

#[test]
fn second_documents_and_custom_tags_are_refused() {
    assert!(parse("a: 1\n---\nb: 2\n").is_err());
    assert!(parse("a: !custom 1\n").is_err());
    assert_eq!(parse("").unwrap(), None);
}
