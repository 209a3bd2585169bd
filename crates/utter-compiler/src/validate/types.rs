//! Type analysis of conditions against the types declared in `memory.yml`.
//!
//! Each operand stands for the set of value kinds it may hold (an entry of
//! type `int` holds an int or, unset, `None`); each comparison for the set of
//! outcomes it may have (true, false, a Python `TypeError`). A comparison
//! that can never hold, or always fails, for its declared types is an error:
//! it makes its variant dead, or is always true where the author meant a
//! test. Python semantics stay the reference (`True == 1`, `1 == 1.0`,
//! `None` is a possible value of every entry).

use std::ops::Range;

use utter::{CmpOp, EntryType, compare};

use crate::condition::{Expr, Literal, MemoryRef};
use crate::diagnostics::{HintBudget, Severity, codes};

/// What validation knows of a declared entry.
#[derive(Clone, Debug)]
pub struct EntryInfo {
    pub ty: EntryType,
    pub values: Vec<String>,
}

/// A small set over a fixed universe, one bit a member: the operations
/// the analysis needs and nothing else, so two kinds of set never mix.
macro_rules! bit_set {
    ($(#[$doc:meta])* $name:ident { $($(#[$member_doc:meta])* $member:ident = $bit:expr),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        struct $name(u8);

        #[allow(dead_code)]
        impl $name {
            const EMPTY: $name = $name(0);
            $($(#[$member_doc])* const $member: $name = $name(1 << $bit);)*
            /// Every member.
            const ALL: $name = $name(0 $(| (1 << $bit))*);

            /// Whether the sets share a member.
            fn has(self, other: $name) -> bool {
                self.0 & other.0 != 0
            }

            /// The set if `condition`, else the empty set.
            fn when(self, condition: bool) -> $name {
                if condition { self } else { $name::EMPTY }
            }

            /// Each member on its own.
            fn members(self) -> impl Iterator<Item = $name> {
                (0..8).map(|bit| $name(1 << bit)).filter(move |m| self.has(*m))
            }
        }

        impl std::ops::BitOr for $name {
            type Output = $name;
            fn bitor(self, other: $name) -> $name {
                $name(self.0 | other.0)
            }
        }

        impl std::ops::BitOrAssign for $name {
            fn bitor_assign(&mut self, other: $name) {
                self.0 |= other.0;
            }
        }

        impl std::ops::BitAnd for $name {
            type Output = $name;
            fn bitand(self, other: $name) -> $name {
                $name(self.0 & other.0)
            }
        }

        impl std::ops::Not for $name {
            type Output = $name;
            /// The complement within the universe.
            fn not(self) -> $name {
                $name(!self.0 & $name::ALL.0)
            }
        }
    };
}

bit_set! {
    /// The kinds of value an operand may hold.
    Kinds { NONE = 0, BOOL = 1, INT = 2, FLOAT = 3, STR = 4, LIST = 5, MAP = 6 }
}

bit_set! {
    /// The outcomes a test may have.
    Outcomes {
        TRUE = 0,
        FALSE = 1,
        /// A Python `TypeError`: the variant is skipped.
        ERROR = 2,
    }
}

const NONE: Kinds = Kinds::NONE;
const BOOL: Kinds = Kinds::BOOL;
const INT: Kinds = Kinds::INT;
const FLOAT: Kinds = Kinds::FLOAT;
const STR: Kinds = Kinds::STR;
const LIST: Kinds = Kinds::LIST;
const MAP: Kinds = Kinds::MAP;
const ANY: Kinds = Kinds::ALL;
const NUMBER: Kinds = Kinds(Kinds::BOOL.0 | Kinds::INT.0 | Kinds::FLOAT.0);
const TRUE: Outcomes = Outcomes::TRUE;
const FALSE: Outcomes = Outcomes::FALSE;
const ERROR: Outcomes = Outcomes::ERROR;

/// The kinds an entry of type `ty` may hold. A float entry holds floats
/// only: typed memory stores an int written to it as a float.
fn kinds_of(ty: EntryType) -> Kinds {
    match ty {
        EntryType::Any | EntryType::Json => ANY,
        EntryType::Text | EntryType::Categorical => NONE | STR,
        EntryType::Int => NONE | INT,
        EntryType::Float => NONE | FLOAT,
        EntryType::Bool => NONE | BOOL,
        EntryType::List => NONE | LIST,
    }
}

fn literal_kind(l: &Literal) -> Kinds {
    match l {
        Literal::None => NONE,
        Literal::Bool(_) => BOOL,
        Literal::Int(_) => INT,
        Literal::Float(_) => FLOAT,
        Literal::Str(_) => STR,
    }
}

/// A literal as Python's `repr` writes it, for messages.
fn show_literal(l: &Literal) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = utter::write_py_repr(&mut out, l.value());
    out
}

fn kind_name(kind: Kinds) -> &'static str {
    match kind {
        NONE => "None",
        BOOL => "bool",
        INT => "int",
        FLOAT => "float",
        STR => "str",
        LIST => "list",
        MAP => "dict",
        _ => "value",
    }
}

/// The outcomes of `a <op> b` for one value kind on each side.
fn pair_outcomes(op: CmpOp, a: Kinds, b: Kinds) -> Outcomes {
    let numeric = a.has(NUMBER) && b.has(NUMBER);
    match op {
        op if op.is_equality() => {
            let (equal, unequal) = if numeric || (a == b && a != NONE) {
                (true, true)
            } else {
                (a == b, a != b)
            };
            let (holds, fails) = if op == CmpOp::Eq {
                (equal, unequal)
            } else {
                (unequal, equal)
            };
            TRUE.when(holds) | FALSE.when(fails)
        }
        _ if numeric || (a == STR && b == STR) => TRUE | FALSE,
        _ if a == LIST && b == LIST => TRUE | FALSE | ERROR,
        _ => ERROR,
    }
}

/// One operand of a comparison, as far as analysis can see it.
enum Operand<'e> {
    Lit(&'e Literal),
    Entry(&'e MemoryRef, &'e EntryInfo),
    /// A nested `and`/`or`/`not`/comparison: a bool.
    Bool,
    /// An entry that is not declared (reported elsewhere).
    Unknown,
}

impl Operand<'_> {
    fn kinds(&self) -> Kinds {
        match self {
            Operand::Lit(l) => literal_kind(l),
            Operand::Entry(_, info) => kinds_of(info.ty),
            Operand::Bool => BOOL,
            Operand::Unknown => ANY,
        }
    }
}

