//! How much work the analysis may do.

/// The most work spent on one response and view, in operand evaluations
/// (each memory state costs one per operand of each distinct condition,
/// plus one per entry set): about 50 ms here.
pub const RESPONSE_WORK_BUDGET: u64 = 1 << 24;

/// The most work spent on one project's analysis (check, snapshot, diff
/// each side): about half a second here, so no file of a few hundred KB
/// holds the analysis for seconds.
pub const PROJECT_WORK_BUDGET: u64 = 1 << 27;

/// The work the analysis may still do, shared by the responses of one run.
#[derive(Clone, Debug)]
pub struct Budget {
    pub(super) left: u64,
}

impl Budget {
    /// The budget of a whole project.
    pub fn project() -> Self {
        Budget {
            left: PROJECT_WORK_BUDGET,
        }
    }

    /// The budget of one response analysed alone (explain, hover).
    pub fn response() -> Self {
        Budget {
            left: RESPONSE_WORK_BUDGET,
        }
    }

    /// The work left.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// Takes `spent` again (work replayed from an earlier check) when more
    /// than it is left, as when it was first spent; false, and nothing
    /// taken, otherwise.
    pub(crate) fn replay(&mut self, spent: u64) -> bool {
        match self.left.checked_sub(spent) {
            Some(left) if left > 0 => {
                self.left = left;
                true
            }
            _ => false,
        }
    }
}
