//! Suggestions for a misspelt name: the edit distance a did-you-mean ranks by.

/// Edit distance of `a` and `b` where a swap of two neighbouring characters
/// counts as one edit, as a typo does (`lsot` is one edit from `lost`):
/// the optimal string alignment distance. Returns `cap + 1` as soon as it
/// is known to exceed `cap` (so a did-you-mean over long names stays cheap;
/// a row's minimum never falls, transpositions included).
pub fn edit_distance(a: &str, b: &str, cap: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return cap + 1;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 0..a.len() {
        row[0] = i + 1;
        let mut best = row[0];
        for j in 0..b.len() {
            let substitution = prev[j] + usize::from(a[i] != b[j]);
            let mut d = substitution.min(prev[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            row[j + 1] = d;
            best = best.min(d);
        }
        if best > cap {
            return cap + 1;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()].min(cap + 1)
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn transpositions_count_as_one_edit() {
        assert_eq!(edit_distance("lsot", "lost", 3), 1);
        assert_eq!(edit_distance("agnet", "agent", 3), 1);
        assert_eq!(edit_distance("stolen", "stolen", 3), 0);
        assert_eq!(edit_distance("kitten", "sitting", 5), 3);
        assert_eq!(edit_distance("", "abc", 5), 3);
        assert_eq!(edit_distance("abc", "", 5), 3);
        assert_eq!(edit_distance("ca", "abc", 5), 3);
        assert_eq!(edit_distance("abcdef", "uvwxyz", 2), 3);
    }
}
