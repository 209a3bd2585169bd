//! Conditions as straight-line Rust over a reader `r` (any `utter::Reader`):
//! comparisons against a literal call a helper specialised by the literal's
//! type (a categorical entry against one of its values compares enum
//! discriminants on the typed view); anything else calls the general
//! `compare`. Evaluation errors propagate with `?`, so a condition with a
//! fallible comparison is wrapped in `holds(|| ...)` by its caller.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use utter::{CmpOp, EntryType};

use super::{float, idents, lit_str};
use crate::condition::{Expr, Literal as Lit};

/// What the condition generator knows of each entry (by id).
pub struct EntryTypes<'a> {
    pub types: &'a [(EntryType, &'a [String])],
}

/// A comparison operator, as imported into the compiled module
/// ([`operator_imports`]).
fn cmp_op(op: CmpOp) -> TokenStream {
    let name = proc_macro2::Ident::new(op.variant_name(), proc_macro2::Span::call_site());
    quote!(#name)
}

/// `CmpOp::{Eq, ...}`: every operator of the table, imported by name into
/// the compiled module.
pub fn operator_imports() -> TokenStream {
    let ops = CmpOp::ALL.into_iter().map(cmp_op);
    quote!(CmpOp::{#(#ops),*})
}

/// Whether evaluating `expr` can fail (an ordering can be a TypeError).
pub fn fallible(expr: &Expr<usize>) -> bool {
    match expr {
        Expr::Or(items) | Expr::And(items) => items.iter().any(fallible),
        Expr::Not(inner) => fallible(inner),
        Expr::Compare { first, rest } => {
            fallible(first) || rest.iter().any(|(op, e)| !op.is_equality() || fallible(e))
        }
        Expr::Ref(_) | Expr::Lit(_) => false,
    }
}

/// `entry == <int literal>` (either way round): the entry and the literal.
pub fn int_equality(expr: &Expr<usize>) -> Option<(usize, i64)> {
    let Expr::Compare { first, rest } = expr else {
        return None;
    };
    match (&**first, rest.as_slice()) {
        (Expr::Ref(id), [(CmpOp::Eq, Expr::Lit(Lit::Int(k)))])
        | (Expr::Lit(Lit::Int(k)), [(CmpOp::Eq, Expr::Ref(id))]) => Some((*id, *k)),
        _ => None,
    }
}

/// How tightly a generated `bool` expression binds, loosest first.
///
/// Parentheses are emitted only where precedence needs them: rustc's
/// `unused_parens` lint, even when allowed, copies the source text before
/// every redundant pair, which made large agents build in quadratic time.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Precedence {
    Or,
    And,
    Unary,
}

/// What a selection `fn` is handed over as data: the entries it reads
/// (by id) bound to `e{n}`, its string literals to `x{n}`, its int literals
/// to `k{n}`, each in order of appearance. Selections differing only in
/// these share one `fn` (see `codegen::selections`).
#[derive(Default)]
pub struct Bound {
    pub entries: Vec<usize>,
    pub texts: Vec<String>,
    pub ints: Vec<i64>,
}

/// Appends `value` to the data of its kind, `list`, and returns its
/// binding, `name` of its position.
fn bind_next<T>(list: &mut Vec<T>, value: T, name: fn(usize) -> proc_macro2::Ident) -> TokenStream {
    let bound_as = name(list.len());
    list.push(value);
    quote!(#bound_as)
}

pub struct Conditions<'a> {
    pub entries: EntryTypes<'a>,
    /// Labels of chained comparisons, unique within one function.
    labels: usize,
    /// While generating a selection: its literals bound so far.
    bound: Option<Bound>,
}

impl<'a> Conditions<'a> {
    pub fn new(entries: EntryTypes<'a>) -> Self {
        Conditions {
            entries,
            labels: 0,
            bound: None,
        }
    }

    /// The body of a selection `fn` made by `build`, the entries it reads
    /// and its string and int literals (but the keys of an
    /// [`Self::int_switch`]) bound to data.
    pub fn selection(
        &mut self,
        build: impl FnOnce(&mut Self) -> TokenStream,
    ) -> (TokenStream, Bound) {
        self.labels = 0;
        self.bound = Some(Bound::default());
        let body = build(self);
        (body, self.bound.take().unwrap_or_default())
    }

    /// A string literal: bound to data in a selection, else as it is.
    fn text(&mut self, s: &str) -> TokenStream {
        match &mut self.bound {
            Some(bound) => bind_next(&mut bound.texts, s.to_owned(), idents::selection_text),
            None => {
                let s = lit_str(s);
                quote!(#s)
            }
        }
    }

    /// An int literal: bound to data in a selection, else as it is.
    fn int(&mut self, i: i64) -> TokenStream {
        match &mut self.bound {
            Some(bound) => bind_next(&mut bound.ints, i, idents::selection_int),
            None => {
                let i = Literal::i64_suffixed(i);
                quote!(#i)
            }
        }
    }

    /// A condition as a `bool` expression (with `?` when [`fallible`]).
    pub fn condition(&mut self, expr: &Expr<usize>) -> TokenStream {
        self.bool_expr(expr, Precedence::Or)
    }

    /// A condition as the `Result<bool, EvalError>` a `when:` trigger holds.
    pub fn result(&mut self, expr: &Expr<usize>) -> TokenStream {
        let body = self.condition(expr);
        quote!(Ok(#body))
    }

    /// Entry `id` as a `&Entry`: bound to data in a selection, else its
    /// constant.
    fn entry(&mut self, id: usize) -> TokenStream {
        match &mut self.bound {
            Some(bound) => bind_next(&mut bound.entries, id, idents::selection_entry),
            None => {
                let entry = idents::entry_const(id);
                quote!(&#entry)
            }
        }
    }

    /// The value of entry `id`, read through the reader `r`.
    fn read(&mut self, id: usize) -> TokenStream {
        let entry = self.entry(id);
        quote!(r.value(#entry))
    }

    /// A condition node as a `ValueRef` expression.
    fn value_expr(&mut self, expr: &Expr<usize>) -> TokenStream {
        match expr {
            Expr::Ref(id) => self.read(*id),
            Expr::Lit(Lit::None) => quote!(V::None),
            Expr::Lit(Lit::Bool(b)) => quote!(V::Bool(#b)),
            Expr::Lit(Lit::Int(i)) => {
                let i = self.int(*i);
                quote!(V::Int(#i))
            }
            Expr::Lit(Lit::Float(f)) => {
                let f = float(*f);
                quote!(V::Float(#f))
            }
            Expr::Lit(Lit::Str(s)) => {
                let s = self.text(s);
                quote!(V::Str(#s))
            }
            other => {
                let b = self.bool_expr(other, Precedence::Or);
                quote!(V::Bool(#b))
            }
        }
    }

    fn bool_expr(&mut self, expr: &Expr<usize>, context: Precedence) -> TokenStream {
        let (tokens, own) = match expr {
            Expr::Or(items) => {
                let items: Vec<TokenStream> = items
                    .iter()
                    .map(|e| self.bool_expr(e, Precedence::Or))
                    .collect();
                (quote!(#(#items)||*), Precedence::Or)
            }
            Expr::And(items) => {
                let items: Vec<TokenStream> = items
                    .iter()
                    .map(|e| self.bool_expr(e, Precedence::And))
                    .collect();
                (quote!(#(#items)&&*), Precedence::And)
            }
            Expr::Not(inner) => {
                let inner = self.bool_expr(inner, Precedence::Unary);
                (quote!(!#inner), Precedence::Unary)
            }
            Expr::Compare { first, rest } => (self.compare_expr(first, rest), Precedence::Unary),
            Expr::Lit(l) => {
                let truthy = match l {
                    Lit::None => false,
                    Lit::Bool(b) => *b,
                    Lit::Int(i) => *i != 0,
                    Lit::Float(f) => *f != 0.0,
                    Lit::Str(s) => !s.is_empty(),
                };
                (quote!(#truthy), Precedence::Unary)
            }
            Expr::Ref(id) => {
                let v = self.read(*id);
                (quote!(#v.truthy()), Precedence::Unary)
            }
        };
        if own < context {
            quote!((#tokens))
        } else {
            tokens
        }
    }

    /// One comparison of an entry with a literal, specialised; `None` when
    /// the general rule applies.
    fn specialised(&mut self, op: CmpOp, id: usize, literal: &Lit) -> Option<TokenStream> {
        if !op.is_equality() && matches!(literal, Lit::Bool(_) | Lit::None) {
            return None;
        }
        let negate = op == CmpOp::Ne;
        if let (true, Lit::Str(s)) = (op.is_equality(), literal) {
            let (ty, values) = self.entries.types.get(id).copied()?;
            let equality = match values.iter().position(|value| value == s) {
                Some(index) if ty == EntryType::Categorical => {
                    let entry = self.entry(id);
                    let index = Literal::usize_unsuffixed(index);
                    quote!(r.holds_value(#entry, #index))
                }
                _ => {
                    let v = self.read(id);
                    let s = self.text(s);
                    quote!(eq_str(#v, #s))
                }
            };
            return Some(if negate { quote!(!#equality) } else { equality });
        }
        // Every case below reads the entry (the cases without a
        // specialised form returned above).
        let v = self.read(id);
        let equality = match (op, literal) {
            (op, Lit::Int(i)) if op.is_equality() => {
                let i = self.int(*i);
                quote!(eq_int(#v, #i))
            }
            (op, Lit::Float(f)) if op.is_equality() => {
                let f = float(*f);
                quote!(eq_float(#v, #f))
            }
            (op, Lit::Bool(b)) if op.is_equality() => quote!(eq_bool(#v, #b)),
            (op, Lit::None) if op.is_equality() => quote!(#v.is_none()),
            (_, Lit::Int(i)) => {
                let op = cmp_op(op);
                let i = self.int(*i);
                return Some(quote!(ord_int(#op, #v, #i)?));
            }
            (_, Lit::Float(f)) => {
                let op = cmp_op(op);
                let f = float(*f);
                return Some(quote!(ord_float(#op, #v, #f)?));
            }
            (_, Lit::Str(s)) => {
                let op = cmp_op(op);
                let s = self.text(s);
                return Some(quote!(ord_str(#op, #v, #s)?));
            }
            // Returned above, before the entry was read.
            (_, Lit::Bool(_) | Lit::None) => return None,
        };
        Some(if negate { quote!(!#equality) } else { equality })
    }

    /// A run of variants whose conditions each compare one entry with an
    /// int literal (`arms`: literal and variant, in YAML order) as one
    /// `match` on the entry's integral value: the entry is read once and
    /// the compiler makes a jump table or range checks, where a chain of
    /// `==` read and tested it once per variant. An `Option<usize>`
    /// expression: the first variant whose literal matches, else `None`.
    pub fn int_switch(&mut self, id: usize, arms: &[(i64, usize)]) -> TokenStream {
        let v = self.read(id);
        let mut seen = std::collections::HashSet::new();
        // A repeated literal can never be the first to match: no arm (an
        // unreachable pattern would warn in the user's crate).
        let arms = arms
            .iter()
            .filter(|(k, _)| seen.insert(*k))
            .map(|(k, variant)| {
                let k = Literal::i64_suffixed(*k);
                let variant = Literal::usize_unsuffixed(*variant);
                quote!(Some(#k) => Some(#variant),)
            });
        quote!(match int_key(#v) { #(#arms)* _ => None })
    }

    /// A comparison, possibly chained, as a `bool` expression that binds as
    /// tightly as a unary operand (a call, or a labeled block).
    fn compare_expr(&mut self, first: &Expr<usize>, rest: &[(CmpOp, Expr<usize>)]) -> TokenStream {
        if let [(op, operand)] = rest {
            let special = match (first, operand) {
                (Expr::Ref(id), Expr::Lit(l)) => self.specialised(*op, *id, l),
                // Equality is symmetric; an ordering keeps Python's operand order.
                (Expr::Lit(l), Expr::Ref(id)) if op.is_equality() => self.specialised(*op, *id, l),
                _ => None,
            };
            if let Some(tokens) = special {
                return tokens;
            }
            let left = self.value_expr(first);
            let right = self.value_expr(operand);
            return match op {
                CmpOp::Eq => quote!(py_eq(#left, #right)),
                CmpOp::Ne => quote!(!py_eq(#left, #right)),
                _ => {
                    let op = cmp_op(*op);
                    quote!(compare(#op, #left, #right)?)
                }
            };
        }
        // Python chaining, flat: each operand evaluated once, left to right,
        // stopping at the first false comparison. Each chain gets its own
        // label: chains nest inside operands.
        let label = idents::chain_label(self.labels);
        self.labels += 1;
        let first = self.value_expr(first);
        let last = rest.len() - 1;
        let mut steps = Vec::with_capacity(rest.len());
        for (i, (op, operand)) in rest.iter().enumerate() {
            let holds = match op {
                CmpOp::Eq => quote!(py_eq(left, right)),
                CmpOp::Ne => quote!(!py_eq(left, right)),
                _ => {
                    let op = cmp_op(*op);
                    quote!(compare(#op, left, right)?)
                }
            };
            let operand = self.value_expr(operand);
            let advance = (i < last).then(|| quote!(left = right;));
            steps.push(quote! {
                let right = #operand;
                if !#holds {
                    break #label false;
                }
                #advance
            });
        }
        quote! {
            #label: {
                let mut left = #first;
                #(#steps)*
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated `bool` expression of a condition over entries a, b, c.
    fn condition_code(src: &str) -> String {
        let parsed = crate::condition::parse(src).expect("a valid condition");
        let ids = ["a", "b", "c"];
        let expr =
            parsed.map_refs(&mut |r| ids.iter().position(|i| *i == r.entry).expect("a, b or c"));
        let values = vec!["lost".to_owned()];
        let types = [
            (EntryType::Categorical, values.as_slice()),
            (EntryType::Int, &[][..]),
            (EntryType::Any, &[][..]),
        ];
        let code = Conditions::new(EntryTypes { types: &types })
            .condition(&expr)
            .to_string();
        code.replace("r . value (& E0) . truthy ()", "A")
            .replace("r . value (& E1) . truthy ()", "B")
            .replace("r . value (& E2) . truthy ()", "C")
    }

    #[test]
    fn conditions_have_only_the_parentheses_precedence_needs() {
        // Redundant pairs trip rustc's `unused_parens` (slow even when allowed).
        assert_eq!(
            condition_code("session.s.a and session.s.b or session.s.c"),
            "A && B || C"
        );
        assert_eq!(
            condition_code("session.s.a and (session.s.b or session.s.c)"),
            "A && (B || C)"
        );
        assert_eq!(
            condition_code("not (session.s.a and session.s.b)"),
            "! (A && B)"
        );
        assert_eq!(
            condition_code("not session.s.a or not session.s.b"),
            "! A || ! B"
        );
        assert_eq!(
            condition_code("(session.s.a or session.s.b) or session.s.c"),
            "A || B || C"
        );
        assert_eq!(condition_code("not not session.s.a"), "! ! A");
    }

    #[test]
    fn runs_of_int_equalities_become_one_match() {
        let expr = |src: &str| {
            crate::condition::parse(src)
                .expect("a valid condition")
                .map_refs(&mut |r| usize::from(r.entry == "b"))
        };
        assert_eq!(int_equality(&expr("session.s.b == 3")), Some((1, 3)));
        assert_eq!(int_equality(&expr("1 == session.s.a")), Some((0, 1)));
        assert_eq!(int_equality(&expr("session.s.b == 3.0")), None);
        assert_eq!(int_equality(&expr("session.s.b != 3")), None);
        assert_eq!(int_equality(&expr("session.s.b == 3 == 3")), None);
        let types = [(EntryType::Int, &[][..]), (EntryType::Int, &[][..])];
        let mut conditions = Conditions::new(EntryTypes { types: &types });
        // The repeated 3 can never match first: no arm for it.
        assert_eq!(
            conditions
                .int_switch(1, &[(3, 0), (4, 1), (3, 2)])
                .to_string(),
            "match int_key (r . value (& E1)) { Some (3i64) => Some (0) , Some (4i64) => Some (1) , _ => None }"
        );
    }

    #[test]
    fn comparisons_are_specialised_by_type() {
        assert_eq!(
            condition_code("session.s.a == 'lost'"),
            "r . holds_value (& E0 , 0)"
        );
        assert_eq!(
            condition_code("session.s.b > 3"),
            "ord_int (Gt , r . value (& E1) , 3i64) ?"
        );
        assert_eq!(
            condition_code("'x' != session.s.c"),
            "! eq_str (r . value (& E2) , \"x\")"
        );
        assert_eq!(
            condition_code("3 < session.s.b"),
            "compare (Lt , V :: Int (3i64) , r . value (& E1)) ?"
        );
    }
}
