//! Lowering: a checked, error-free project into the registry IR that both the
//! interpreter and the code generator consume. Memory references become dense
//! entry ids; texts become pieces; each response gets its selection plan.

use std::collections::HashMap;

use utter::{Entry, Piece};

use crate::bundled;
use crate::condition::{Expr, MemoryRef};
use crate::diagnostics::Finding;
use crate::template::{self, RawPiece};
use crate::validate::{Checked, Scope};

/// A validated, merged registry.
#[derive(Clone, Debug)]
pub struct Registry {
    /// Declared entries, sorted by namespace then name; `id` = index.
    pub entries: Vec<Entry<String>>,
    /// Every skill id (bundled and project), sorted.
    pub skills: Vec<String>,
    /// Sorted by name.
    pub responses: Vec<Response>,
}

#[derive(Clone, Debug)]
pub struct Response {
    pub name: String,
    /// The file that defines it (after merging).
    pub file: String,
    /// The skill whose file defines it; `None` for the project root.
    pub skill: Option<String>,
    pub variants: Vec<Variant>,
    /// Indices of conditioned variants, in YAML order: tried first.
    pub conditioned: Vec<usize>,
    /// The variant delivered when no condition holds (or the first of all
    /// when none is conditioned).
    pub default: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Variant {
    /// The text as written.
    pub text: String,
    pub pieces: Vec<Piece<String, Vec<usize>>>,
    pub condition: Option<Expr<usize>>,
    pub rephrase: bool,
}

impl Registry {
    /// The response called `name` (binary search: responses are sorted).
    pub fn response(&self, name: &str) -> Option<&Response> {
        self.responses
            .binary_search_by(|r| r.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.responses[i])
    }

    /// The id of entry `namespace.name`.
    pub fn entry_id(&self, namespace: &str, name: &str) -> Option<usize> {
        self.entries
            .binary_search_by(|e| (e.namespace.as_str(), e.name.as_str()).cmp(&(namespace, name)))
            .ok()
    }
}

/// Lowers a checked project; its error findings if it has any.
pub fn lower(checked: &Checked) -> Result<Registry, Vec<Finding>> {
    if checked.has_errors() {
        return Err(checked.errors().cloned().collect());
    }
    let entries: Vec<Entry<String>> = checked
        .memory
        .iter()
        .enumerate()
        .map(|(id, decl)| Entry {
            id,
            namespace: decl.namespace.clone(),
            name: decl.name.clone(),
            visibility: decl.visibility,
            unset_text: bundled::UNSET_TEXTS
                .iter()
                .find(|(ns, name, _)| *ns == decl.namespace && *name == decl.name)
                .map(|(_, _, text)| (*text).to_owned()),
        })
        .collect();
    let ids: HashMap<(&str, &str), usize> = entries
        .iter()
        .map(|e| ((e.namespace.as_str(), e.name.as_str()), e.id))
        .collect();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for e in &entries {
        by_name.entry(e.name.as_str()).or_default().push(e.id);
    }

    let responses = checked
        .responses
        .values()
        .map(|merged| {
            let variants: Vec<Variant> = merged
                .raw
                .variants
                .iter()
                .zip(&merged.conditions)
                .map(|(raw, condition)| Variant {
                    text: raw.text.clone(),
                    pieces: lower_text(&raw.text, &ids, &by_name),
                    condition: condition.as_ref().map(|c| lower_condition(c, &ids)),
                    rephrase: raw.rephrase,
                })
                .collect();
            let conditioned: Vec<usize> = variants
                .iter()
                .enumerate()
                .filter(|(_, v)| v.condition.is_some())
                .map(|(i, _)| i)
                .collect();
            let default = variants.iter().position(|v| v.condition.is_none());
            Response {
                name: merged.raw.name.clone(),
                file: merged.file.clone(),
                skill: match &merged.scope {
                    Scope::Skill(s) => Some(s.clone()),
                    Scope::Root => None,
                },
                variants,
                conditioned,
                default,
            }
        })
        .collect();
    Ok(Registry {
        entries,
        skills: checked.skills.clone(),
        responses,
    })
}

fn lower_condition(expr: &Expr<MemoryRef>, ids: &HashMap<(&str, &str), usize>) -> Expr<usize> {
    // Validation proved every reference readable, hence declared.
    expr.map_refs(&mut |r: &MemoryRef| {
        ids.get(&(r.namespace.as_str(), r.entry.as_str()))
            .copied()
            .unwrap_or(usize::MAX)
    })
}

/// Splits a text into pieces; a placeholder no entry can ever fill is literal
/// text (it is always delivered as written).
pub fn lower_text(
    text: &str,
    ids: &HashMap<(&str, &str), usize>,
    by_name: &HashMap<&str, Vec<usize>>,
) -> Vec<Piece<String, Vec<usize>>> {
    let mut pieces: Vec<Piece<String, Vec<usize>>> = Vec::new();
    let push_text = |pieces: &mut Vec<Piece<String, Vec<usize>>>, t: &str| {
        if let Some(Piece::Text(last)) = pieces.last_mut() {
            last.push_str(t);
        } else if !t.is_empty() {
            pieces.push(Piece::Text(t.to_owned()));
        }
    };
    for raw in template::scan(text) {
        match raw {
            RawPiece::Text(t) => push_text(&mut pieces, &t),
            RawPiece::Session { reference, raw, .. } => {
                match RawPiece::session_key(&reference).and_then(|key| ids.get(&key)) {
                    Some(&entry) => pieces.push(Piece::Session { entry, raw }),
                    None => push_text(&mut pieces, &raw),
                }
            }
            RawPiece::Bare { name, raw, .. } => match by_name.get(name.as_str()) {
                Some(candidates) => pieces.push(Piece::Bare {
                    candidates: candidates.clone(),
                    raw,
                }),
                None => push_text(&mut pieces, &raw),
            },
        }
    }
    pieces
}
