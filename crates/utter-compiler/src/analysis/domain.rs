//! Finite abstract domains: for each entry a response's conditions read,
//! a few concrete values standing for every value the entry can hold.
//!
//! Exact when memory holds values of the declared types (as typed memory
//! and `SlotMemory` enforce): two values that compare alike with every
//! literal and entry they meet in the conditions, and have the same
//! truthiness, give every condition the same outcome, so one of each kind
//! suffices. `bool` and `categorical` are finite already; `int`, `float`
//! and `text` are cut at the literals they meet (each literal, a value
//! between and beyond each pair); entries compared with each other share
//! their cut points, so every relative order is there. `any`, `json` and
//! `list` hold values of any shape: no finite domain, no claim.

use std::collections::BTreeSet;

use utter::{EntryType, Value};

use crate::condition::{Expr, Literal};

/// Why an entry has no finite domain.
pub struct Unbounded;

/// The cut points of a group of entries compared with each other.
#[derive(Default)]
pub struct Cuts {
    numbers: Vec<f64>,
    texts: BTreeSet<String>,
}

impl Cuts {
    fn literal(&mut self, literal: &Literal) {
        match literal {
            Literal::Int(i) => self.numbers.push(*i as f64),
            Literal::Float(f) if f.is_finite() => self.numbers.push(*f),
            Literal::Bool(b) => self.numbers.push(f64::from(u8::from(*b))),
            Literal::Str(s) => {
                self.texts.insert(s.clone());
            }
            Literal::Float(_) | Literal::None => {}
        }
    }
}

/// Groups of entries compared with each other (union-find by entry id),
/// and the literals each group meets.
pub struct Comparisons {
    parent: Vec<usize>,
    cuts: Vec<Cuts>,
}

impl Comparisons {
    /// No comparison seen yet, for `entries` entries.
    pub fn new(entries: usize) -> Self {
        Comparisons {
            parent: (0..entries).collect(),
            cuts: (0..entries).map(|_| Cuts::default()).collect(),
        }
    }

    fn root(&mut self, mut id: usize) -> usize {
        while self.parent[id] != id {
            self.parent[id] = self.parent[self.parent[id]];
            id = self.parent[id];
        }
        id
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        if a != b {
            self.parent[b] = a;
            let moved = std::mem::take(&mut self.cuts[b]);
            self.cuts[a].numbers.extend(moved.numbers);
            self.cuts[a].texts.extend(moved.texts);
        }
    }

    /// Records what `expr` compares.
    pub fn add(&mut self, expr: &Expr<usize>) {
        match expr {
            Expr::Or(items) | Expr::And(items) => items.iter().for_each(|e| self.add(e)),
            Expr::Not(inner) => self.add(inner),
            Expr::Compare { first, rest } => {
                let mut left = &**first;
                for (_, right) in rest {
                    match (left, right) {
                        (Expr::Ref(a), Expr::Ref(b)) => self.join(*a, *b),
                        (Expr::Ref(a), Expr::Lit(l)) | (Expr::Lit(l), Expr::Ref(a)) => {
                            let root = self.root(*a);
                            self.cuts[root].literal(l);
                        }
                        _ => {}
                    }
                    self.add(left);
                    left = right;
                }
                self.add(left);
            }
            Expr::Ref(_) | Expr::Lit(_) => {}
        }
    }

    /// The values standing for every value entry `id` of type `ty` (with
    /// `values` for a categorical) can hold, unset excluded.
    pub fn candidates(
        &mut self,
        id: usize,
        ty: EntryType,
        values: &[String],
    ) -> Result<Vec<Value>, Unbounded> {
        let root = self.root(id);
        let cuts = &self.cuts[root];
        Ok(match ty {
            EntryType::Bool => vec![Value::Bool(false), Value::Bool(true)],
            EntryType::Categorical => values.iter().map(|v| Value::from(v.as_str())).collect(),
            // The literals first: a witness reads best in the values the
            // conditions name.
            EntryType::Int => {
                let mut out = ints(&cuts.numbers);
                out.sort_by_key(|i| !cuts.numbers.contains(&(*i as f64)));
                out.into_iter().map(Value::Int).collect()
            }
            EntryType::Float => {
                let mut out = floats(&cuts.numbers);
                out.sort_by_key(|f| (!cuts.numbers.contains(f), f.is_nan()));
                out.into_iter().map(Value::Float).collect()
            }
            EntryType::Text => {
                let mut out = texts(&cuts.texts);
                out.sort_by_key(|t| (!cuts.texts.contains(t), t != "text", t.contains('\u{0}')));
                out.into_iter().map(Value::from).collect()
            }
            EntryType::Any | EntryType::Json | EntryType::List => return Err(Unbounded),
        })
    }
}

