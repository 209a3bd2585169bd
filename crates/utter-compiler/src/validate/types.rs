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
use crate::diagnostics::{Severity, codes, did_you_mean};

/// What validation knows of a declared entry.
#[derive(Clone, Debug)]
pub struct EntryInfo {
    pub ty: EntryType,
    pub values: Vec<String>,
}

/// Kinds of value, as bits.
const NONE: u8 = 1;
const BOOL: u8 = 2;
const INT: u8 = 4;
const FLOAT: u8 = 8;
const STR: u8 = 16;
const LIST: u8 = 32;
const MAP: u8 = 64;
const ANY: u8 = 127;
const NUMBER: u8 = BOOL | INT | FLOAT;

/// Outcomes of a test, as bits.
const TRUE: u8 = 1;
const FALSE: u8 = 2;
const ERROR: u8 = 4;

/// The kinds an entry of type `ty` may hold. A float entry holds floats
/// only: typed memory stores an int written to it as a float.
fn kinds_of(ty: EntryType) -> u8 {
    match ty {
        EntryType::Any | EntryType::Json => ANY,
        EntryType::Text | EntryType::Categorical => NONE | STR,
        EntryType::Int => NONE | INT,
        EntryType::Float => NONE | FLOAT,
        EntryType::Bool => NONE | BOOL,
        EntryType::List => NONE | LIST,
    }
}

