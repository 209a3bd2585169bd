//! Synthetic agent projects, deterministic per seed: random but always valid
//! registries (names that stress escaping, texts with placeholders, conditions
//! from the whole grammar) for differential tests, and scaled projects for
//! benchmarks.
#![forbid(unsafe_code)]

use std::fmt::Write as _;

mod agent;
mod typed;
pub use agent::{Agent, random_agent};
pub use typed::{
    SynthType, SynthValue, TypedProject, random_typed_project, random_typed_value, random_value,
};

/// How much of each generative test runs: `UTTER_TEST_SCALE` (a whole
/// number, default 1: a contributor's run in minutes; CI sets 4, the counts
/// the tests were written with). Counts are written at scale 1.
pub fn test_scale() -> u64 {
    std::env::var("UTTER_TEST_SCALE")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(1, |n| n.clamp(1, 64))
}

/// `base` cases at the [`test_scale`].
pub fn scaled(base: u64) -> u64 {
    base * test_scale()
}

/// SplitMix64: small, fast, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A YAML double-quoted scalar holding `s` exactly.
pub fn yaml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A declared entry of a synthetic project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthEntry {
    /// A skill id or `project`.
    pub namespace: String,
    pub name: String,
    pub public: bool,
}

/// A synthetic project: its files, skills and entries.
#[derive(Clone, Debug)]
pub struct SynthProject {
    pub files: Vec<(String, String)>,
    pub skills: Vec<String>,
    pub entries: Vec<SynthEntry>,
    pub response_names: Vec<String>,
}

/// Response names that stress the Rust spelling and string escaping.
const ODD_NAMES: &[&str] = &[
    "rtl\u{202e}txt",
    "nul\u{0}",
    "r#\"raw\"#",
    "self",
    "Self",
    "r#type",
    "fn",
    "match",
    "quote\"d",
    "back\\slash",
    "hash\"#",
    "brace{x}",
    "ümlaut",
    "日本",
    "1st",
    "with space",
    "tab\tname",
    "dash-name",
    "dot.name",
    "emoji😀",
    "",
    "__private",
    "crate",
    "super",
];

/// Text pieces that stress escaping in generated string literals.
const TEXT_BITS: &[&str] = &[
    "\u{202e}",
    "\u{0}",
    "\u{feff}",
    "*/",
    "\r",
    "Hello",
    " ",
    "world",
    "\"quoted\"",
    "\\",
    "\"#",
    "r#\"raw\"#",
    "{",
    "}",
    "{{",
    "}}",
    "{ x }",
    "{1x}",
    "é",
    "日本語",
    "😀",
    "\n",
    "tab\there",
    "$",
    "{session.}",
    "{session.nope}",
    "{session.a.b.c}",
    "'single'",
];

const LITERALS: &[&str] = &[
    "None", "True", "False", "0", "1", "2", "5", "1.5", "2.0", "0.0", "'a'", "\"lost\"", "'b'",
    "''", "0x2", "1_0", "1e0", "'a' 'b'", "r'a'",
];

fn namespace_for(skill: usize) -> String {
    format!("s{skill}")
}

/// A condition over `readable` entries, up to `depth` levels of nesting.
fn condition(rng: &mut Rng, readable: &[&SynthEntry], depth: usize) -> String {
    let operand = |rng: &mut Rng| -> String {
        if !readable.is_empty() && rng.chance(60) {
            let e = rng.pick(readable);
            format!("session.{}.{}", e.namespace, e.name)
        } else {
            (*rng.pick(LITERALS)).to_owned()
        }
    };
    if depth == 0 || rng.chance(35) {
        // A comparison chain of 1 to 3 operators, or a bare operand.
        if rng.chance(20) {
            return operand(rng);
        }
        let ops = operator_symbols();
        let mut left = operand(rng);
        let mut out = left.clone();
        let max_ops = if rng.chance(80) { 1 } else { 3 };
        for _ in 0..1 + rng.below(max_ops) {
            let right = operand(rng);
            // Ordering against `None` is a TypeError whatever the entry
            // holds: a finding, so valid projects do not contain it.
            let op = match *rng.pick(&ops) {
                "==" | "!=" => rng.pick(&["==", "!="]),
                _ if left == "None" || right == "None" => "!=",
                other => other,
            };
            let _ = write!(out, " {op} {right}");
            left = right;
        }
        return out;
    }
    match rng.below(4) {
        0 => format!("not {}", condition(rng, readable, depth - 1)),
        1 => format!("({})", condition(rng, readable, depth - 1)),
        2 => {
            let n = 2 + rng.below(2);
            let parts: Vec<String> = (0..n)
                .map(|_| condition(rng, readable, depth - 1))
                .collect();
            parts.join(" and ")
        }
        _ => {
            let n = 2 + rng.below(2);
            let parts: Vec<String> = (0..n)
                .map(|_| condition(rng, readable, depth - 1))
                .collect();
            parts.join(" or ")
        }
    }
}

