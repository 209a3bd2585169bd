//! Typed synthetic projects: entries of every declared type, conditions
//! that stay valid for those types, and values of each type.

use super::*;

/// A declared type of a typed synthetic entry, with what conditions may
/// compare it with so that the project stays valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthType {
    Int,
    Float,
    Bool,
    Text,
    Categorical,
    List,
    Any,
}

impl SynthType {
    pub(crate) const ALL: [SynthType; 7] = [
        SynthType::Int,
        SynthType::Float,
        SynthType::Bool,
        SynthType::Text,
        SynthType::Categorical,
        SynthType::List,
        SynthType::Any,
    ];

    /// The `memory.yml` declaration.
    fn declaration(self) -> &'static str {
        match self {
            SynthType::Int => "{type: int}",
            SynthType::Float => "{type: float}",
            SynthType::Bool => "{type: bool}",
            SynthType::Text => "{type: text}",
            SynthType::Categorical => "{type: categorical, enum_values: [a, b, c-d]}",
            SynthType::List => "{type: list}",
            SynthType::Any => "{type: any}",
        }
    }
}

/// The values a categorical synthetic entry declares.
pub const SYNTH_CATEGORIES: [&str; 3] = ["a", "b", "c-d"];

/// A typed synthetic project: its files, skills, response names and typed
/// entries `(namespace, name, public, type)`.
#[derive(Clone, Debug)]
pub struct TypedProject {
    pub files: Vec<(String, String)>,
    pub skills: Vec<String>,
    pub entries: Vec<(String, String, bool, SynthType)>,
    pub response_names: Vec<String>,
}

/// A comparison of `entry` that its declared type allows.
fn typed_comparison(rng: &mut Rng, reference: &str, ty: SynthType) -> String {
    let numbers = ["0", "1", "2", "5", "1.5", "2.0", "0.0", "1e16"];
    let texts = ["'a'", "'b'", "'lost'", "''", "'c-d'", "\"a\""];
    let orderings = ["<", "<=", ">", ">="];
    let equality = ["==", "!="];
    if rng.chance(10) {
        return format!("{reference} {} None", rng.pick(&equality));
    }
    match ty {
        SynthType::Int | SynthType::Float => {
            if rng.chance(15) {
                return format!(
                    "{} < {reference} < {}",
                    rng.pick(&numbers),
                    rng.pick(&numbers)
                );
            }
            let ops = crate::operator_symbols();
            format!("{reference} {} {}", rng.pick(&ops), rng.pick(&numbers))
        }
        SynthType::Bool => match rng.below(3) {
            0 => reference.to_owned(),
            1 => format!(
                "{reference} {} {}",
                rng.pick(&equality),
                rng.pick(&["True", "False", "0", "1"])
            ),
            _ => format!(
                "{reference} {} {}",
                rng.pick(&orderings),
                rng.pick(&["0", "1", "True"])
            ),
        },
        SynthType::Text => {
            let ops = ["==", "!=", "<", ">="];
            format!("{reference} {} {}", rng.pick(&ops), rng.pick(&texts))
        }
        SynthType::Categorical => {
            if rng.chance(25) {
                format!("{reference} {} {}", rng.pick(&orderings), rng.pick(&texts))
            } else {
                let value = rng.pick(&SYNTH_CATEGORIES);
                let (l, r) = if rng.chance(20) {
                    ("'", "'")
                } else {
                    ("\"", "\"")
                };
                format!("{reference} {} {l}{value}{r}", rng.pick(&equality))
            }
        }
        SynthType::List => {
            if rng.chance(50) {
                reference.to_owned()
            } else {
                format!("not {reference}")
            }
        }
        SynthType::Any => {
            let ops = crate::operator_symbols();
            let literal = if rng.chance(50) {
                rng.pick(&numbers)
            } else {
                rng.pick(&texts)
            };
            format!("{reference} {} {literal}", rng.pick(&ops))
        }
    }
}

