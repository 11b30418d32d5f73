//! Probabilities as percentages, the way report.md and report.html show
//! them (the CSV, Parquet and JSON files keep the raw 0..1 numbers).

/// `p` as a percentage: one decimal in the middle of the range, two near
/// 0 and 1 (where 0.4% against 0.44% matters), and a value that is not 0
/// or 1 never rounds to them: "<0.01%", ">99.99%".
pub fn percent(p: f64) -> String {
    if p.is_nan() {
        return String::new();
    }
    if p <= 0.0 {
        "0%".into()
    } else if p >= 1.0 {
        "100%".into()
    } else if p < 0.0001 {
        "<0.01%".into()
    } else if p > 0.9999 {
        ">99.99%".into()
    } else if !(0.01..=0.99).contains(&p) {
        format!("{:.2}%", p * 100.0)
    } else {
        format!("{:.1}%", p * 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn percentages_read_plainly_and_never_round_to_certainty() {
        assert_eq!(percent(0.8208), "82.1%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(0.0044), "0.44%");
        assert_eq!(percent(0.99561), "99.56%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(1.0 / 32768.0), "<0.01%");
        assert_eq!(percent(1.0 - 1.0 / 32768.0), ">99.99%");
        assert_eq!(percent(f64::NAN), "");
    }
}