/// An entry compared with a literal, on either side.
#[derive(Clone, Copy)]
struct EntrySide<'e> {
    entry: &'e MemoryRef,
    info: &'e EntryInfo,
    literal: &'e Literal,
    /// Whether the literal is written first (it matters for orderings).
    literal_left: bool,
}

/// The outcomes of `a <op> b` over every pair of kinds the sides may hold.
fn outcomes(op: CmpOp, a: Kinds, b: Kinds) -> Outcomes {
    let mut out = Outcomes::EMPTY;
    for ka in a.members() {
        for kb in b.members() {
            out |= pair_outcomes(op, ka, kb);
        }
    }
    out
}

/// A type finding: a span in the condition text (`None`: the whole
/// condition), its code, severity and message.
pub struct TypeFinding {
    pub span: Option<Range<usize>>,
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The fix, shown as `help:`.
    pub help: Option<String>,
    /// A string literal the finding is about: the report points at it.
    pub literal: Option<LiteralFix>,
}

/// A string literal a finding is about, and what replaces it.
pub struct LiteralFix {
    /// Its value, without quotes.
    pub value: String,
    /// The value that replaces it: a did-you-mean written in the same
    /// quotes, or (`unquoted`) a number or boolean written without them.
    pub replacement: Option<String>,
    /// Whether the replacement is written without quotes.
    pub unquoted: bool,
}