/// A condition over typed `readable` entries, up to `depth` levels deep.
pub(crate) fn typed_condition(
    rng: &mut Rng,
    readable: &[&(String, String, bool, SynthType)],
    depth: usize,
) -> String {
    if readable.is_empty() {
        return "True".to_owned();
    }
    if depth == 0 || rng.chance(40) {
        let (ns, name, _, ty) = rng.pick(readable);
        return typed_comparison(rng, &format!("session.{ns}.{name}"), *ty);
    }
    let parts: Vec<String> = (0..2 + rng.below(2))
        .map(|_| typed_condition(rng, readable, depth - 1))
        .collect();
    match rng.below(4) {
        0 => format!("not ({})", parts[0]),
        1 => parts.join(" and "),
        2 => format!("({}) or {}", parts[0], parts[1..].join(" or ")),
        _ => parts.join(" or "),
    }
}

/// A skill's memory.yml from the lines of its public and private entries.
pub(crate) fn skill_memory(public: &str, private: &str) -> String {
    let mut memory = String::from("schema:\n");
    if !public.is_empty() {
        let _ = write!(memory, "  public:\n{public}");
    }
    if !private.is_empty() {
        let _ = write!(memory, "  private:\n{private}");
    }
    memory
}

/// A random, valid agent project whose entries declare types and whose
/// conditions compare them only as their types allow.
pub fn random_typed_project(seed: u64) -> TypedProject {
    let mut rng = Rng::new(seed ^ 0x7F4A_7C15);
    let skills: Vec<String> = (0..1 + rng.below(3)).map(namespace_for).collect();
    let mut entries = Vec::new();
    let mut files = Vec::new();
    let mut project_memory = String::new();
    for name in ["x", "y"].iter().take(1 + rng.below(2)) {
        let ty = *rng.pick(&SynthType::ALL);
        let _ = writeln!(project_memory, "{name}: {}", ty.declaration());
        entries.push(("project".to_owned(), (*name).to_owned(), true, ty));
    }
    files.push(("memory.yml".to_owned(), project_memory));
    files.push(crate::placeholders_as_written());
    for skill in &skills {
        let (mut public, mut private) = (String::new(), String::new());
        for name in ["x", "n", "s", "flag", "kind", "type"] {
            if !rng.chance(75) {
                continue;
            }
            let ty = *rng.pick(&SynthType::ALL);
            let is_public = rng.chance(60);
            let _ = writeln!(
                if is_public { &mut public } else { &mut private },
                "    {name}: {}",
                ty.declaration()
            );
            entries.push((skill.clone(), name.to_owned(), is_public, ty));
        }
        files.push((
            format!("skills/{skill}/memory.yml"),
            skill_memory(&public, &private),
        ));
        files.push((format!("skills/{skill}/skill.md"), SKILL_MD.to_owned()));
    }
    let mut response_names = Vec::new();
    let scopes: Vec<Option<&String>> = skills.iter().map(Some).chain([None]).collect();
    for scope in scopes {
        let readable: Vec<&(String, String, bool, SynthType)> = entries
            .iter()
            .filter(|e| e.2 || Some(&e.0) == scope)
            .collect();
        let label = scope.map_or("root".to_owned(), Clone::clone);
        let mut yaml = String::from("responses:\n");
        for r in 0..3 + rng.below(5) {
            let name = format!("utter_{label}_{r}");
            response_names.push(name.clone());
            let _ = writeln!(yaml, "  {name}:");
            let conditioned = 1 + rng.below(4);
            // Sometimes the conditions compare one numeric entry with int
            // literals (compiled into one `match`).
            let numeric: Vec<&&(String, String, bool, SynthType)> = readable
                .iter()
                .filter(|e| {
                    matches!(
                        e.3,
                        SynthType::Int | SynthType::Float | SynthType::Bool | SynthType::Any
                    )
                })
                .collect();
            let switch_on = (conditioned > 1 && !numeric.is_empty() && rng.chance(30)).then(|| {
                let (ns, name, _, ty) = **rng.pick(&numeric);
                // A bool equals only 0 and 1 (anything else is a finding).
                let literals: &[&str] = if *ty == SynthType::Bool {
                    &["0", "1", "1"]
                } else {
                    &["0", "1", "2", "1", "0b10", "5"]
                };
                (format!("session.{ns}.{name}"), literals)
            });
            for v in 0..=conditioned {
                let mut text = String::new();
                for _ in 0..1 + rng.below(3) {
                    if rng.chance(45) {
                        let (ns, name, _, _) = rng.pick(&entries);
                        if rng.chance(70) {
                            let _ = write!(text, "{{session.{ns}.{name}}} ");
                        } else {
                            let _ = write!(text, "{{{name}}} ");
                        }
                    } else {
                        text.push_str(rng.pick::<&str>(&["Hello ", "fee ", "é ", "{ ", "} "]));
                    }
                }
                let _ = writeln!(yaml, "    - text: {}", yaml_string(text.trim_end()));
                if v < conditioned {
                    let depth = rng.below(3);
                    let condition = match &switch_on {
                        Some((entry, literals)) if !rng.chance(15) => {
                            let k = rng.pick(literals);
                            if rng.chance(25) {
                                format!("{k} == {entry}")
                            } else {
                                format!("{entry} == {k}")
                            }
                        }
                        _ => typed_condition(&mut rng, &readable, depth),
                    };
                    let _ = writeln!(yaml, "      condition: {}", yaml_string(&condition));
                }
            }
        }
        let path = match scope {
            Some(skill) => format!("skills/{skill}/responses.yml"),
            None => "responses.yml".to_owned(),
        };
        files.push((path, yaml));
    }
    TypedProject {
        files,
        skills,
        entries,
        response_names,
    }
}

