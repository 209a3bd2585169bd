//! Finite abstract domains: for each entry a response's conditions read,
//! a few concrete values standing for every value the entry can hold.
//!
//! Sound and exact when memory holds values of the declared types (as
//! typed memory and `SlotMemory` enforce): conditions only compare, so two
//! assignments that order the entries of a group (entries compared with
//! each other, transitively) and the group's literals alike, with the same
//! truthiness, give every condition the same outcome. So each group's
//! literals are cut points (with `0` and `""`, where truthiness turns), and
//! between two neighbouring cut points, and beyond both ends, a domain
//! holds as many distinct values as the group has entries (all of them
//! where fewer exist): any order of the group's entries, equalities
//! included, is there. Integers are cut in exact integer arithmetic over
//! the whole `i64` range; a float literal splits the integers at its floor
//! and ceiling, an integer literal splits the floats at the two floats
//! nearest it; texts take the smallest texts above each cut (`cut + "\0"`,
//! `cut + "\0\0"`, ...), which are exactly the texts next to it. `bool` and
//! `categorical` are finite already (a categorical's values are cut points
//! of the texts it is compared with). `any`, `json` and `list` hold values
//! of any shape: no finite domain, no claim; neither where a group mixes
//! `int` and `float` entries beyond 2^52, where no float may lie between
//! two neighbouring integers.

use std::collections::BTreeSet;

use utter::{EntryType, Value};

use crate::condition::{Expr, Literal};

/// Why an entry has no finite exact domain, in words.
pub struct Unbounded(pub String);

/// A numeric cut point as written: an exact integer or a float.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i64),
    Float(f64),
}

/// The cut points of a group of entries compared with each other, and
/// what the group holds.
#[derive(Default)]
pub struct Cuts {
    numbers: Vec<Num>,
    texts: BTreeSet<String>,
    /// Entries of the group a condition reads.
    members: usize,
    ints: bool,
    floats: bool,
}

impl Cuts {
    fn literal(&mut self, literal: &Literal) {
        match literal {
            Literal::Int(i) => self.numbers.push(Num::Int(*i)),
            Literal::Float(f) if f.is_finite() => self.numbers.push(Num::Float(*f)),
            Literal::Bool(b) => self.numbers.push(Num::Int(i64::from(*b))),
            Literal::Str(s) => {
                self.texts.insert(s.clone());
            }
            Literal::Float(_) | Literal::None => {}
        }
    }

