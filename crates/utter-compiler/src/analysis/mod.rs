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

use utter::{Context, Entry, EntryKey, EvalError, Memory, Value, ValueRef, Visibility};

use crate::condition::Expr;
use crate::lower::Registry;
use domain::Comparisons;
use utter::program::ProgramData;

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
    NeverTrue {
        /// The evaluation error, when every state is one.
        error: Option<EvalError>,
    },
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

/// Memory of one enumerated state, read by entry id: values borrowed from
/// the domains (a state costs no allocation).
struct StateMemory<'v>(Vec<Option<&'v Value>>);

impl Memory for StateMemory<'_> {
    fn get(&self, entry: EntryKey<'_>) -> ValueRef<'_> {
        self.0
            .get(entry.id)
            .copied()
            .flatten()
            .map_or(ValueRef::None, Value::as_ref)
    }
}

/// The default view a response is validated under: its skill's, or none
/// for the project root's responses.
pub fn home_view(registry: &Registry, response: usize) -> Option<&str> {
    registry.responses[response].skill.as_deref()
}

/// What the analysis of one response reads: the agent's entries and
/// skills, and the response's variants.
pub struct Subject<'a> {
    /// The declared entries (`id` = index).
    pub entries: &'a [Entry<String, Vec<String>>],
    /// Every skill id.
    pub skills: &'a [String],
    /// How many variants the response has.
    pub variants: usize,
    /// The conditioned variants, in YAML order: index and condition.
    pub conditioned: Vec<(usize, &'a Expr<usize>)>,
    /// The variant delivered when no condition holds.
    pub default: Option<usize>,
}

impl<'a> Subject<'a> {
    /// Response number `response` of `registry`.
    pub fn of(registry: &'a Registry, response: usize) -> Self {
        let r = &registry.responses[response];
        Subject {
            entries: &registry.entries,
            skills: &registry.skills,
            variants: r.variants.len(),
            conditioned: r
                .variants
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.condition.as_ref().map(|c| (i, c)))
                .collect(),
            default: r.default,
        }
    }
}

/// Analyses response number `response` under the view of skill `view`.
pub fn analyse(registry: &Registry, response: usize, view: Option<&str>) -> ResponseAnalysis {
    let (variants, states) = analyse_subject(&Subject::of(registry, response), view);
    ResponseAnalysis {
        response,
        view: view.map(str::to_owned),
        variants,
        states,
    }
}

