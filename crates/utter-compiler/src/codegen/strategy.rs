//! Which form an agent's responses are compiled in ([`Strategy`]), by the
//! build cost of straight-line code, and the doc line that says why.

/// How responses are compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Straight-line code while its build cost stays within
    /// [`STRAIGHT_LINE_BUDGET`], compact beyond.
    #[default]
    Auto,
    /// A selection function per shape of conditions, texts as static
    /// pieces: the fastest delivery, the longest build for large agents.
    StraightLine,
    /// Texts and variant records as data read by the runtime, selection as
    /// straight-line code: builds in a fraction of the time, texts with
    /// placeholders rendered from their pieces.
    Compact,
}

/// The build cost [`Strategy::Auto`] allows straight-line code, counted in
/// responses: each response costs one and each distinct shape of selection
/// or of text [`SHAPE_COST`], because a release build's time follows both.
/// Measured on this project's 2-core machine (benches/BUILD-COST-SHAPES.md,
/// two runs): about 3 ms per response and 17 to 23 ms per shape, so the
/// budget keeps a release build near 7 s: 2,000 responses of a few shapes,
/// or 1,000 of up to about 150 shapes, are straight-line; 2,100 responses
/// of one shape, or 1,000 of 200 shapes (7 to 8 s), compact. (It was 1,600
/// with 5 per shape until straight-line responses got cheaper to build:
/// 1,000 responses 4.8 -> 3.3 s.)
pub const STRAIGHT_LINE_BUDGET: usize = 2_100;

/// What one distinct shape of selection or of text costs to build, in
/// responses (see [`STRAIGHT_LINE_BUDGET`]).
pub const SHAPE_COST: usize = 7;

/// How many responses with conditions the compact form selects by
/// compiled code (the straight-line code's selection, a `match` arm each);
/// the program walks the conditions of any further ones. Compiled, a
/// selection takes about a third of the instructions of walking its
/// conditions, but builds at about 0.8 ms of release build per response
/// (10,000 responses of 2 conditions each: 2.9 s as a walk, 11.3 s all
/// compiled; benches/README.md), so the compact form's build stays within
/// about 2 s of its cost without them.
pub const COMPILED_SELECTIONS: usize = 2_000;

impl Strategy {
    /// Whether an agent of `responses` responses is compiled compact
    /// before its shapes are counted: beyond the budget in any case.
    pub(super) fn is_compact_by_size(self, responses: usize) -> bool {
        self.is_compact(responses, 0)
    }

    /// Whether an agent of `responses` responses whose straight-line code
    /// has `shapes` distinct shapes of selection and of text is compiled
    /// compact.
    pub fn is_compact(self, responses: usize, shapes: usize) -> bool {
        match self {
            Strategy::Auto => build_cost(responses, shapes) > STRAIGHT_LINE_BUDGET,
            Strategy::StraightLine => false,
            Strategy::Compact => true,
        }
    }
}

/// The build cost of straight-line code, in responses.
fn build_cost(responses: usize, shapes: usize) -> usize {
    responses.saturating_add(shapes.saturating_mul(SHAPE_COST))
}

/// The doc line of the private module: the form of an agent of
/// `responses` responses, compiled `compact` or not, and why (`shapes`:
/// its straight-line code's shapes, when they were counted).
pub(super) fn form_doc(
    strategy: Strategy,
    responses: usize,
    shapes: Option<usize>,
    compact: bool,
) -> String {
    let form = if compact {
        "the compact form (texts as data read by `utter::program`, selection as code)"
    } else {
        "straight-line code"
    };
    let cost = shapes.map(|shapes| {
        format!(
            "{} responses + {SHAPE_COST} x {shapes} shapes of selection and text = {} of a budget of {STRAIGHT_LINE_BUDGET}",
            responses,
            build_cost(responses, shapes)
        )
    });
    match (strategy, cost) {
        (Strategy::Auto, Some(cost)) => {
            format!(" Responses compiled as {form}: build cost {cost}.")
        }
        (Strategy::Auto, None) => format!(
            " Responses compiled as {form}: {responses} responses exceed the straight-line budget of {STRAIGHT_LINE_BUDGET}."
        ),
        (_, Some(cost)) => format!(" Responses compiled as {form}, as asked (build cost {cost})."),
        (_, None) => format!(" Responses compiled as {form}, as asked."),
    }
}