struct Analysis<'a> {
    lookup: &'a dyn Fn(&MemoryRef) -> Option<&'a EntryInfo>,
    hints: &'a HintBudget,
    findings: Vec<TypeFinding>,
}

/// Analyses a parsed condition; `lookup` gives the declaration of a
/// readable entry (unreadable ones are reported by the caller).
pub fn analyse<'a>(
    expr: &'a Expr<MemoryRef>,
    lookup: &'a dyn Fn(&MemoryRef) -> Option<&'a EntryInfo>,
    hints: &'a HintBudget,
) -> Vec<TypeFinding> {
    let mut analysis = Analysis {
        lookup,
        hints,
        findings: Vec::new(),
    };
    let outcomes = analysis.test(expr);
    if analysis.findings.is_empty() && !outcomes.has(TRUE) {
        let why = if outcomes == ERROR {
            "is a TypeError for every value its entries can hold"
        } else {
            "can never be true for the values its entries can hold"
        };
        analysis.findings.push(TypeFinding {
            span: None,
            code: codes::NEVER_TRUE,
            severity: Severity::Warning,
            message: format!("this condition {why}, so the variant is never delivered"),
            help: None,
            literal: None,
        });
    }
    analysis.findings
}

impl<'a> Analysis<'a> {
    fn operand(&self, expr: &'a Expr<MemoryRef>) -> Operand<'a> {
        match expr {
            Expr::Lit(l) => Operand::Lit(l),
            Expr::Ref(r) => match (self.lookup)(r) {
                Some(info) => Operand::Entry(r, info),
                None => Operand::Unknown,
            },
            _ => Operand::Bool,
        }
    }

    /// The outcomes of `expr` taken as a condition (coerced with `bool()`).
    fn test(&mut self, expr: &'a Expr<MemoryRef>) -> Outcomes {
        match expr {
            Expr::Or(items) | Expr::And(items) => {
                let all: Vec<Outcomes> = items.iter().map(|e| self.test(e)).collect();
                let any = |outcome: Outcomes| all.iter().any(|o| o.has(outcome));
                let every = |outcome: Outcomes| all.iter().all(|o| o.has(outcome));
                // `or` is true when any operand can be, false only when all
                // can be false; `and` the other way round.
                let (truth, falsity) = if matches!(expr, Expr::Or(_)) {
                    (any(TRUE), every(FALSE))
                } else {
                    (every(TRUE), any(FALSE))
                };
                TRUE.when(truth) | FALSE.when(falsity) | ERROR.when(any(ERROR))
            }
            Expr::Not(inner) => {
                let o = self.test(inner);
                TRUE.when(o.has(FALSE)) | FALSE.when(o.has(TRUE)) | (o & ERROR)
            }
            Expr::Lit(l) => {
                if l.value().truthy() {
                    TRUE
                } else {
                    FALSE
                }
            }
            Expr::Ref(r) => match (self.lookup)(r) {
                Some(info) if kinds_of(info.ty) == NONE => FALSE,
                _ => TRUE | FALSE,
            },
            Expr::Compare { first, rest } => {
                // Python chaining: every link must hold for the chain to.
                let mut left = first.as_ref();
                let mut all_true = true;
                let mut outcomes = Outcomes::EMPTY;
                for (op, right) in rest {
                    let link = self.link(*op, left, right);
                    all_true &= link.has(TRUE);
                    outcomes |= link & (FALSE | ERROR);
                    left = right;
                }
                outcomes | TRUE.when(all_true)
            }
        }
    }

    /// The outcomes of one comparison; reports it when its declared types
    /// decide it.
    fn link(
        &mut self,
        op: CmpOp,
        left: &'a Expr<MemoryRef>,
        right: &'a Expr<MemoryRef>,
    ) -> Outcomes {
        let (a, b) = (self.operand(left), self.operand(right));
        for x in [left, right] {
            if !matches!(x, Expr::Lit(_) | Expr::Ref(_)) {
                self.test(x);
            }
        }
        if let (Operand::Lit(x), Operand::Lit(y)) = (&a, &b) {
            return match compare(op, x.value(), y.value()) {
                Ok(true) => TRUE,
                Ok(false) => FALSE,
                Err(_) => ERROR,
            };
        }
        let all = outcomes(op, a.kinds(), b.kinds());
        // An entry against a literal: what the declaration decides.
        let side = match (&a, &b) {
            (Operand::Entry(r, info), Operand::Lit(l)) => EntrySide {
                entry: r,
                info,
                literal: l,
                literal_left: false,
            },
            (Operand::Lit(l), Operand::Entry(r, info)) => EntrySide {
                entry: r,
                info,
                literal: l,
                literal_left: true,
            },
            (Operand::Entry(ra, ia), Operand::Entry(rb, ib)) => {
                self.entries_link(op, (ra, ia), (rb, ib));
                return all;
            }
            _ => return all,
        };
        if op.is_equality() {
            self.equality_with_literal(op, &side, all)
        } else {
            self.ordering_with_literal(op, &side, all)
        }
    }

    /// Two entries ordered against each other: an error when their declared
    /// types make every comparison a `TypeError`.
    fn entries_link(
        &mut self,
        op: CmpOp,
        (ra, ia): (&MemoryRef, &EntryInfo),
        (rb, ib): (&MemoryRef, &EntryInfo),
    ) {
        let set = outcomes(op, kinds_of(ia.ty) & !NONE, kinds_of(ib.ty) & !NONE);
        if !op.is_equality() && set == ERROR {
            self.findings.push(TypeFinding {
                span: Some(ra.span.start..rb.span.end.max(ra.span.end)),
                code: codes::TYPE_MISMATCH,
                severity: Severity::Error,
                message: format!(
                    "`{}` between `session.{}.{}` (declared `{}`) and `session.{}.{}` (declared `{}`) is a TypeError for every value they can hold, so this comparison never holds",
                    op.symbol(), ra.namespace, ra.entry, ia.ty, rb.namespace, rb.entry, ib.ty
                ),
                help: None,
                literal: None,
            });
        }
    }

    /// `entry == literal` or `!=`: a categorical value that is not declared,
    /// or a literal the entry's type can never equal.
    fn equality_with_literal(
        &mut self,
        op: CmpOp,
        side: &EntrySide<'_>,
        all: Outcomes,
    ) -> Outcomes {
        let EntrySide {
            entry: r,
            info,
            literal,
            ..
        } = *side;
        let reference = format!("session.{}.{}", r.namespace, r.entry);
        let shown = show_literal(literal);
        if let (EntryType::Categorical, Literal::Str(s)) = (info.ty, literal)
            && !info.values.iter().any(|v| v == s)
        {
            let near = self
                .hints
                .did_you_mean(s, info.values.iter().map(String::as_str));
            let help = Some(near.map_or_else(
                || format!("compare with one of {}", info.values.join(", ")),
                |v| format!("did you mean `{v}`?"),
            ));
            let verdict = if op == CmpOp::Eq {
                "so this comparison never holds"
            } else {
                "so this comparison always holds"
            };
            self.findings.push(TypeFinding {
                span: Some(r.span.clone()),
                code: codes::UNKNOWN_ENUM_VALUE,
                severity: Severity::Error,
                message: format!(
                    "`{reference}` is categorical with values {}; {shown} is not one of them, {verdict}",
                    info.values.join(", ")
                ),
                help,
                literal: Some(LiteralFix {
                    value: s.clone(),
                    replacement: near.map(str::to_owned),
                    unquoted: false,
                }),
            });
            return if op == CmpOp::Eq { FALSE } else { TRUE };
        }
        let bool_only = kinds_of(info.ty) & !NONE == BOOL;
        let never_equal = match literal {
            Literal::Int(i) if bool_only => !matches!(i, 0 | 1),
            Literal::Float(f) if bool_only => !(*f == 0.0 || *f == 1.0),
            _ => !all.has(if op == CmpOp::Eq { TRUE } else { FALSE }),
        };
        if !never_equal {
            return all;
        }
        let (verdict, outcome) = if op == CmpOp::Eq {
            ("never holds", FALSE)
        } else {
            ("always holds", TRUE)
        };
        self.findings.push(TypeFinding {
            span: Some(r.span.clone()),
            code: codes::NEVER_EQUAL,
            severity: Severity::Error,
            message: format!(
                "`{reference}` is declared `{}`, so it never equals {shown} ({}) and `{}` {verdict}",
                info.ty,
                kind_name(literal_kind(literal)),
                op.symbol(),
            ),
            help: literal_help(info, literal),
            literal: literal_fix(info.ty, literal),
        });
        outcome
    }

    /// `entry < literal` and the other orderings: an error when the
    /// declared type makes every comparison a `TypeError`.
    fn ordering_with_literal(
        &mut self,
        op: CmpOp,
        side: &EntrySide<'_>,
        all: Outcomes,
    ) -> Outcomes {
        let EntrySide {
            entry: r,
            info,
            literal,
            literal_left,
        } = *side;
        let declared = kinds_of(info.ty) & !NONE;
        let set = if literal_left {
            outcomes(op, literal_kind(literal), declared)
        } else {
            outcomes(op, declared, literal_kind(literal))
        };
        if set != ERROR {
            return all;
        }
        self.findings.push(TypeFinding {
            span: Some(r.span.clone()),
            code: codes::TYPE_MISMATCH,
            severity: Severity::Error,
            message: format!(
                "`{}` between `session.{}.{}` (declared `{}`) and {} ({}) is a TypeError on every delivery, so this comparison never holds",
                op.symbol(),
                r.namespace,
                r.entry,
                info.ty,
                show_literal(literal),
                kind_name(literal_kind(literal)),
            ),
            help: literal_help(info, literal),
            literal: literal_fix(info.ty, literal),
        });
        ERROR
    }
}

/// The literal written as the entry's type reads it, when that is one
/// value: a quoted number for a numeric entry, a quoted boolean for a
/// `bool` one.
fn unquoted(ty: EntryType, literal: &Literal) -> Option<String> {
    match (ty, literal) {
        (EntryType::Int | EntryType::Float, Literal::Str(s)) if s.trim().parse::<f64>().is_ok() => {
            Some(s.trim().to_owned())
        }
        (EntryType::Bool, Literal::Str(s))
            if matches!(s.as_str(), "True" | "False" | "true" | "false") =>
        {
            Some(
                if s.eq_ignore_ascii_case("true") {
                    "True"
                } else {
                    "False"
                }
                .to_owned(),
            )
        }
        _ => None,
    }
}

/// The fix of a literal of the wrong type for `info`, in words.
fn literal_help(info: &EntryInfo, literal: &Literal) -> Option<String> {
    if let Some(bare) = unquoted(info.ty, literal) {
        let kind = if info.ty == EntryType::Bool {
            "boolean"
        } else {
            "number"
        };
        return Some(format!("write the {kind} without quotes: `{bare}`"));
    }
    if !matches!(literal, Literal::Int(_) | Literal::Float(_)) {
        return None;
    }
    let shown = show_literal(literal);
    match info.ty {
        EntryType::Text => Some(format!("quote the value to compare text: `'{shown}'`")),
        EntryType::Categorical if !info.values.is_empty() => {
            let values: Vec<String> = info.values.iter().map(|v| format!("`'{v}'`")).collect();
            Some(format!(
                "compare with one of its values, quoted: {}",
                values.join(", ")
            ))
        }
        _ => None,
    }
}

/// The machine-applicable fix of a quoted literal `info` reads as another
/// type: the value without quotes.
fn literal_fix(ty: EntryType, literal: &Literal) -> Option<LiteralFix> {
    let Literal::Str(value) = literal else {
        return None;
    };
    Some(LiteralFix {
        value: value.clone(),
        replacement: Some(unquoted(ty, literal)?),
        unquoted: true,
    })
}
