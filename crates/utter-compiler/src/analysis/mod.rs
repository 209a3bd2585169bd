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
//! a guess: a condition reading an `any`, `json` or `list` entry is
//! undecided and says so.
//!
//! The work is bounded ([`Budget`]): each state costs its conditions'
//! operands, a response may spend [`RESPONSE_WORK_BUDGET`] and a whole
//! project [`PROJECT_WORK_BUDGET`]. Where the budget runs out, the
//! variants already shown delivered keep their witness (a proof needs no
//! more), and every other variant is undecided: unreachable is claimed only
//! after every state is seen.

mod budget;
pub mod domain;
mod equalities;
mod findings;
mod tally;
mod unset;
mod walk;

pub use budget::{Budget, PROJECT_WORK_BUDGET, RESPONSE_WORK_BUDGET};
pub use findings::findings;
pub(crate) use findings::{VerdictMemo, findings_with, one_response_findings};
pub use unset::placeholder_findings;

use std::collections::BTreeSet;

use utter::{Context, Entry, EntryKey, EvalError, Memory, Value, ValueRef};

use crate::condition::Expr;
use crate::lower::Registry;
use domain::read_domains;
use equalities::Equalities;
use tally::{conclude, initial_verdicts, stopped};
use utter::program::ProgramData;
use walk::{Conditions, StateWalk};

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

impl Verdict {
    /// What is claimed, without the proof.
    pub fn kind(&self) -> VerdictKind {
        match self {
            Verdict::Reachable(_) => VerdictKind::Reachable,
            Verdict::Unreachable(_) => VerdictKind::Unreachable,
            Verdict::Undecided(_) => VerdictKind::Undecided,
        }
    }
}

/// What the analysis claims of a variant, as every surface names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VerdictKind {
    /// Delivered for some memory state.
    Reachable,
    /// Never delivered.
    Unreachable,
    /// No claim.
    Undecided,
}

impl VerdictKind {
    /// Its name in data (JSON's `verdict`, the report's classes):
    /// `reachable`, `unreachable` or `undecided`.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Reachable => "reachable",
            VerdictKind::Unreachable => "unreachable",
            VerdictKind::Undecided => "undecided",
        }
    }

    /// Its words for people: `delivered`, `never delivered` or `not
    /// analysed`.
    pub fn words(self) -> &'static str {
        match self {
            VerdictKind::Reachable => "delivered",
            VerdictKind::Unreachable => "never delivered",
            VerdictKind::Undecided => "not analysed",
        }
    }
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
    /// Per variant: its placeholders that a state delivering it leaves
    /// unset (delivered as written), each with such a state.
    pub may_be_unset: Vec<Vec<(String, Witness)>>,
    /// Why the enumeration stopped before seeing every state, if it did:
    /// then `may_be_unset` may miss placeholders.
    pub stopped: Option<String>,
}

/// What [`analyse_subject`] finds.
pub struct Analysed {
    /// One verdict per variant.
    pub verdicts: Vec<Verdict>,
    /// How many memory states were enumerated.
    pub states: usize,
    /// See [`ResponseAnalysis::may_be_unset`].
    pub may_be_unset: Vec<Vec<(String, Witness)>>,
    /// See [`ResponseAnalysis::stopped`].
    pub stopped: Option<String>,
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
    /// Each variant's text, split: whose placeholders may be left unset is
    /// found for these (empty: not asked).
    pub pieces: Vec<&'a [utter::Piece<String, Vec<usize>>]>,
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
            pieces: r.variants.iter().map(|v| v.pieces.as_slice()).collect(),
        }
    }
}

/// Analyses response number `response` under the view of skill `view`,
/// spending at most what `budget` has left.
pub fn analyse(
    registry: &Registry,
    response: usize,
    view: Option<&str>,
    budget: &mut Budget,
) -> ResponseAnalysis {
    let found = analyse_subject(&Subject::of(registry, response), view, budget);
    ResponseAnalysis {
        response,
        view: view.map(str::to_owned),
        variants: found.verdicts,
        states: found.states,
        may_be_unset: found.may_be_unset,
        stopped: found.stopped,
    }
}