fn literal_kind(l: &Literal) -> u8 {
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

fn kind_name(kind: u8) -> &'static str {
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
fn pair_outcomes(op: CmpOp, a: u8, b: u8) -> u8 {
    let numeric = a & NUMBER != 0 && b & NUMBER != 0;
    match op {
        CmpOp::Eq | CmpOp::Ne => {
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
            (if holds { TRUE } else { 0 }) | (if fails { FALSE } else { 0 })
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
    fn kinds(&self) -> u8 {
        match self {
            Operand::Lit(l) => literal_kind(l),
            Operand::Entry(_, info) => kinds_of(info.ty),
            Operand::Bool => BOOL,
            Operand::Unknown => ANY,
        }
    }
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
    /// A string literal the finding is about, and the value that should
    /// replace it (a did-you-mean): the report points at the literal.
    pub literal: Option<(String, Option<String>)>,
}

struct Analysis<'a> {
    lookup: &'a dyn Fn(&MemoryRef) -> Option<&'a EntryInfo>,
    findings: Vec<TypeFinding>,
}

/// Analyses a parsed condition; `lookup` gives the declaration of a
/// readable entry (unreadable ones are reported by the caller).
pub fn analyse<'a>(
    expr: &'a Expr<MemoryRef>,
    lookup: &'a dyn Fn(&MemoryRef) -> Option<&'a EntryInfo>,
) -> Vec<TypeFinding> {
    let mut analysis = Analysis {
        lookup,
        findings: Vec::new(),
    };
    let outcomes = analysis.test(expr);
    if analysis.findings.is_empty() && outcomes & TRUE == 0 {
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
    fn test(&mut self, expr: &'a Expr<MemoryRef>) -> u8 {
        match expr {
            Expr::Or(items) => {
                let all: Vec<u8> = items.iter().map(|e| self.test(e)).collect();
                let any = |bit| all.iter().any(|o| o & bit != 0);
                (if any(TRUE) { TRUE } else { 0 })
                    | (if all.iter().all(|o| o & FALSE != 0) {
                        FALSE
                    } else {
                        0
                    })
                    | (if any(ERROR) { ERROR } else { 0 })
            }
            Expr::And(items) => {
                let all: Vec<u8> = items.iter().map(|e| self.test(e)).collect();
                let any = |bit| all.iter().any(|o| o & bit != 0);
                (if all.iter().all(|o| o & TRUE != 0) {
                    TRUE
                } else {
                    0
                }) | (if any(FALSE) { FALSE } else { 0 })
                    | (if any(ERROR) { ERROR } else { 0 })
            }
            Expr::Not(inner) => {
                let o = self.test(inner);
                (if o & FALSE != 0 { TRUE } else { 0 })
                    | (if o & TRUE != 0 { FALSE } else { 0 })
                    | (o & ERROR)
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
                let mut outcomes = 0;
                for (op, right) in rest {
                    let link = self.link(*op, left, right);
                    all_true &= link & TRUE != 0;
                    outcomes |= link & (FALSE | ERROR);
                    left = right;
                }
                outcomes | if all_true { TRUE } else { 0 }
            }
        }
    }

    /// The outcomes of one comparison; reports it when its declared types
    /// decide it.
    fn link(&mut self, op: CmpOp, left: &'a Expr<MemoryRef>, right: &'a Expr<MemoryRef>) -> u8 {
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
        let outcomes = |a_kinds: u8, b_kinds: u8| {
            let mut out = 0;
            for ka in (0..7).map(|i| 1u8 << i).filter(|k| a_kinds & k != 0) {
                for kb in (0..7).map(|i| 1u8 << i).filter(|k| b_kinds & k != 0) {
                    out |= pair_outcomes(op, ka, kb);
                }
            }
            out
        };
        let all = outcomes(a.kinds(), b.kinds());
        // The entry against a literal: what the declaration decides.
        let (entry, literal, literal_left) = match (&a, &b) {
            (Operand::Entry(r, info), Operand::Lit(l)) => ((*r, *info), *l, false),
            (Operand::Lit(l), Operand::Entry(r, info)) => ((*r, *info), *l, true),
            (Operand::Entry(ra, ia), Operand::Entry(rb, ib)) => {
                let set = outcomes(kinds_of(ia.ty) & !NONE, kinds_of(ib.ty) & !NONE);
                if !matches!(op, CmpOp::Eq | CmpOp::Ne) && set == ERROR {
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
                return all;
            }
            _ => return all,
        };
        let (r, info) = entry;
        let reference = format!("session.{}.{}", r.namespace, r.entry);
        let shown = show_literal(literal);
        match op {
            CmpOp::Eq | CmpOp::Ne => {
                if let (EntryType::Categorical, Literal::Str(s)) = (info.ty, literal)
                    && !info.values.iter().any(|v| v == s)
                {
                    let near = did_you_mean(s, info.values.iter().map(String::as_str));
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
                        literal: Some((s.clone(), near.map(str::to_owned))),
                    });
                    return if op == CmpOp::Eq { FALSE } else { TRUE };
                }
                let bool_only = kinds_of(info.ty) & !NONE == BOOL;
                let never_equal = match literal {
                    Literal::Int(i) if bool_only => !matches!(i, 0 | 1),
                    Literal::Float(f) if bool_only => !(*f == 0.0 || *f == 1.0),
                    _ => all & if op == CmpOp::Eq { TRUE } else { FALSE } == 0,
                };
                if never_equal {
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
                            "`{reference}` is declared `{}`, so it never equals {shown} ({}) and `{}` {verdict}{}",
                            info.ty,
                            kind_name(literal_kind(literal)),
                            op.symbol(),
                            literal_hint(info.ty, literal)
                        ),
                        help: None,
                        literal: None,
                    });
                    return outcome;
                }
                all
            }
            _ => {
                let declared = kinds_of(info.ty) & !NONE;
                let set = if literal_left {
                    outcomes(literal_kind(literal), declared)
                } else {
                    outcomes(declared, literal_kind(literal))
                };
                if set == ERROR {
                    self.findings.push(TypeFinding {
                        span: Some(r.span.clone()),
                        code: codes::TYPE_MISMATCH,
                        severity: Severity::Error,
                        message: format!(
                            "`{}` between `{reference}` (declared `{}`) and {shown} ({}) is a TypeError on every delivery, so this comparison never holds{}",
                            op.symbol(),
                            info.ty,
                            kind_name(literal_kind(literal)),
                            literal_hint(info.ty, literal)
                        ),
                        help: None,
                        literal: None,
                    });
                    return ERROR;
                }
                all
            }
        }
    }
}

/// `; write 3 without quotes` when a quoted number meets a numeric entry.
fn literal_hint(ty: EntryType, literal: &Literal) -> String {
    match (ty, literal) {
        (EntryType::Int | EntryType::Float, Literal::Str(s)) if s.trim().parse::<f64>().is_ok() => {
            format!("; write the number without quotes: `{}`", s.trim())
        }
        (EntryType::Bool, Literal::Str(s))
            if matches!(s.as_str(), "True" | "False" | "true" | "false") =>
        {
            let b = if s.eq_ignore_ascii_case("true") {
                "True"
            } else {
                "False"
            };
            format!("; write the boolean without quotes: `{b}`")
        }
        (EntryType::Text | EntryType::Categorical, Literal::Int(_) | Literal::Float(_)) => {
            "; quote the value to compare text".to_owned()
        }
        _ => String::new(),
    }
}
