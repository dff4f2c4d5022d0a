//! The few statistics an analysis reports.

use std::collections::BTreeMap;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of a proportion of `hits` in `n` trials (`[0, 1]` when there
/// were none). Unlike the normal approximation it stays inside 0..1 and is sound for small
/// counts and for rates near 0 or 1.
pub fn wilson(hits: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p) = (n as f64, hits as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The smallest value with at least `q` of the counted values at or below it (the
/// nearest-rank percentile); 0 for no values.
pub fn percentile(histogram: &BTreeMap<u32, u64>, q: f64) -> u32 {
    let n: u64 = histogram.values().sum();
    let rank = ((q * n as f64).ceil() as u64).max(1);
    let mut seen = 0;
    for (&value, &count) in histogram {
        seen += count;
        if seen >= rank {
            return value;
        }
    }
    0
}

/// The mean of the counted values; 0 for none.
pub fn mean(histogram: &BTreeMap<u32, u64>) -> f64 {
    let n: u64 = histogram.values().sum();
    if n == 0 {
        return 0.0;
    }
    let sum: f64 = histogram
        .iter()
        .map(|(&v, &c)| f64::from(v) * c as f64)
        .sum();
    sum / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f64; 2], b: [f64; 2]) -> bool {
        (a[0] - b[0]).abs() < 5e-5 && (a[1] - b[1]).abs() < 5e-5
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), Statistics in Medicine 17, table I: 81/263 gives 0.2553-0.3662,
        // 15/148 gives 0.0624-0.1605, 0/20 gives 0-0.1611, 1/29 gives 0.0061-0.1718.
        assert!(
            close(wilson(81, 263), [0.2553, 0.3662]),
            "{:?}",
            wilson(81, 263)
        );
        assert!(
            close(wilson(15, 148), [0.0624, 0.1605]),
            "{:?}",
            wilson(15, 148)
        );
        assert!(close(wilson(0, 20), [0.0, 0.1611]), "{:?}", wilson(0, 20));
        assert!(
            close(wilson(1, 29), [0.0061, 0.1718]),
            "{:?}",
            wilson(1, 29)
        );
        // Symmetric: a half splits evenly; hits and misses mirror.
        let [lo, hi] = wilson(50, 100);
        assert!((lo + hi - 1.0).abs() < 1e-12 && (lo - 0.4038).abs() < 5e-5);
        let [a, b] = wilson(90, 100);
        let [c, d] = wilson(10, 100);
        assert!((a - (1.0 - d)).abs() < 1e-12 && (b - (1.0 - c)).abs() < 1e-12);
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let h: BTreeMap<u32, u64> = [(10, 1), (20, 2), (30, 1)].into();
        assert_eq!(percentile(&h, 0.5), 20);
        assert_eq!(percentile(&h, 0.95), 30);
        assert_eq!(percentile(&h, 0.25), 10);
        assert_eq!(mean(&h), 20.0);
        assert_eq!(percentile(&BTreeMap::new(), 0.5), 0);
    }
}