/// The verdicts of `subject`'s variants under `view`, and how many memory
/// states were enumerated.
pub fn analyse_subject(subject: &Subject<'_>, view: Option<&str>) -> (Vec<Verdict>, usize) {
    let conditioned = &subject.conditioned;
    let mut verdicts = vec![Verdict::Undecided(String::new()); subject.variants];
    let is_conditioned = |i: usize| conditioned.iter().any(|(c, _)| *c == i);
    for (i, verdict) in verdicts.iter_mut().enumerate() {
        if !is_conditioned(i) && subject.default != Some(i) {
            *verdict = Verdict::Unreachable(Why::NotTheDefault);
        }
    }
    if conditioned.is_empty() {
        if let Some(d) = subject.default {
            verdicts[d] = Verdict::Reachable(Witness::default());
        }
        return (verdicts, 1);
    }
    // The entries the conditions read in this view; the rest read as unset.
    let readable = |id: usize| {
        let e = &subject.entries[id];
        e.visibility != Visibility::Private || view == Some(e.namespace.as_str())
    };
    let mut read: BTreeSet<usize> = BTreeSet::new();
    let mut comparisons = Comparisons::new(subject.entries.len());
    for (_, expr) in conditioned {
        read.extend(expr.refs().into_iter().copied().filter(|&id| readable(id)));
        comparisons.add(expr);
    }
    for &id in &read {
        let e = &subject.entries[id];
        comparisons.member(id, e.ty, &e.values);
    }
    let mut domains: Vec<(usize, Vec<Value>)> = Vec::new();
    for &id in &read {
        let e = &subject.entries[id];
        match comparisons.candidates(id, e.ty, &e.values) {
            Ok(values) if !values.is_empty() => domains.push((id, values)),
            Ok(_) => {}
            Err(domain::Unbounded(why)) => {
                let why = format!(
                    "a condition reads `session.{}.{}`, {why}, so nothing is claimed",
                    e.namespace, e.name
                );
                return (undecided(verdicts, subject, &why), 0);
            }
        }
    }
    let states = domains
        .iter()
        .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len() + 1));
    if states.is_none_or(|n| n > STATE_BUDGET) {
        let why = format!(
            "its conditions read {} entries with more than {STATE_BUDGET} states between them, over the analysis budget, so nothing is claimed",
            domains.len()
        );
        return (undecided(verdicts, subject, &why), 0);
    }
    let mut program = ProgramData::default();
    let at: Vec<usize> = conditioned
        .iter()
        .map(|(_, expr)| program.condition(*expr) as usize)
        .collect();
    let program = program.program();
    let mut memory = StateMemory(vec![None; subject.entries.len()]);
    let mut witness: Vec<Option<Witness>> = vec![None; subject.variants];
    let mut ever_true = vec![false; conditioned.len()];
    let mut first_error: Vec<Option<Option<EvalError>>> = vec![None; conditioned.len()];
    let mut shadowers: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); conditioned.len()];
    let mut outcomes: Vec<Result<bool, EvalError>> = Vec::with_capacity(at.len());
    // Every variant that can be delivered has a witness: nothing is left to prove.
    let wanted = conditioned.len() + usize::from(subject.default.is_some());
    let mut found = 0;
    let enumerated = for_each_state(&domains, |set| {
        for &id in &read {
            memory.0[id] = None;
        }
        for &(d, c) in set {
            memory.0[domains[d].0] = Some(&domains[d].1[c]);
        }
        let ctx = match view {
            Some(skill) => Context::for_skill_id(&memory, skill, subject.skills)
                .unwrap_or_else(|_| Context::new(&memory)),
            None => Context::new(&memory),
        };
        outcomes.clear();
        outcomes.extend(
            at.iter()
                .map(|&a| program.evaluate(a, subject.entries, &ctx)),
        );
        let winner = outcomes
            .iter()
            .position(|o| matches!(o, Ok(true)))
            .map(|c| conditioned[c].0)
            .or(subject.default);
        for (c, outcome) in outcomes.drain(..).enumerate() {
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
            let state = set
                .iter()
                .map(|&(d, c)| (domains[d].0, domains[d].1[c].clone()));
            witness[w] = Some(Witness(state.collect()));
            found += 1;
        }
        found < wanted
    });
    for (c, &(i, _)) in conditioned.iter().enumerate() {
        verdicts[i] = match witness[i].take() {
            Some(w) => Verdict::Reachable(w),
            None if !ever_true[c] => Verdict::Unreachable(Why::NeverTrue {
                error: first_error[c].flatten(),
            }),
            None => Verdict::Unreachable(Why::Shadowed(shadowers[c].iter().copied().collect())),
        };
    }
    if let Some(d) = subject.default {
        verdicts[d] = match witness[d].take() {
            Some(w) => Verdict::Reachable(w),
            None => Verdict::Unreachable(Why::Covered),
        };
    }
    (verdicts, enumerated)
}

/// `verdicts` with every conditioned variant and the default undecided.
fn undecided(mut verdicts: Vec<Verdict>, subject: &Subject<'_>, why: &str) -> Vec<Verdict> {
    for &(i, _) in &subject.conditioned {
        verdicts[i] = Verdict::Undecided(why.to_owned());
    }
    if let Some(d) = subject.default {
        verdicts[d] = Verdict::Undecided(why.to_owned());
    }
    verdicts
}

/// Calls `visit` with every state of `domains`, as the entries set: pairs
/// of a domain's index and the index of its value. Fewest entries set
/// first, so the first state that delivers a variant is a smallest
/// witness. Stops when `visit` returns false; returns how many states were
/// visited.
fn for_each_state(
    domains: &[(usize, Vec<Value>)],
    mut visit: impl FnMut(&[(usize, usize)]) -> bool,
) -> usize {
    let n = domains.len();
    let mut visited = 0;
    let mut set: Vec<(usize, usize)> = Vec::with_capacity(n);
    for k in 0..=n {
        // Each k-subset of the domains, in lexicographic order.
        let mut subset: Vec<usize> = (0..k).collect();
        loop {
            // Each assignment of values to the subset (mixed radix).
            set.clear();
            set.extend(subset.iter().map(|&d| (d, 0)));
            loop {
                visited += 1;
                if !visit(&set) {
                    return visited;
                }
                let mut i = k;
                let advanced = loop {
                    if i == 0 {
                        break false;
                    }
                    i -= 1;
                    set[i].1 += 1;
                    if set[i].1 < domains[set[i].0].1.len() {
                        break true;
                    }
                    set[i].1 = 0;
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
    visited
}

/// A state as people read it: `session.card.reason = 'lost'`, ...
pub fn describe_witness(entries: &[Entry<String, Vec<String>>], witness: &Witness) -> String {
    if witness.0.is_empty() {
        return "nothing set".to_owned();
    }
    let parts: Vec<String> = witness
        .0
        .iter()
        .map(|(id, value)| {
            let e = &entries[*id];
            let mut shown = String::new();
            let _ = utter::write_py_repr(&mut shown, value.as_ref());
            format!("session.{}.{} = {shown}", e.namespace, e.name)
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests;