    fn absorb(&mut self, other: Cuts) {
        self.numbers.extend(other.numbers);
        self.texts.extend(other.texts);
        self.members += other.members;
        self.ints |= other.ints;
        self.floats |= other.floats;
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
            self.cuts[a].absorb(moved);
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

    /// Records that a condition reads entry `id` of type `ty` (with
    /// `values` for a categorical): call for every entry read, after every
    /// [`Comparisons::add`] and before any [`Comparisons::candidates`].
    pub fn member(&mut self, id: usize, ty: EntryType, values: &[String]) {
        let root = self.root(id);
        let cuts = &mut self.cuts[root];
        cuts.members += 1;
        match ty {
            EntryType::Int => cuts.ints = true,
            EntryType::Float => cuts.floats = true,
            EntryType::Bool => cuts.numbers.extend([Num::Int(0), Num::Int(1)]),
            EntryType::Categorical => cuts.texts.extend(values.iter().cloned()),
            _ => {}
        }
    }

    /// The values standing for every value entry `id` of type `ty` (with
    /// `values` for a categorical) can hold, unset excluded. A text entry's
    /// values include `word` (its name): an example that fills it with a
    /// value its conditions do not fix reads `Hello ⟨customer_name⟩`.
    pub fn candidates(
        &mut self,
        id: usize,
        ty: EntryType,
        values: &[String],
        word: &str,
    ) -> Result<Vec<Value>, Unbounded> {
        let root = self.root(id);
        let cuts = &self.cuts[root];
        let k = cuts.members.max(1);
        Ok(match ty {
            EntryType::Bool => vec![Value::Bool(false), Value::Bool(true)],
            EntryType::Categorical => values.iter().map(|v| Value::from(v.as_str())).collect(),
            // The literals first: a witness reads best in the values the
            // conditions name.
            EntryType::Int => {
                let points = int_points(&cuts.numbers);
                let mut out = ints(&points, k);
                if cuts.floats {
                    mixed_in_float_range(&out)?;
                }
                out.sort_by_key(|i| !points.contains(i) || *i == 0 && !literal_zero(&cuts.numbers));
                out.into_iter().map(Value::Int).collect()
            }
            EntryType::Float => {
                let mut points = float_points(&cuts.numbers);
                if cuts.ints {
                    // An int entry of the group takes these values: the
                    // floats must order themselves around each of them.
                    let int_values = ints(&int_points(&cuts.numbers), k);
                    mixed_in_float_range(&int_values)?;
                    points.extend(int_values.iter().map(|&i| i as f64));
                    points.sort_by(f64::total_cmp);
                    points.dedup_by(|a, b| a == b);
                }
                let literals = float_points(&cuts.numbers);
                let mut out = floats(&points, k);
                // `float_points` is sorted: a literal is found by halving.
                let is_literal = |f: &f64| literals.binary_search_by(|l| l.total_cmp(f)).is_ok();
                out.sort_by_key(|f| (!is_literal(f), f.is_nan()));
                out.into_iter().map(Value::Float).collect()
            }
            EntryType::Text => {
                let mut out = texts(&cuts.texts, k, word);
                out.sort_by_key(|t| (!cuts.texts.contains(t), t != word, t.contains('\u{0}')));
                out.into_iter().map(Value::from).collect()
            }
            EntryType::Any | EntryType::Json | EntryType::List => {
                return Err(Unbounded(format!(
                    "declared `{ty}`: its values are not enumerable"
                )));
            }
        })
    }
}

/// Whether entries of type `ty` hold values of any shape, so that no finite
/// domain stands for them (a condition reading one is undecided).
pub fn is_unbounded(ty: EntryType) -> bool {
    matches!(ty, EntryType::Any | EntryType::Json | EntryType::List)
}

/// Whether 0 is one of the literals (else it is only the truthiness cut).
fn literal_zero(numbers: &[Num]) -> bool {
    numbers.iter().any(|n| match n {
        Num::Int(i) => *i == 0,
        Num::Float(f) => *f == 0.0,
    })
}

/// Below 2^52 a float lies between any two neighbouring integers.
fn mixed_in_float_range(ints: &[i64]) -> Result<(), Unbounded> {
    const LIMIT: i64 = 1 << 52;
    if ints.iter().any(|i| !(-LIMIT..=LIMIT).contains(i)) {
        return Err(Unbounded(
            "int and float entries are compared with each other beyond 2^52, where the analysis cannot order them exactly".to_owned(),
        ));
    }
    Ok(())
}

/// The integers where a comparison with the cuts turns: each int cut, the
/// floor and ceiling of each float cut in the `i64` range, and 0
/// (truthiness).
fn int_points(cuts: &[Num]) -> BTreeSet<i64> {
    let mut out = BTreeSet::from([0_i64]);
    for &c in cuts {
        match c {
            Num::Int(i) => {
                out.insert(i);
            }
            Num::Float(f) => {
                // 2^63, exactly: -2^63 is an i64, 2^63 and beyond split nothing an int holds.
                let limit = -(i64::MIN as f64);
                for edge in [f.floor(), f.ceil()] {
                    if (-limit..limit).contains(&edge) {
                        out.insert(edge as i64);
                    }
                }
            }
        }
    }
    out
}

/// Every point, and `k` integers (all there are, where fewer) in each gap
/// between two neighbouring points and beyond both ends, in exact integer
/// arithmetic.
fn ints(points: &BTreeSet<i64>, k: usize) -> Vec<i64> {
    let k = k as i128;
    let mut out: BTreeSet<i64> = points.clone();
    let sorted: Vec<i128> = points.iter().map(|&p| i128::from(p)).collect();
    let (low, high) = (i128::from(i64::MIN), i128::from(i64::MAX));
    let mut gap = |from: i128, to: i128, downward: bool| {
        // The integers strictly between `from` and `to`, nearest the
        // point first (`from` when upward, `to` when downward).
        let count = (to - from - 1).clamp(0, k);
        for j in 1..=count {
            let v = if downward { to - j } else { from + j };
            out.insert(v as i64);
        }
    };
    if let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) {
        gap(low - 1, first, true);
        for pair in sorted.windows(2) {
            gap(pair[0], pair[1], false);
        }
        gap(last, high + 1, false);
    }
    out.into_iter().collect()
}

