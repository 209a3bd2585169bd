//! Any bytes as a YAML file: the loader never panics and spans stay inside.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utter_compiler::load::yaml::{self, Node, NodeKind};

fn check_spans(node: &Node, len: usize) {
    assert!(node.span.start <= node.span.end && node.span.end <= len);
    match &node.kind {
        NodeKind::Scalar(_) => {}
        NodeKind::Seq(items) => items.iter().for_each(|n| check_spans(n, len)),
        NodeKind::Map(pairs) => pairs.iter().for_each(|(k, v)| {
            check_spans(k, len);
            check_spans(v, len);
        }),
    }
}

fuzz_target!(|text: &str| {
    match yaml::parse(text) {
        Ok(Some(root)) => check_spans(&root, text.len()),
        Ok(None) => {}
        Err(e) => assert!(e.span.end <= text.len()),
    }
});