/// Integers on both sides of and at every cut, and 0 (falsy) and 1.
fn ints(cuts: &[f64]) -> Vec<i64> {
    let mut out = BTreeSet::from([0_i64, 1]);
    for &c in cuts {
        // Beyond the i64 range a cut splits nothing an entry can hold.
        if c.abs() >= 9.0e18 {
            continue;
        }
        let (floor, ceil) = (c.floor() as i64, c.ceil() as i64);
        out.extend([floor - 1, floor, ceil, ceil + 1]);
    }
    out.into_iter().collect()
}

/// Every cut, a value between each pair and beyond both ends, the integers
/// an int cut has around it, 0.0 (falsy) and NaN (compares false to all).
fn floats(cuts: &[f64]) -> Vec<f64> {
    let mut points: Vec<f64> = cuts.to_vec();
    points.extend([0.0, 1.0]);
    points.sort_by(f64::total_cmp);
    points.dedup();
    let mut out = points.clone();
    for pair in points.windows(2) {
        out.push(pair[0] / 2.0 + pair[1] / 2.0);
    }
    let (low, high) = (points[0], points[points.len() - 1]);
    out.extend([low - 1.0 - low.abs(), high + 1.0 + high.abs(), f64::NAN]);
    // An int entry compared with this one takes integer values next to the cuts.
    out.extend(ints(cuts).into_iter().map(|i| i as f64));
    out.sort_by(f64::total_cmp);
    out.dedup_by(|a, b| a.total_cmp(b).is_eq());
    out
}

/// Every cut, a text right above each (between it and the next, when one
/// fits), the empty text (falsy, below all) and the smallest that is not
/// empty (`"\0"`: truthy, below every other).
fn texts(cuts: &BTreeSet<String>) -> Vec<String> {
    let mut out: BTreeSet<String> = cuts.iter().cloned().collect();
    out.insert(String::new());
    out.insert("\u{0}".to_owned());
    // A plain word: a witness that shows a text reads best with one.
    out.insert("text".to_owned());
    let sorted: Vec<&String> = cuts.iter().collect();
    for (i, cut) in sorted.iter().enumerate() {
        let above = format!("{cut}\u{0}");
        if sorted
            .get(i + 1)
            .is_none_or(|next| above.as_str() < next.as_str())
        {
            out.insert(above);
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_cut_on_both_sides() {
        assert_eq!(ints(&[5.0]), vec![0, 1, 4, 5, 6]);
        assert_eq!(ints(&[1.5]), vec![0, 1, 2, 3]);
        let f = floats(&[2.0]);
        assert!(f.contains(&2.0) && f.iter().any(|x| *x > 2.0) && f.iter().any(|x| *x < 2.0));
        assert!(f.iter().any(|x| x.is_nan()) && f.contains(&0.0));
    }

    #[test]
    fn texts_are_cut_at_each_literal() {
        let cuts = BTreeSet::from(["b".to_owned(), "b\u{0}".to_owned()]);
        let t = texts(&cuts);
        assert!(t.contains(&String::new()) && t.contains(&"b".to_owned()));
        // Nothing fits between `b` and `b\0`: no text is made up there.
        assert_eq!(t.iter().filter(|s| s.starts_with('b')).count(), 3);
        assert!(
            t.contains(&"\u{0}".to_owned()),
            "a truthy text below every cut"
        );
    }
}