/// The floats where a comparison with the cuts turns: each float cut, the
/// two floats nearest each int cut (one, where it is exact), and 0.0.
fn float_points(cuts: &[Num]) -> Vec<f64> {
    let mut out = vec![0.0];
    for &c in cuts {
        match c {
            Num::Float(f) => out.push(if f == 0.0 { 0.0 } else { f }),
            Num::Int(i) => {
                let near = i as f64;
                out.push(near);
                // `near` as an exact integer (in range: |i| < 2^63 rounds to at most 2^63).
                let exact = near as i128;
                if exact != i128::from(i) {
                    out.push(if exact < i128::from(i) {
                        near.next_up()
                    } else {
                        near.next_down()
                    });
                }
            }
        }
    }
    out.sort_by(f64::total_cmp);
    out.dedup_by(|a, b| a == b);
    out
}

/// Every point, `k` distinct floats in each gap between two neighbouring
/// points and beyond both ends (all there are, where fewer), and NaN
/// (truthy, and compares false with everything).
fn floats(points: &[f64], k: usize) -> Vec<f64> {
    let mut out: Vec<f64> = points.to_vec();
    let mut gap = |from: f64, to: f64| {
        // Readable values first: halving towards `from` (1.5, 1.25, ...).
        let mut found: Vec<f64> = Vec::new();
        let mut upper = to;
        while found.len() < k {
            let mid = if from == f64::NEG_INFINITY {
                upper - upper.abs().max(1.0)
            } else if upper == f64::INFINITY {
                from + from.abs().max(1.0)
            } else {
                from / 2.0 + upper / 2.0
            };
            if !(mid > from && mid < upper) {
                break;
            }
            found.push(mid);
            upper = mid;
        }
        if found.len() < k {
            // The floats right above `from`: every one there is, in order.
            found.clear();
            let mut next = from.next_up();
            while found.len() < k && next < to {
                found.push(next);
                next = next.next_up();
            }
        }
        out.extend(found);
    };
    if let (Some(&first), Some(&last)) = (points.first(), points.last()) {
        gap(f64::NEG_INFINITY, first);
        for pair in points.windows(2) {
            gap(pair[0], pair[1]);
        }
        gap(last, f64::INFINITY);
    }
    out.sort_by(f64::total_cmp);
    out.dedup_by(|a, b| a.total_cmp(b).is_eq());
    out.push(f64::NAN);
    out
}

/// Every cut, `""` (falsy, below all), `word` (a witness reads best with a
/// word: the entry's name), and the `k` smallest texts above each cut that
/// lie below the next (`cut + "\0"`, `cut + "\0\0"`, ...: exactly the
/// texts next to it). `word` only adds a value: the others already stand
/// for every class of texts, so no claim rests on it.
fn texts(cuts: &BTreeSet<String>, k: usize, word: &str) -> Vec<String> {
    let mut points: BTreeSet<String> = cuts.iter().cloned().collect();
    points.insert(String::new());
    let sorted: Vec<&String> = points.iter().collect();
    let mut out: BTreeSet<String> = points.iter().cloned().collect();
    for (i, cut) in sorted.iter().enumerate() {
        let mut above = (*cut).clone();
        for _ in 0..k {
            above.push('\u{0}');
            if sorted
                .get(i + 1)
                .is_some_and(|next| above.as_str() >= next.as_str())
            {
                break;
            }
            out.insert(above.clone());
        }
    }
    out.insert(word.to_owned());
    out.into_iter().collect()
}

