//! What the enumeration learns of each conditioned variant, and the
//! verdicts it proves once every memory state was seen.

use std::collections::BTreeSet;

use utter::EvalError;

use super::{Subject, Verdict, Why, Witness};

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
