//! The interpreter: delivers responses of a [`Registry`] at run time, with
//! the same semantics as generated code (both call the `utter` runtime for
//! comparisons, truthiness and interpolation).

use utter::program::{Program, ProgramData};
use utter::{Context, Delivery, EvalError, Explanation};

use crate::condition::Expr;
use crate::lower::Registry;

#[cfg(feature = "serde")]
mod request;

#[cfg(feature = "serde")]
pub use request::{Answer, Request, RequestError};

impl Registry {
    /// Evaluates a condition (a `when:` trigger, say) with the runtime's
    /// evaluator: whether its value is truthy, or why it cannot be evaluated.
    pub fn eval(&self, expr: &Expr<usize>, ctx: &Context<'_>) -> Result<bool, EvalError> {
        let mut program = ProgramData::default();
        let at = program.condition(expr) as usize;
        program.program().evaluate(at, &self.entries, ctx)
    }

    /// Whether a condition holds: true, or skipped (false) on an evaluation error.
    pub fn holds(&self, expr: &Expr<usize>, ctx: &Context<'_>) -> bool {
        matches!(self.eval(expr, ctx), Ok(true))
    }

    /// Why `name` delivers what it does from `ctx`: each condition's
    /// outcome (all of them evaluated) and the rule that decided; what
    /// `utter render --explain` prints and a compiled agent's `explain`
    /// returns.
    pub fn explain<'a>(&'a self, name: &'a str, ctx: &Context<'_>) -> Explanation<'a> {
        let Some(response) = self.response(name) else {
            return Explanation::unknown(name);
        };
        let conditions = response.variants.iter().enumerate().filter_map(|(i, v)| {
            let condition = v.condition.as_ref()?;
            let shown = v.condition_text.as_deref().unwrap_or_default();
            Some((i, shown, self.eval(condition, ctx)))
        });
        Explanation::new(&response.name, response.default, conditions)
    }

    /// The registry ready to deliver: its responses encoded once.
    pub fn interpreter(&self) -> Interpreter<'_> {
        Interpreter {
            registry: self,
            program: self.encode(),
        }
    }
}

/// Delivers the responses of a [`Registry`] at run time: the registry and
/// its program (the encoded responses the runtime's evaluator walks).
#[derive(Clone, Debug)]
pub struct Interpreter<'r> {
    registry: &'r Registry,
    program: ProgramData,
}

impl<'r> Interpreter<'r> {
    /// The registry it delivers.
    pub fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// The encoded responses.
    pub fn program(&self) -> Program<'_> {
        self.program.program()
    }

    /// The variant of `response` (by index in `responses`) to deliver: the
    /// first conditioned variant that holds, else the default; `None` when
    /// nothing can be selected.
    pub fn select(&self, response: usize, ctx: &Context<'_>) -> Option<usize> {
        self.program().select(response, &self.registry.entries, ctx)
    }

    /// Delivers `name`: the selected variant, interpolated; or the name itself
    /// (not rephrased) when it is unknown or nothing can be selected.
    pub fn deliver<'a>(&'a self, name: &'a str, ctx: &Context<'_>) -> Delivery<'a> {
        match self
            .registry
            .responses
            .binary_search_by(|r| r.name.as_str().cmp(name))
        {
            Ok(index) => self.program().deliver(index, &self.registry.entries, ctx),
            Err(_) => Delivery::fallback(name),
        }
    }
}