/// The verdicts of `subject`'s variants under `view`, and how many memory
/// states were enumerated, spending at most what `budget` has left.
pub fn analyse_subject(subject: &Subject<'_>, view: Option<&str>, budget: &mut Budget) -> Analysed {
    let conditioned = &subject.conditioned;
    let mut verdicts = initial_verdicts(subject);
    let may_be_unset: Vec<Vec<(String, Witness)>> = vec![Vec::new(); subject.variants];
    if conditioned.is_empty() {
        return unconditioned(subject, view, verdicts, may_be_unset);
    }
    let (read, domains) = match read_domains(subject, view) {
        Ok(found) => found,
        Err(why) => {
            return Analysed {
                verdicts: undecided(verdicts, subject, &why),
                states: 0,
                may_be_unset,
                stopped: None,
            };
        }
    };
    // `None`: more than a u64 counts.
    let states = domains.iter().try_fold(1u64, |n, (_, values)| {
        n.checked_mul(values.len() as u64 + 1)
    });
    // `entry == literal` conditions are true exactly where the entry holds
    // an equal value: looked up per state instead of evaluated, so a
    // response of many such variants costs a lookup per state, not a pass
    // over every condition.
    let equalities = Equalities::of(conditioned, &domains);
    // Each distinct condition is evaluated once per state, however many
    // variants repeat it (a YAML anchor reused thousands of times).
    let DistinctConditions {
        data,
        conditions: distinct,
        general,
    } = distinct_conditions(conditioned, &equalities.simple);
    // What a state costs: each distinct condition's operands, and setting
    // and looking up each entry read.
    let state_cost = 1
        + read.len() as u64
        + distinct
            .iter()
            .map(|(expr, _)| expr.operand_count() as u64)
            .sum::<u64>();
    let allowed = budget.left.min(RESPONSE_WORK_BUDGET);
    let mut spent = 0u64;
    let mut over_budget = false;
    let conditions = Conditions {
        equalities: &equalities,
        distinct: &distinct,
        general: &general,
        program: data.program(),
    };
    let mut walk = StateWalk::new(subject, view, (&read, &domains), conditions, may_be_unset);
    let placeholders_read = placeholders_read(subject, &read);
    // Every variant that can be delivered has a witness: nothing is left to prove.
    let wanted = conditioned.len() + usize::from(subject.default.is_some());
    let enumerated = for_each_state(&domains, |set| {
        spent += state_cost;
        if spent > allowed {
            over_budget = true;
            return false;
        }
        spent += walk.visit(set);
        // Whether a placeholder reading an entry the conditions read may be
        // unset is known only once every state is seen.
        walk.found < wanted || placeholders_read
    });
    budget.left -= spent.min(allowed);
    let StateWalk {
        tallies,
        mut witness,
        may_be_unset,
        ..
    } = walk;
    if over_budget {
        let seen = enumerated - 1;
        return stopped(
            subject,
            (verdicts, may_be_unset),
            &mut witness,
            (seen, states),
        );
    }
    conclude(&mut verdicts, subject, &tallies, &mut witness);
    Analysed {
        verdicts,
        states: enumerated,
        may_be_unset,
        stopped: None,
    }
}

/// A response without conditions: its default is delivered whatever memory
/// holds (its witness: nothing set).
fn unconditioned(
    subject: &Subject<'_>,
    view: Option<&str>,
    mut verdicts: Vec<Verdict>,
    mut may_be_unset: Vec<Vec<(String, Witness)>>,
) -> Analysed {
    if let Some(d) = subject.default {
        verdicts[d] = Verdict::Reachable(Witness::default());
        let nothing = StateMemory(vec![None; subject.entries.len()]);
        let ctx = view_of(&nothing, view, subject.skills);
        let mut seen = Vec::new();
        record_unset(
            subject,
            d,
            &ctx,
            &Witness::default(),
            &mut seen,
            &mut may_be_unset[d],
        );
    }
    Analysed {
        verdicts,
        states: 1,
        may_be_unset,
        stopped: None,
    }
}

/// Whether a placeholder of any variant reads an entry the conditions read.
fn placeholders_read(subject: &Subject<'_>, read: &BTreeSet<usize>) -> bool {
    subject.pieces.iter().any(|pieces| {
        pieces.iter().any(|piece| match piece {
            utter::Piece::Session { entry, .. } => read.contains(entry),
            utter::Piece::Bare { candidates, .. } => candidates.iter().any(|c| read.contains(c)),
            utter::Piece::Text(_) => false,
        })
    })
}

/// The general conditions of a response (those that are not `entry ==
/// literal`), each distinct one encoded once.
struct DistinctConditions<'a> {
    data: ProgramData,
    /// Each distinct condition and its offset in `data`.
    conditions: Vec<(&'a Expr<usize>, usize)>,
    /// Per general condition: its number in `conditioned` and among the
    /// distinct ones.
    general: Vec<(usize, usize)>,
}

fn distinct_conditions<'a>(
    conditioned: &[(usize, &'a Expr<usize>)],
    simple: &[bool],
) -> DistinctConditions<'a> {
    let mut data = ProgramData::default();
    let mut conditions: Vec<(&Expr<usize>, usize)> = Vec::new();
    let mut by_shape: std::collections::HashMap<String, Vec<usize>> =
        std::collections::HashMap::new();
    let general = conditioned
        .iter()
        .enumerate()
        .filter(|(c, _)| !simple[*c])
        .map(|(c, (_, expr))| {
            let same = by_shape.entry(format!("{expr:?}")).or_default();
            let found = same.iter().copied().find(|&k| conditions[k].0 == *expr);
            let k = found.unwrap_or_else(|| {
                conditions.push((*expr, data.condition(*expr) as usize));
                same.push(conditions.len() - 1);
                conditions.len() - 1
            });
            (c, k)
        })
        .collect();
    DistinctConditions {
        data,
        conditions,
        general,
    }
}

/// The view of `memory` under skill `view` (none active: `None`).
fn view_of<'m>(
    memory: &'m (dyn Memory + Sync),
    view: Option<&'m str>,
    skills: &[String],
) -> Context<'m> {
    match view {
        Some(skill) => {
            Context::for_skill_id(memory, skill, skills).unwrap_or_else(|_| Context::new(memory))
        }
        None => Context::new(memory),
    }
}

/// Records each placeholder of variant `variant` that `ctx` leaves unset
/// (delivered as written) and `seen` does not hold yet, with `state`.
fn record_unset(
    subject: &Subject<'_>,
    variant: usize,
    ctx: &Context<'_>,
    state: &Witness,
    seen: &mut Vec<String>,
    out: &mut Vec<(String, Witness)>,
) {
    for piece in subject.pieces.get(variant).copied().unwrap_or_default() {
        let (utter::Piece::Session { raw, .. } | utter::Piece::Bare { raw, .. }) = piece else {
            continue;
        };
        if seen.contains(raw) {
            continue;
        }
        let shown = utter::render(std::slice::from_ref(piece), subject.entries, ctx);
        if shown == raw.as_str() {
            seen.push(raw.clone());
            out.push((raw.clone(), state.clone()));
        }
    }
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