fn text(rng: &mut Rng, entries: &[SynthEntry]) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(5) {
        if !entries.is_empty() && rng.chance(35) {
            let e = rng.pick(entries);
            if rng.chance(60) {
                let _ = write!(out, "{{session.{}.{}}}", e.namespace, e.name);
            } else {
                let _ = write!(out, "{{{}}}", e.name);
            }
        } else {
            out.push_str(rng.pick::<&str>(TEXT_BITS));
        }
    }
    if out.trim().is_empty() {
        out.push_str("text");
    }
    out
}

/// The `utter.yml` of a generated project. Placeholders that read nothing
/// are generated on purpose (the reference delivers them as written):
/// lowered to warnings, as a project that relies on that does.
pub fn placeholders_as_written() -> (String, String) {
    (
        "utter.yml".to_owned(),
        "lints:\n  utter.validation.response.unknown_placeholder: warn\n".to_owned(),
    )
}

/// What a skill folder needs to load: a skill.md (naming no response).
pub const SKILL_MD: &str = "---\ndescription: synthetic\n---\nBody.\n";

/// A random, valid agent project.
pub fn random_project(seed: u64) -> SynthProject {
    let mut rng = Rng::new(seed);
    let skill_count = 1 + rng.below(3);
    let skills: Vec<String> = (0..skill_count).map(namespace_for).collect();
    let mut entries = Vec::new();
    let mut files = Vec::new();
    // Project memory; some names repeat across namespaces for `{entry}` resolution.
    let shared = ["x", "y", "flag"];
    let mut project_memory = String::new();
    for name in shared.iter().take(1 + rng.below(3)) {
        let _ = writeln!(project_memory, "{name}:\n  type: any");
        entries.push(SynthEntry {
            namespace: "project".into(),
            name: (*name).into(),
            public: true,
        });
    }
    files.push(("memory.yml".to_owned(), project_memory));
    files.push(placeholders_as_written());
    for skill in &skills {
        let mut public = String::new();
        let mut private = String::new();
        for (i, name) in ["x", "n", "s", "flag", "list"].iter().enumerate() {
            if !rng.chance(70) {
                continue;
            }
            let is_public = i % 2 == 0 || rng.chance(30);
            let _ = writeln!(
                if is_public { &mut public } else { &mut private },
                "    {name}: {{}}"
            );
            entries.push(SynthEntry {
                namespace: skill.clone(),
                name: (*name).into(),
                public: is_public,
            });
        }
        files.push((
            format!("skills/{skill}/memory.yml"),
            typed::skill_memory(&public, &private),
        ));
        files.push((format!("skills/{skill}/skill.md"), SKILL_MD.to_owned()));
    }

    let mut response_names = Vec::new();
    let mut odd_used = 0usize;
    let scopes: Vec<Option<&String>> = skills.iter().map(Some).chain([None]).collect();
    for scope in scopes {
        let readable: Vec<&SynthEntry> = entries
            .iter()
            .filter(|e| e.public || Some(&e.namespace) == scope)
            .collect();
        let mut yaml = String::from("responses:\n");
        let label = scope.map_or("root".to_owned(), Clone::clone);
        for r in 0..2 + rng.below(6) {
            let name = if rng.chance(15) && odd_used < ODD_NAMES.len() {
                odd_used += 1;
                format!(
                    "{}{}",
                    ODD_NAMES[(seed as usize + odd_used) % ODD_NAMES.len()],
                    odd_used
                )
            } else {
                format!("utter_{label}_{r}")
            };
            response_names.push(name.clone());
            let _ = writeln!(yaml, "  {}:", yaml_string(&name));
            let conditioned = if rng.chance(70) { 1 + rng.below(4) } else { 0 };
            let variants = if conditioned == 0 {
                1 + rng.below(2)
            } else {
                conditioned + 1
            };
            let default_at = rng.below(variants);
            // Sometimes the conditions compare one entry with int literals
            // (what the generator compiles into one `match`): repeated
            // literals, either operand order, now and then broken by
            // another condition.
            let switch_on =
                (conditioned > 1 && !readable.is_empty() && rng.chance(30)).then(|| {
                    let e = rng.pick(&readable);
                    format!("session.{}.{}", e.namespace, e.name)
                });
            for v in 0..variants {
                let _ = writeln!(
                    yaml,
                    "    - text: {}",
                    yaml_string(&text(&mut rng, &entries))
                );
                if conditioned > 0 && v != default_at {
                    let depth = rng.below(4);
                    let condition = match &switch_on {
                        Some(entry) if !rng.chance(15) => {
                            let k = rng.pick(&["0", "1", "2", "1", "0x2", "5"]);
                            if rng.chance(25) {
                                format!("{k} == {entry}")
                            } else {
                                format!("{entry} == {k}")
                            }
                        }
                        _ => condition(&mut rng, &readable, depth),
                    };
                    let _ = writeln!(yaml, "      condition: {}", yaml_string(&condition));
                }
                if rng.chance(30) {
                    let _ = writeln!(
                        yaml,
                        "      metadata:\n        rephrase: {}",
                        rng.chance(50)
                    );
                }
            }
        }
        let path = match scope {
            Some(skill) => format!("skills/{skill}/responses.yml"),
            None => "responses.yml".to_owned(),
        };
        files.push((path, yaml));
    }
    SynthProject {
        files,
        skills,
        entries,
        response_names,
    }
}

