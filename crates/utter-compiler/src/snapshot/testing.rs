//! Small agents the snapshot's tests build: one response of generated
//! variants over the entries `x` and `t`.

use crate::lower::Registry;

/// Declarations of the entries `x` and `t` that conditions read, and
/// versions that change one or add another.
pub const MEMORIES: [&str; 5] = [
    "x:\n  type: int\nt:\n  type: text\n",
    "x:\n  type: int\nt:\n  type: text\ny:\n  type: bool\n",
    "x:\n  type: float\nt:\n  type: text\n",
    "x:\n  type: int\nt:\n  type: text\n  pii: true\n",
    // Values of every kind: `1`, `1.0` and `True` meet in conditions.
    "x:\n  type: any\nt:\n  type: any\n",
];

/// A registry of one root response `utter_r` of `variants`, its
/// entries declared by `memory`.
pub fn registry(variants: &[(Option<String>, String)], memory: &str) -> Registry {
    let mut yml = String::from("responses:\n  utter_r:\n");
    for (condition, text) in variants {
        yml.push_str(&format!("    - text: {text:?}\n"));
        if let Some(c) = condition {
            yml.push_str(&format!("      condition: {c:?}\n"));
        }
    }
    let files = crate::ProjectFiles::from_files([
        ("memory.yml".to_owned(), memory.as_bytes().to_vec()),
        ("responses.yml".to_owned(), yml.into_bytes()),
    ]);
    crate::lower(&crate::check(&files)).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A variant: a condition over `x` and `t` (keyed by an `==` conjunct on
/// either side, or not) and a text.
pub fn variant() -> impl proptest::strategy::Strategy<Value = (Option<String>, String)> {
    use proptest::prelude::*;
    let condition = prop_oneof![
        (0i64..4).prop_map(|k| format!("session.project.x == {k}")),
        (0i64..4).prop_map(|k| format!("session.project.x > {k}")),
        (0usize..3).prop_map(|k| format!("session.project.t == '{}'", ["a", "b", ""][k])),
        Just("session.project.t".to_owned()),
        Just("session.project.x == 1 and session.project.t == 'a'".to_owned()),
        (0i64..3).prop_map(|k| format!("{k} == session.project.x")),
        Just("'b' == session.project.t".to_owned()),
        Just("session.project.x > 1 and 'a' == session.project.t".to_owned()),
        Just("session.project.x == 2 or session.project.t == 'b'".to_owned()),
        Just("not session.project.t == 'a'".to_owned()),
    ];
    let text = prop_oneof![
        (0u8..4).prop_map(|k| format!("v{k}")),
        (0u8..4).prop_map(|k| format!("v{k} {{session.project.x}}")),
    ];
    (condition, text).prop_map(|(c, t)| (Some(c), t))
}
