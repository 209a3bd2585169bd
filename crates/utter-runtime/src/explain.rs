//! Why a delivery chose its variant: each condition's outcome for one
//! memory, and the rule that decided. Off the hot path (every condition is
//! evaluated, also those after the winner); `utter render --explain` and a
//! running agent's generated `explain` build the same [`Explanation`].

use std::fmt;

use crate::escape::escape;
use crate::value::EvalError;

/// One conditioned variant's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionOutcome<'a> {
    /// The variant's position (YAML order).
    pub variant: usize,
    /// Its condition as written.
    pub condition: &'a str,
    /// True, false, or the error that skips the variant.
    pub outcome: Result<bool, EvalError>,
    /// Whether delivery evaluates it: no earlier variant won.
    pub evaluated_at_delivery: bool,
}

/// Why a response delivered what it did for one memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation<'a> {
    /// The response asked for.
    pub response: &'a str,
    /// Whether the agent defines it (else its name is delivered).
    pub known: bool,
    /// Each conditioned variant, in YAML order.
    pub conditions: Vec<ConditionOutcome<'a>>,
    /// The variant delivered when no condition holds.
    pub default: Option<usize>,
    /// The variant delivered (`None`: the name, the fail-closed text).
    pub delivered: Option<usize>,
}

impl<'a> Explanation<'a> {
    /// The explanation of a response from its conditions' outcomes, in YAML
    /// order (variant, condition as written, outcome): the first true
    /// condition wins, an error skips its variant, else the default, else
    /// the name.
    pub fn new(
        response: &'a str,
        default: Option<usize>,
        outcomes: impl IntoIterator<Item = (usize, &'a str, Result<bool, EvalError>)>,
    ) -> Self {
        let mut winner = None;
        let conditions = outcomes
            .into_iter()
            .map(|(variant, condition, outcome)| {
                let evaluated_at_delivery = winner.is_none();
                if outcome == Ok(true) {
                    winner.get_or_insert(variant);
                }
                ConditionOutcome {
                    variant,
                    condition,
                    outcome,
                    evaluated_at_delivery,
                }
            })
            .collect();
        Explanation {
            response,
            known: true,
            conditions,
            default,
            delivered: winner.or(default),
        }
    }

    /// A response the agent does not define: its name is delivered.
    pub fn unknown(response: &'a str) -> Self {
        Explanation {
            response,
            known: false,
            conditions: Vec::new(),
            default: None,
            delivered: None,
        }
    }

    /// Whether a condition won (rather than the default or the name).
    pub fn condition_won(&self) -> bool {
        self.conditions
            .iter()
            .any(|c| c.outcome == Ok(true) && Some(c.variant) == self.delivered)
    }
}

/// One line per conditioned variant, then the verdict: what `utter render
/// --explain` prints. The response name and conditions are the agent's:
/// escaped ([`crate::escape`]), so none starts a line of its own.
impl fmt::Display for Explanation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.known {
            return writeln!(
                f,
                "`{}` is not a response of the agent: its name is delivered",
                escape(self.response)
            );
        }
        for c in &self.conditions {
            write!(f, "variant {} `{}`: ", c.variant, escape(c.condition))?;
            match &c.outcome {
                Ok(true) => f.write_str("true")?,
                Ok(false) => f.write_str("false")?,
                Err(e) => write!(f, "error ({e}): the variant is skipped")?,
            }
            if !c.evaluated_at_delivery {
                f.write_str(" (not evaluated at delivery: an earlier variant won)")?;
            }
            f.write_str("\n")?;
        }
        match (self.delivered, self.condition_won()) {
            (Some(w), true) => {
                writeln!(
                    f,
                    "delivered: variant {w}, the first whose condition is true"
                )
            }
            (Some(d), false) => writeln!(
                f,
                "delivered: variant {d}, the default (no condition is true)"
            ),
            (None, _) => writeln!(
                f,
                "delivered: the response name (no condition is true and there is no default)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::CmpOp;

    #[test]
    fn the_first_true_condition_wins_and_later_ones_are_marked() {
        let error = EvalError {
            op: CmpOp::Lt,
            left: "str",
            right: "int",
        };
        let e = Explanation::new(
            "utter_x",
            Some(3),
            [
                (0, "a < 1", Err(error)),
                (1, "b", Ok(true)),
                (2, "c", Ok(true)),
            ],
        );
        assert_eq!(e.delivered, Some(1));
        assert_eq!(
            e.to_string(),
            "variant 0 `a < 1`: error ('<' not supported between instances of 'str' and 'int'): the variant is skipped\n\
             variant 1 `b`: true\n\
             variant 2 `c`: true (not evaluated at delivery: an earlier variant won)\n\
             delivered: variant 1, the first whose condition is true\n"
        );
        let none = Explanation::new("utter_x", None, [(0, "a", Ok(false))]);
        assert_eq!(none.delivered, None);
        assert!(none.to_string().ends_with(
            "delivered: the response name (no condition is true and there is no default)\n"
        ));
        let default = Explanation::new("utter_x", Some(1), [(0, "a", Ok(false))]);
        assert!(
            default
                .to_string()
                .ends_with("delivered: variant 1, the default (no condition is true)\n")
        );
        assert!(
            Explanation::unknown("utter_y")
                .to_string()
                .contains("not a response")
        );
    }
}