/// A project of one skill, `bench`, whose responses.yml is `yaml` (the
/// scaled and shaped projects' memory: four untyped entries).
fn bench_skill(yaml: String) -> Vec<(String, String)> {
    let memory = "schema:\n  public:\n    reason: {}\n    count: {}\n    name: {}\n  private:\n    fee: {}\n";
    vec![
        ("skills/bench/memory.yml".to_owned(), memory.to_owned()),
        ("skills/bench/skill.md".to_owned(), SKILL_MD.to_owned()),
        ("skills/bench/responses.yml".to_owned(), yaml),
    ]
}

/// A project of `responses` responses with `variants` variants each: every
/// response but the first few has `variants - 1` conditions and a default,
/// and texts with up to three placeholders. For benchmarks of scaling.
pub fn scaled_project(responses: usize, variants: usize) -> Vec<(String, String)> {
    let mut yaml = String::with_capacity(responses * 200);
    yaml.push_str("responses:\n");
    for r in 0..responses {
        let _ = writeln!(yaml, "  utter_scaled_{r}:");
        for v in 0..variants {
            if v + 1 == variants || variants == 1 {
                let _ = writeln!(
                    yaml,
                    "    - text: \"Response {r}, default, for {{session.bench.name}}.\""
                );
            } else {
                let _ = writeln!(
                    yaml,
                    "    - text: \"Response {r} variant {v}: {{session.bench.reason}} x{{count}}\"\n      condition: \"session.bench.count == {v} and session.bench.reason != 'r{r}'\""
                );
            }
        }
    }
    bench_skill(yaml)
}

/// A project of `responses` responses of `shapes` different shapes of
/// selection (response `r` has shape `r % shapes`, at most 1,728): three
/// conditioned variants and a default each, the conditions differing in
/// their operators and in comparing an int or a string, which no two shapes
/// share. What straight-line code's build cost follows besides the
/// Every comparison operator as written, from the runtime's one table
/// (`CmpOp::ALL`): a new operator enters every generated agent.
pub fn operator_symbols() -> Vec<&'static str> {
    utter::CmpOp::ALL
        .into_iter()
        .map(utter::CmpOp::symbol)
        .collect()
}

/// responses (see `codegen::STRAIGHT_LINE_BUDGET`).
pub fn shaped_project(responses: usize, shapes: usize) -> Vec<(String, String)> {
    const OPERATORS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
    let mut yaml = String::with_capacity(responses * 400);
    yaml.push_str("responses:\n");
    for r in 0..responses {
        let shape = r % shapes.clamp(1, 12 * 12 * 12);
        let _ = writeln!(yaml, "  utter_scaled_{r}:");
        let mut digits = shape;
        for v in 0..3 {
            // One base-12 digit per variant: an operator, then int or string.
            let (operator, string) = (OPERATORS[digits % 6], digits % 12 >= 6);
            digits /= 12;
            let condition = if string {
                format!("session.bench.reason {operator} 'r{r}'")
            } else {
                format!("session.bench.count {operator} {v}")
            };
            let _ = writeln!(
                yaml,
                "    - text: \"Response {r} variant {v}: {{session.bench.reason}} x{{count}}\"\n      condition: \"{condition}\""
            );
        }
        let _ = writeln!(
            yaml,
            "    - text: \"Response {r}, default, for {{session.bench.name}}.\""
        );
    }
    bench_skill(yaml)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projects_are_deterministic() {
        assert_eq!(random_project(7).files, random_project(7).files);
        assert_ne!(random_project(7).files, random_project(8).files);
    }

    #[test]
    fn typed_projects_are_deterministic() {
        assert_eq!(random_typed_project(3).files, random_typed_project(3).files);
    }

    #[test]
    fn yaml_strings_escape_what_they_must() {
        assert_eq!(yaml_string("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    }
}
