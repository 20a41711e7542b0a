//! "Did you mean …?" suggestions by edit distance.
//!
//! A schema can hold thousands of names and thousands of unknown references, so the
//! candidates are indexed by length once ([`Candidates`]): a name whose length differs from
//! the word's by more than the allowed edits cannot be close, and is never compared. The
//! distance itself stops as soon as it exceeds the allowed edits.

use std::collections::BTreeMap;

/// Names longer than this are never suggested, nor suggested for.
const MAX_WORD: usize = 64;

/// Candidate names, indexed by length, in the order they were given (the first of equally
/// close candidates wins).
#[derive(Debug, Default)]
pub struct Candidates {
    /// Character count → (position, lowercased name as characters, the name as given).
    by_length: BTreeMap<usize, Vec<(usize, Vec<char>, String)>>,
}

impl Candidates {
    pub fn new<'a>(candidates: impl IntoIterator<Item = &'a str>) -> Candidates {
        let mut index = Candidates::default();
        for (position, candidate) in candidates.into_iter().enumerate() {
            if candidate.len() > MAX_WORD {
                continue;
            }
            let lower: Vec<char> = candidate.to_ascii_lowercase().chars().collect();
            index
                .by_length
                .entry(lower.len())
                .or_default()
                .push((position, lower, candidate.to_string()));
        }
        index
    }

    /// The candidate closest to `word` (case-insensitive), if it is close enough to be a
    /// plausible typo: at most a third of the word's length in edits.
    pub fn closest(&self, word: &str) -> Option<&str> {
        self.closest_with_distance(word).map(|(_, candidate)| candidate)
    }

    /// [`Candidates::closest`], with its distance from `word`.
    pub fn closest_with_distance(&self, word: &str) -> Option<(usize, &str)> {
        if word.is_empty() || word.len() > MAX_WORD {
            return None;
        }
        let word: Vec<char> = word.to_ascii_lowercase().chars().collect();
        let limit = (word.len() / 3).max(1);
        let lengths = word.len().saturating_sub(limit)..=word.len() + limit;
        let mut best: Option<(usize, usize, &str)> = None;
        for (_, bucket) in self.by_length.range(lengths) {
            for (position, lower, candidate) in bucket {
                let allowed = best.map_or(limit, |(distance, _, _)| distance);
                let Some(distance) = bounded_distance(&word, lower, allowed) else {
                    continue;
                };
                let better = best.is_none_or(|(best_distance, best_position, _)| {
                    (distance, *position) < (best_distance, best_position)
                });
                if better {
                    best = Some((distance, *position, candidate));
                }
            }
        }
        best.map(|(distance, _, candidate)| (distance, candidate))
    }
}

/// The candidate closest to `word`, as [`Candidates::closest`], for a one-off list.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let index = Candidates::new(candidates.iter().copied());
    let found = index.closest(word)?;
    candidates.into_iter().find(|candidate| *candidate == found)
}

/// Edit distance over characters, a swap of two neighbours counting as one edit (`f23` is
/// one from `f32`), or `None` once it is certain to exceed `limit`.
fn bounded_distance(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Three rows: a swap reaches two rows back.
    let mut before = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    let mut previous_best = 0;
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        let mut row_best = current[0];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            let mut distance = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                distance = distance.min(before[j - 1] + 1);
            }
            current[j + 1] = distance;
            row_best = row_best.min(distance);
        }
        // Every later row is at least the smaller of this row's and the last row's minimum.
        if row_best.min(previous_best) > limit {
            return None;
        }
        previous_best = row_best;
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    Some(previous[b.len()]).filter(|distance| *distance <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_typos() {
        assert_eq!(closest("evnt", ["event", "enum", "scope"]), Some("event"));
        assert_eq!(closest("maxpacketsize", ["MaxPacketSize"]), Some("MaxPacketSize"));
        assert_eq!(closest("zzzz", ["event"]), None);
        // Two digits swapped is one edit.
        assert_eq!(closest("f23", ["f16", "f32", "f64"]), Some("f32"));
        assert_eq!(closest("u61", ["u8", "u16", "u32"]), Some("u16"));
        assert_eq!(closest("Reliabel", ["Reliable"]), Some("Reliable"));
    }

    #[test]
    fn the_first_of_equally_close_candidates_wins_and_closer_beats_earlier() {
        assert_eq!(closest("cat", ["bat", "hat", "cap"]), Some("bat"));
        assert_eq!(closest("cats", ["bat", "cat"]), Some("cat"));
        assert_eq!(closest("Reliabel", ["Unreliable", "Reliable"]), Some("Reliable"));
    }

    #[test]
    fn the_bounded_distance_agrees_with_the_full_one() {
        let words = [
            "", "a", "ab", "abc", "kitten", "sitting", "flaw", "lawn", "Saturday", "Sunday",
        ];
        for a in words {
            for b in words {
                let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                let full = bounded_distance(&a, &b, usize::MAX / 2).expect("unbounded");
                for limit in 0..10 {
                    assert_eq!(bounded_distance(&a, &b, limit), (full <= limit).then_some(full));
                }
            }
        }
    }
}
