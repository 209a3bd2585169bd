//! What the enumeration learns of each conditioned variant, and the
//! verdicts it proves once every memory state was seen.

use std::collections::BTreeSet;

use utter::EvalError;

use super::{Analysed, Subject, Verdict, Why, Witness};

/// What the enumeration learned of one conditioned variant.
pub(super) struct Tally {
    /// Its condition held in some state.
    pub(super) ever_true: bool,
    /// `None`: never evaluated; `Some(None)`: evaluated without error at
    /// least once; `Some(Some(e))`: an error (the first) every time so far.
    pub(super) first_error: Option<Option<EvalError>>,
    /// The variants delivered instead where its condition held.
    pub(super) shadowers: BTreeSet<usize>,
}

impl Tally {
    /// Its condition held; `winner` was delivered instead, if another.
    pub(super) fn held(&mut self, winner: Option<usize>) {
        self.ever_true = true;
        self.first_error = Some(None);
        if let Some(w) = winner {
            self.shadowers.insert(w);
        }
    }

    /// Its condition was evaluated (an equality is not: it never errs).
    pub(super) fn evaluated(&mut self, outcome: Result<bool, EvalError>) {
        match outcome {
            Ok(_) => self.first_error = Some(None),
            Err(e) => {
                self.first_error.get_or_insert(Some(e));
            }
        }
    }
}

/// The verdicts once every state was seen: a witness proves a variant;
/// without one, a conditioned variant's condition never held, or others
/// were delivered wherever it did; a default without one is covered.
pub(super) fn conclude(
    verdicts: &mut [Verdict],
    subject: &Subject<'_>,
    tallies: &[Tally],
    witness: &mut [Option<Witness>],
) {
    for (tally, &(i, _)) in tallies.iter().zip(&subject.conditioned) {
        verdicts[i] = match witness[i].take() {
            Some(w) => Verdict::Reachable(w),
            None if !tally.ever_true => Verdict::Unreachable(Why::NeverTrue {
                error: tally.first_error.flatten(),
            }),
            None => Verdict::Unreachable(Why::Shadowed(tally.shadowers.iter().copied().collect())),
        };
    }
    if let Some(d) = subject.default {
        verdicts[d] = match witness[d].take() {
            Some(w) => Verdict::Reachable(w),
            None => Verdict::Unreachable(Why::Covered),
        };
    }
}

/// The verdicts when the enumeration stopped at its budget: each witness
/// found proves its variant; every other conditioned variant and the
/// default are undecided, `why`.
pub(super) fn conclude_stopped(
    verdicts: &mut [Verdict],
    subject: &Subject<'_>,
    witness: &mut [Option<Witness>],
    why: &str,
) {
    let decided = subject
        .conditioned
        .iter()
        .map(|&(i, _)| i)
        .chain(subject.default);
    for i in decided {
        verdicts[i] = match witness[i].take() {
            Some(w) => Verdict::Reachable(w),
            None => Verdict::Undecided(why.to_owned()),
        };
    }
}

/// Before any state is seen: undecided, but a variant without a condition
/// that is not the default, which is never delivered.
pub(super) fn initial_verdicts(subject: &Subject<'_>) -> Vec<Verdict> {
    let mut is_conditioned = vec![false; subject.variants];
    for (c, _) in &subject.conditioned {
        is_conditioned[*c] = true;
    }
    (0..subject.variants)
        .map(|i| {
            if !is_conditioned[i] && subject.default != Some(i) {
                Verdict::Unreachable(Why::NotTheDefault)
            } else {
                Verdict::Undecided(String::new())
            }
        })
        .collect()
}

/// What the enumeration learns of each conditioned variant, before it
/// starts (`simple`: an equality, which never errs).
pub(super) fn fresh_tallies(simple: &[bool]) -> Vec<Tally> {
    simple
        .iter()
        .map(|&simple| Tally {
            ever_true: false,
            first_error: simple.then_some(None),
            shadowers: BTreeSet::new(),
        })
        .collect()
}

/// The analysis stopped at its work budget after `seen` of `states`: each
/// witness found proves its variant; nothing else is proved.
pub(super) fn stopped(
    subject: &Subject<'_>,
    (mut verdicts, may_be_unset): (Vec<Verdict>, Vec<Vec<(String, Witness)>>),
    witness: &mut [Option<Witness>],
    (seen, states): (usize, Option<u64>),
) -> Analysed {
    let of = states.map_or("more than 2^64".to_owned(), |n| n.to_string());
    let why = format!(
        "the analysis stopped at its work budget after {seen} of {of} memory states, before this was decided, so nothing is claimed"
    );
    conclude_stopped(&mut verdicts, subject, witness, &why);
    Analysed {
        verdicts,
        states: seen,
        may_be_unset,
        stopped: Some(format!(
            "the analysis stopped at its work budget after {seen} of {of} memory states: a placeholder not listed may still be left unset"
        )),
    }
}
