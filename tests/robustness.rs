//! No input makes the compiler panic; findings always point inside their file.

use proptest::prelude::*;
use utter_compiler::condition;
use utter_tests::checked;

fn yamlish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "responses:",
        "\n",
        "  ",
        "    ",
        "- ",
        "text: ",
        "condition: ",
        "metadata:",
        "rephrase: ",
        "true",
        "'",
        "\"",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "&a ",
        "*a",
        "!!str ",
        "session.s.x",
        " == ",
        "utter_x:",
        "~",
        "#",
        "|",
        ">-",
        "é",
        "\t",
        "\r\n",
        "{session.s.x}",
        "{x}",
        "---\n",
        "\u{feff}",
    ]);
    prop::collection::vec(atoms, 0..60).prop_map(|parts| parts.concat())
}

fn conditionish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "session", ".", "s", "x", "project", " ", "==", "!=", "<", "<=", ">", ">=", "and", "or",
        "not", "(", ")", "'a'", "\"b\"", "1", "2.5", "0x1F", "1e3", "True", "False", "None", "in",
        "is", "+", "-", "[", "]", "\\", "\n", "r'", "'''", "#", "é", "_", "1_0",
    ]);
    prop::collection::vec(atoms, 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn checking_never_panics_and_spans_stay_in_bounds(responses in yamlish(), memory in yamlish()) {
        let first = checked(&[("skills/s/responses.yml", &responses), ("skills/s/memory.yml", &memory)]);
        for finding in &first.findings {
            if let Some(source) = first.source(&finding.file) {
                prop_assert!(finding.span.end <= source.text.len(), "{finding:?}");
                prop_assert!(finding.span.start <= finding.span.end);
                prop_assert!(finding.line >= 1 && finding.column >= 1);
            }
        }
        let again = checked(&[("skills/s/responses.yml", &responses), ("skills/s/memory.yml", &memory)]);
        prop_assert_eq!(&first.findings, &again.findings);
    }

    #[test]
    fn condition_parsing_never_panics(src in conditionish()) {
        if let Err(e) = condition::parse(&src) {
            prop_assert!(e.span.end <= src.len() && e.span.start <= e.span.end, "{e:?} in {src:?}");
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = condition::parse(&text);
        let _ = checked(&[("responses.yml", &text)]);
        let _ = utter::json::parse_located(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Placeholder scanning loses nothing: the pieces put back together are the text.
    #[test]
    fn template_pieces_rebuild_the_text(text in "[a-z{}. _\\\\é]{0,40}|\\PC{0,40}") {
        use utter_compiler::template::{RawPiece, scan};
        let rebuilt: String = scan(&text)
            .into_iter()
            .map(|piece| match piece {
                RawPiece::Text(t) => t,
                RawPiece::Session { raw, .. } | RawPiece::Bare { raw, .. } => raw,
            })
            .collect();
        prop_assert_eq!(rebuilt, text);
    }

    /// Memory JSON errors always carry a position inside the text.
    #[test]
    fn memory_json_errors_are_located(text in "[{}\\[\\]\",:0-9a-z \\n\\\\-]{0,60}") {
        if let Err(e) = utter::json::parse_located(&text) {
            prop_assert!(e.offset <= text.len() && e.line >= 1 && e.column >= 1);
        }
    }
}
