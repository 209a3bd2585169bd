//! Variant analysis: which variant of a response each memory state
//! delivers, decided over all states at once.
//!
//! For every variant of a response, under the skill view it is delivered
//! in: *reachable* with a witness (a memory state, as few entries set as
//! possible, under which that variant is the one delivered), *unreachable*
//! with the reason, or *undecided* with the reason. The semantics are the
//! delivery semantics exactly, because the states are evaluated by the
//! runtime's own evaluator: YAML order, first true wins, Python's
//! three-valued evaluation (an error skips the variant), unset entries read
//! as `None`, the view's readability rules.
//!
//! Decided by enumeration over finite abstract domains ([`domain`]), so a
//! verdict is exact for memory holding values of the declared types, never
//! a guess: a condition reading an `any`, `json` or `list` entry, or a
//! state space over [`STATE_BUDGET`], is undecided and says so.

pub mod domain;
mod findings;

pub use findings::findings;

use std::collections::BTreeSet;

use utter::{Context, EntryKey, EvalError, Memory, Value, ValueRef, Visibility};

use crate::condition::Expr;
use crate::encode::ProgramData;
use crate::lower::Registry;
use domain::Comparisons;

/// The most memory states enumerated for one response and view (each
/// evaluates the response's conditions once); beyond, no claim.
pub const STATE_BUDGET: usize = 1 << 16;

/// What the analysis says of one variant.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Delivered when memory holds `witness` (and nothing else is set).
    Reachable(Witness),
    /// Never delivered, and why.
    Unreachable(Why),
    /// No claim, and why not.
    Undecided(String),
}

/// A memory state: the entries set (entry id, value); every other is unset.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Witness(pub Vec<(usize, Value)>);

/// Why a variant is never delivered.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// Its condition never holds; `error` when it is an evaluation error in
    /// every state (the error of the first state).
    NeverTrue { error: Option<EvalError> },
    /// Whenever its condition holds, one of these earlier variants is
    /// delivered (a witness of each is in their verdicts).
    Shadowed(Vec<usize>),
    /// The default, when some condition holds in every state.
    Covered,
    /// A variant without a condition after the first: with no condition in
    /// the response, the first is always delivered.
    NotTheDefault,
}

/// The verdicts of one response's variants under one view.
#[derive(Clone, Debug)]
pub struct ResponseAnalysis {
    /// Its index in [`Registry::responses`].
    pub response: usize,
    /// The active skill of the view (`None`: no skill active).
    pub view: Option<String>,
    /// One verdict per variant, in YAML order.
    pub variants: Vec<Verdict>,
    /// How many memory states were enumerated.
    pub states: usize,
}

/// Memory of one enumerated state, read by entry id.
struct StateMemory(Vec<Option<Value>>);

impl Memory for StateMemory {
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_> {
        self.0
            .get(entry.id)
            .and_then(Option::as_ref)
            .map_or(ValueRef::None, Value::as_ref)
    }
}

/// The default view a response is validated under: its skill's, or none
/// for the project root's responses.
pub fn home_view(registry: &Registry, response: usize) -> Option<&str> {
    registry.responses[response].skill.as_deref()
}

