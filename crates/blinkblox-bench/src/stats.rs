//! The median and 99th percentile the tables show for per-frame times.

/// Median and 99th percentile of per-frame times, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median_ms: f64,
    pub p99_ms: f64,
}

impl Stats {
    /// From per-frame seconds; `None` when there are none.
    pub fn of_seconds(samples: &[f64]) -> Option<Stats> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted: Vec<f64> = samples.iter().map(|seconds| seconds * 1000.0).collect();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median_ms = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        // Nearest rank: the smallest sample with at least 99% of the samples at or below it.
        let rank = ((n as f64) * 0.99).ceil() as usize;
        let p99_ms = sorted[rank.clamp(1, n) - 1];
        Some(Stats { median_ms, p99_ms })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_nearest_rank_percentiles() {
        let odd = Stats::of_seconds(&[0.003, 0.001, 0.002]).expect("stats");
        assert_eq!((odd.median_ms, odd.p99_ms), (2.0, 3.0));
        let even = Stats::of_seconds(&[0.004, 0.001, 0.002, 0.003]).expect("stats");
        assert_eq!(even.median_ms, 2.5);
        // 200 frames: the 99th percentile is the 198th smallest, so two outliers do not set it.
        let mut frames: Vec<f64> = (1..=200).map(|i| f64::from(i) / 1000.0).collect();
        frames[199] = 10.0;
        let stats = Stats::of_seconds(&frames).expect("stats");
        assert_eq!(stats.p99_ms, 198.0);
        assert!(Stats::of_seconds(&[]).is_none());
    }
}