/// The entries `subject`'s conditions read in `view` (the rest read as
/// unset there), and the finite domain of each that can hold a value; why
/// nothing is claimed when one has no finite domain.
#[allow(clippy::type_complexity)]
pub(super) fn read_domains(
    subject: &super::Subject<'_>,
    view: Option<&str>,
) -> Result<(BTreeSet<usize>, Vec<(usize, Vec<Value>)>), String> {
    // The entries the conditions read in this view; the rest read as unset.
    let readable = |id: usize| {
        let e = &subject.entries[id];
        e.visibility.readable_in(&e.namespace, view)
    };
    let mut read: BTreeSet<usize> = BTreeSet::new();
    let mut comparisons = Comparisons::new(subject.entries.len());
    for (_, expr) in &subject.conditioned {
        read.extend(expr.refs().into_iter().copied().filter(|&id| readable(id)));
        comparisons.add(expr);
    }
    for &id in &read {
        let e = &subject.entries[id];
        comparisons.member(id, e.ty, &e.values);
    }
    let mut domains: Vec<(usize, Vec<Value>)> = Vec::new();
    for &id in &read {
        let e = &subject.entries[id];
        match comparisons.candidates(id, e.ty, &e.values, &e.name) {
            Ok(values) if !values.is_empty() => domains.push((id, values)),
            Ok(_) => {}
            Err(Unbounded(why)) => {
                return Err(format!(
                    "a condition reads `session.{}.{}`, {why}, so nothing is claimed",
                    e.namespace, e.name
                ));
            }
        }
    }
    Ok((read, domains))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_cut_on_both_sides() {
        let points = int_points(&[Num::Int(5)]);
        assert_eq!(ints(&points, 1), vec![-1, 0, 1, 5, 6]);
        assert_eq!(ints(&points, 2), vec![-2, -1, 0, 1, 2, 5, 6, 7]);
        assert_eq!(
            ints(&int_points(&[Num::Float(1.5)]), 1),
            vec![-1, 0, 1, 2, 3]
        );
        // Exact at the ends of i64 and above 2^53.
        let big = int_points(&[Num::Int(i64::MAX - 1), Num::Int(9_007_199_254_740_993)]);
        let values = ints(&big, 2);
        assert!(values.contains(&i64::MAX) && values.contains(&9_007_199_254_740_994));
        assert!(values.contains(&9_007_199_254_740_995));
        let f = floats(&float_points(&[Num::Float(2.0)]), 1);
        assert!(f.contains(&2.0) && f.iter().any(|x| *x > 2.0) && f.iter().any(|x| *x < 2.0));
        assert!(f.iter().any(|x| x.is_nan()) && f.contains(&0.0));
        // Two floats between 1 and 3 for two entries compared with each other.
        let f = floats(&float_points(&[Num::Int(1), Num::Int(3)]), 2);
        assert_eq!(f.iter().filter(|x| **x > 1.0 && **x < 3.0).count(), 2);
    }

    #[test]
    fn texts_are_cut_at_each_literal() {
        let cuts = BTreeSet::from(["b".to_owned(), "b\u{0}".to_owned()]);
        let t = texts(&cuts, 1, "name");
        assert!(t.contains(&String::new()) && t.contains(&"b".to_owned()));
        // Nothing fits between `b` and `b\0`: no text is made up there.
        assert_eq!(t.iter().filter(|s| s.starts_with('b')).count(), 3);
        assert!(
            t.contains(&"\u{0}".to_owned()),
            "a truthy text below every cut"
        );
        // Four entries compared with each other: four texts above "".
        assert_eq!(
            texts(&BTreeSet::new(), 4, "name")
                .iter()
                .filter(|s| s.starts_with('\u{0}'))
                .count(),
            4
        );
    }
}