/// A value for an entry of type `ty`: mostly one the type accepts, now and
/// then one it refuses (both must then refuse it alike).
pub fn random_typed_value(rng: &mut Rng, ty: SynthType) -> SynthValue {
    if rng.chance(15) {
        return random_value(rng);
    }
    if rng.chance(15) {
        return SynthValue::Unset;
    }
    match ty {
        SynthType::Int => SynthValue::Int(*rng.pick(&[-1, 0, 1, 2, 5])),
        SynthType::Float => {
            if rng.chance(25) {
                SynthValue::Int(*rng.pick(&[0, 1, 2]))
            } else {
                SynthValue::Float(*rng.pick(&[0.0, 1.5, 2.0, -0.5, 1e16, f64::NAN]))
            }
        }
        SynthType::Bool => SynthValue::Bool(rng.chance(50)),
        SynthType::Text => SynthValue::Str(rng.pick::<&str>(&["a", "b", "lost", "", "{x}"])),
        SynthType::Categorical => SynthValue::Str(rng.pick::<&str>(&SYNTH_CATEGORIES)),
        SynthType::List => SynthValue::List(
            (0..rng.below(3))
                .map(|_| SynthValue::Int(*rng.pick(&[0, 1])))
                .collect(),
        ),
        SynthType::Any => random_value(rng),
    }
}

/// Memory values for differential tests: every type the evaluator knows,
/// values that make comparisons both hold and fail.
#[derive(Clone, Debug, PartialEq)]
pub enum SynthValue {
    Unset,
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
    List(Vec<SynthValue>),
}

impl SynthValue {
    /// The memory value, or `None` for unset.
    pub fn to_value(&self) -> Option<utter::Value> {
        use utter::Value;
        Some(match self {
            SynthValue::Unset => return None,
            SynthValue::None => Value::None,
            SynthValue::Bool(b) => Value::Bool(*b),
            SynthValue::Int(i) => Value::Int(*i),
            SynthValue::Float(f) => Value::Float(*f),
            SynthValue::Str(s) => Value::from(*s),
            SynthValue::List(items) => {
                Value::List(items.iter().filter_map(SynthValue::to_value).collect())
            }
        })
    }
}

/// A random value for one entry.
pub fn random_value(rng: &mut Rng) -> SynthValue {
    match rng.below(8) {
        0 | 1 => SynthValue::Unset,
        2 => SynthValue::None,
        3 => SynthValue::Bool(rng.chance(50)),
        4 => SynthValue::Int(*rng.pick(&[-1, 0, 1, 2, 5, 10])),
        5 => SynthValue::Float(*rng.pick(&[0.0, 1.5, 2.0, -0.5, 1e16, 0.1])),
        6 => SynthValue::Str(rng.pick::<&str>(&["a", "b", "lost", "", "{session.s0.x}", "{x}"])),
        _ => SynthValue::List(
            (0..rng.below(3))
                .map(|_| SynthValue::Int(*rng.pick(&[0, 1, 2])))
                .collect(),
        ),
    }
}
