//! One response's walk over memory states: each state set in a memory,
//! its conditions evaluated, the variant it delivers found, and what that
//! shows of every variant kept (tallies, witnesses, placeholders left
//! unset) until the walk ends.

use std::collections::BTreeSet;

use utter::program::Program;
use utter::{EvalError, Value};

use super::tally::{Tally, fresh_tallies};
use super::{Equalities, StateMemory, Subject, Witness, record_unset, view_of};
use crate::condition::Expr;

/// The walk under way (see the module): what each state is checked
/// against, scratch kept from state to state, and what the states seen so
/// far have shown.
pub(super) struct StateWalk<'w> {
    subject: &'w Subject<'w>,
    view: Option<&'w str>,
    domains: &'w [(usize, Vec<Value>)],
    read: &'w BTreeSet<usize>,
    equalities: &'w Equalities,
    /// Each distinct general condition and its offset in `program`.
    distinct: &'w [(&'w Expr<usize>, usize)],
    /// Per general condition: its number among the conditioned and among
    /// the distinct ones.
    general: &'w [(usize, usize)],
    program: Program<'w>,
    memory: StateMemory<'w>,
    distinct_outcomes: Vec<Result<bool, EvalError>>,
    outcomes: Vec<(usize, Result<bool, EvalError>)>,
    holding: Vec<usize>,
    unset_seen: Vec<Vec<String>>,
    /// What each conditioned variant's condition did.
    pub(super) tallies: Vec<Tally>,
    /// Per variant: the first (smallest) state that delivered it.
    pub(super) witness: Vec<Option<Witness>>,
    /// Per variant: its placeholders a state delivering it leaves unset.
    pub(super) may_be_unset: Vec<Vec<(String, Witness)>>,
    /// How many variants have a witness.
    pub(super) found: usize,
}

/// The conditions a walk evaluates: the `entry == literal` ones looked up
/// per value, each distinct other one encoded once in `program`.
pub(super) struct Conditions<'w> {
    pub(super) equalities: &'w Equalities,
    pub(super) distinct: &'w [(&'w Expr<usize>, usize)],
    pub(super) general: &'w [(usize, usize)],
    pub(super) program: Program<'w>,
}

impl<'w> StateWalk<'w> {
    pub(super) fn new(
        subject: &'w Subject<'w>,
        view: Option<&'w str>,
        (read, domains): (&'w BTreeSet<usize>, &'w [(usize, Vec<Value>)]),
        conditions: Conditions<'w>,
        may_be_unset: Vec<Vec<(String, Witness)>>,
    ) -> Self {
        StateWalk {
            subject,
            view,
            domains,
            read,
            equalities: conditions.equalities,
            distinct: conditions.distinct,
            general: conditions.general,
            program: conditions.program,
            memory: StateMemory(vec![None; subject.entries.len()]),
            distinct_outcomes: Vec::with_capacity(conditions.distinct.len()),
            outcomes: Vec::with_capacity(conditions.general.len()),
            holding: Vec::new(),
            unset_seen: vec![Vec::new(); subject.variants],
            tallies: fresh_tallies(&conditions.equalities.simple),
            witness: vec![None; subject.variants],
            may_be_unset,
            found: 0,
        }
    }

    /// Walks one state (the entries `set`, as pairs of a domain and the
    /// index of its value): the variant it delivers and what each
    /// condition did. Returns the work spent on placeholders, beyond the
    /// state's own cost.
    pub(super) fn visit(&mut self, set: &[(usize, usize)]) -> u64 {
        let (subject, domains) = (self.subject, self.domains);
        for &id in self.read {
            self.memory.0[id] = None;
        }
        for &(d, c) in set {
            self.memory.0[domains[d].0] = Some(&domains[d].1[c]);
        }
        let ctx = view_of(&self.memory, self.view, subject.skills);
        let program = &self.program;
        self.distinct_outcomes.clear();
        self.distinct_outcomes.extend(
            (self.distinct.iter()).map(|&(_, at)| program.evaluate(at, subject.entries, &ctx)),
        );
        self.outcomes.clear();
        let distinct_outcomes = &self.distinct_outcomes;
        (self.outcomes).extend(self.general.iter().map(|&(c, k)| (c, distinct_outcomes[k])));
        self.holding.clear();
        for &(d, v) in set {
            (self.holding).extend_from_slice(&self.equalities.holding[d][v]);
        }
        let general_true = self.outcomes.iter().filter(|(_, o)| matches!(o, Ok(true)));
        self.holding.extend(general_true.map(|(c, _)| *c));
        let conditioned = &subject.conditioned;
        let winner = (self.holding.iter().min())
            .map(|&c| conditioned[c].0)
            .or(subject.default);
        for &c in &self.holding {
            self.tallies[c].held(winner.filter(|&w| w != conditioned[c].0));
        }
        for (c, outcome) in self.outcomes.drain(..) {
            self.tallies[c].evaluated(outcome);
        }
        let Some(w) = winner else {
            return 0;
        };
        let state = || {
            Witness(
                set.iter()
                    .map(|&(d, c)| (domains[d].0, domains[d].1[c].clone()))
                    .collect(),
            )
        };
        if self.witness[w].is_none() {
            self.witness[w] = Some(state());
            self.found += 1;
        }
        let Some(pieces) = subject.pieces.get(w) else {
            return 0;
        };
        let (seen, out) = (&mut self.unset_seen[w], &mut self.may_be_unset[w]);
        record_unset(subject, w, &ctx, &state(), seen, out);
        pieces.len() as u64
    }
}