/// Analyses response number `response` under the view of skill `view`.
pub fn analyse(registry: &Registry, response: usize, view: Option<&str>) -> ResponseAnalysis {
    let r = &registry.responses[response];
    let mut out = ResponseAnalysis {
        response,
        view: view.map(str::to_owned),
        variants: vec![Verdict::Undecided(String::new()); r.variants.len()],
        states: 0,
    };
    let conditioned: Vec<(usize, &Expr<usize>)> = r
        .variants
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.condition.as_ref().map(|c| (i, c)))
        .collect();
    for (i, verdict) in out.variants.iter_mut().enumerate() {
        if r.variants[i].condition.is_none() && r.default != Some(i) {
            *verdict = Verdict::Unreachable(Why::NotTheDefault);
        }
    }
    if conditioned.is_empty() {
        if let Some(d) = r.default {
            out.variants[d] = Verdict::Reachable(Witness::default());
        }
        out.states = 1;
        return out;
    }
    // The entries the conditions read in this view; the rest read as unset.
    let readable = |id: usize| {
        let e = &registry.entries[id];
        e.visibility != Visibility::Private || view == Some(e.namespace.as_str())
    };
    let mut read: BTreeSet<usize> = BTreeSet::new();
    let mut comparisons = Comparisons::new(registry.entries.len());
    for (_, expr) in &conditioned {
        read.extend(expr.refs().into_iter().copied().filter(|&id| readable(id)));
        comparisons.add(expr);
    }
    let mut domains: Vec<(usize, Vec<Value>)> = Vec::new();
    for &id in &read {
        let e = &registry.entries[id];
        match comparisons.candidates(id, e.ty, &e.values) {
            Ok(values) if !values.is_empty() => domains.push((id, values)),
            Ok(_) => {}
            Err(domain::Unbounded) => {
                let why = format!(
                    "a condition reads `session.{}.{}`, declared `{}`: its values are not enumerable, so nothing is claimed",
                    e.namespace, e.name, e.ty
                );
                return undecided(out, r.default, &conditioned, &why);
            }
        }
    }
    let states = domains
        .iter()
        .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len() + 1));
    let states = match states {
        Some(n) if n <= STATE_BUDGET => n,
        _ => {
            let why = format!(
                "its conditions read {} entries with more than {STATE_BUDGET} states between them, over the analysis budget, so nothing is claimed",
                domains.len()
            );
            return undecided(out, r.default, &conditioned, &why);
        }
    };
    out.states = states;
    let mut program = ProgramData::default();
    let at: Vec<usize> = conditioned
        .iter()
        .map(|(_, expr)| program.condition(expr) as usize)
        .collect();
    let program = program.program();
    let mut memory = StateMemory(vec![None; registry.entries.len()]);
    let mut witness: Vec<Option<Witness>> = vec![None; r.variants.len()];
    let mut ever_true = vec![false; conditioned.len()];
    let mut first_error: Vec<Option<Option<EvalError>>> = vec![None; conditioned.len()];
    let mut shadowers: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); conditioned.len()];
    for_each_state(&domains, |set| {
        for slot in &mut memory.0 {
            *slot = None;
        }
        for &(id, ref value) in set {
            memory.0[id] = Some(value.clone());
        }
        let ctx = match view {
            Some(skill) => Context::for_skill_id(&memory, skill, &registry.skills)
                .unwrap_or_else(|_| Context::new(&memory)),
            None => Context::new(&memory),
        };
        let outcomes: Vec<Result<bool, EvalError>> = at
            .iter()
            .map(|&a| program.evaluate(a, &registry.entries, &ctx))
            .collect();
        let winner = outcomes
            .iter()
            .position(|o| matches!(o, Ok(true)))
            .map(|c| conditioned[c].0)
            .or(r.default);
        for (c, outcome) in outcomes.into_iter().enumerate() {
            match outcome {
                Ok(true) => {
                    ever_true[c] = true;
                    first_error[c] = Some(None);
                    if let Some(w) = winner.filter(|&w| w != conditioned[c].0) {
                        shadowers[c].insert(w);
                    }
                }
                Ok(false) => first_error[c] = Some(None),
                Err(e) => {
                    first_error[c].get_or_insert(Some(e));
                }
            }
        }
        if let Some(w) = winner
            && witness[w].is_none()
        {
            witness[w] = Some(Witness(set.to_vec()));
        }
    });
    for (c, &(i, _)) in conditioned.iter().enumerate() {
        out.variants[i] = match witness[i].take() {
            Some(w) => Verdict::Reachable(w),
            None if !ever_true[c] => Verdict::Unreachable(Why::NeverTrue {
                error: first_error[c].clone().flatten(),
            }),
            None => Verdict::Unreachable(Why::Shadowed(shadowers[c].iter().copied().collect())),
        };
    }
    if let Some(d) = r.default {
        out.variants[d] = match witness[d].take() {
            Some(w) => Verdict::Reachable(w),
            None => Verdict::Unreachable(Why::Covered),
        };
    }
    out
}

/// `out` with every conditioned variant and the default undecided.
fn undecided(
    mut out: ResponseAnalysis,
    default: Option<usize>,
    conditioned: &[(usize, &Expr<usize>)],
    why: &str,
) -> ResponseAnalysis {
    for &(i, _) in conditioned {
        out.variants[i] = Verdict::Undecided(why.to_owned());
    }
    if let Some(d) = default {
        out.variants[d] = Verdict::Undecided(why.to_owned());
    }
    out
}

/// Calls `visit` with every state of `domains` (the entries set, with
/// their values), fewest entries set first: the first state that delivers
/// a variant is a smallest witness.
fn for_each_state(domains: &[(usize, Vec<Value>)], mut visit: impl FnMut(&[(usize, Value)])) {
    let n = domains.len();
    let mut set: Vec<(usize, Value)> = Vec::with_capacity(n);
    for k in 0..=n {
        // Each k-subset of the entries, in lexicographic order.
        let mut subset: Vec<usize> = (0..k).collect();
        loop {
            // Each assignment of values to the subset (mixed radix).
            let mut digits = vec![0usize; k];
            loop {
                set.clear();
                set.extend(
                    subset
                        .iter()
                        .zip(&digits)
                        .map(|(&e, &d)| (domains[e].0, domains[e].1[d].clone())),
                );
                visit(&set);
                let mut i = k;
                let advanced = loop {
                    if i == 0 {
                        break false;
                    }
                    i -= 1;
                    digits[i] += 1;
                    if digits[i] < domains[subset[i]].1.len() {
                        break true;
                    }
                    digits[i] = 0;
                };
                if !advanced {
                    break;
                }
            }
            // The next subset.
            let mut i = k;
            while i > 0 && subset[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            subset[i - 1] += 1;
            for j in i..k {
                subset[j] = subset[j - 1] + 1;
            }
        }
    }
}

/// A state as people read it: `session.card.reason = 'lost'`, ...
pub fn describe_witness(registry: &Registry, witness: &Witness) -> String {
    if witness.0.is_empty() {
        return "nothing set".to_owned();
    }
    let parts: Vec<String> = witness
        .0
        .iter()
        .map(|(id, value)| {
            let e = &registry.entries[*id];
            let mut shown = String::new();
            let _ = utter::write_py_repr(&mut shown, value.as_ref());
            format!("session.{}.{} = {shown}", e.namespace, e.name)
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests;
