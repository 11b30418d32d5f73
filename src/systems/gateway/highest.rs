//! The law of the highest of k d8 (rules §1.1), as the scene engines
//! tabulate it once: P(highest = r) and P(highest ≤ x) for every pool
//! size up to a cap.

/// `(pmf, cdf)` with `pmf[k][r]` = P(the highest of k d8 is r) and
/// `cdf[k][x]` = P(it is ≤ x), for k in 1..=`max_dice` (row 0 zeros).
pub fn highest_d8(max_dice: usize) -> (Vec<[f64; 9]>, Vec<[f64; 9]>) {
    let mut pmf = vec![[0.0; 9]; max_dice + 1];
    let mut cdf = vec![[0.0; 9]; max_dice + 1];
    for k in 1..=max_dice {
        for x in 0..=8 {
            // Exact in binary: x^k / 8^k with x^k ≤ 2^27.
            cdf[k][x] = (x as f64 / 8.0).powi(k as i32);
            if x > 0 {
                pmf[k][x] = cdf[k][x] - cdf[k][x - 1];
            }
        }
    }
    (pmf, cdf)
}
