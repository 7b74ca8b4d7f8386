//! Names a user types (strategies, datasets, baselines) matched to the
//! ones that exist: the "did you mean" of every unknown-name error. At the
//! bottom of the house, so the strategy table and the dataset readers use
//! it without reaching up into the presenting layer.

/// ` (did you mean NAME?)` for the candidate closest to a mistyped `word`
/// ([`closest`]), or nothing when none is close: the hint an unknown
/// strategy, dataset or baseline name gets.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates).map_or_else(String::new, |c| format!(" (did you mean {c}?)"))
}

/// The candidate a few edits from `word` (a third of its letters, at least
/// one; letter case aside), the closest first; a name with folders
/// (`curated/famous-hard`) is also matched by its last part.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let most = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| {
            let lower = c.to_lowercase();
            let last = lower.rsplit('/').next().unwrap_or(&lower);
            (edits(&word, &lower).min(edits(&word, last)), c)
        })
        .filter(|&(d, _)| d <= most)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, a swap of two neighbours counting as one edit
/// (`mvr` is one edit from `mrv`).
fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_name_gets_the_closest() {
        let names = ["naive", "mrv", "propagate", "dlx", "fast", "fast-triads"];
        assert_eq!(did_you_mean("mvr", names), " (did you mean mrv?)");
        assert_eq!(
            did_you_mean("Propogate", names),
            " (did you mean propagate?)"
        );
        assert_eq!(
            did_you_mean("fast-triad", names),
            " (did you mean fast-triads?)"
        );
        assert_eq!(did_you_mean("zebra", names), "");
        assert_eq!(did_you_mean("x", []), "");
        let sets = ["curated/famous-hard", "generated/4x4", "top1465"];
        assert_eq!(closest("famous-hrad", sets), Some("curated/famous-hard"));
        assert_eq!(closest("top1456", sets), Some("top1465"));
        assert_eq!(closest("famous", sets), None);
    }
}
