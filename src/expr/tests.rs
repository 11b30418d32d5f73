//! Tests of the expression language: the parser and its errors, published
//! numbers, and the exact evaluator against brute-force enumeration of
//! every roll (the sampler driven through every branch of its choices).

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::*;

/// Every outcome of `roll`, found by running its sampler down every branch
/// of its choices: `(value, count out of total)` where `total` is the exact
/// distribution's. `None` when there are more than `limit` branches or the
/// counts do not fit `u128`.
fn brute_force(roll: &Roll, total: u128, limit: usize) -> Option<BTreeMap<i64, u128>> {
    /// Replays a path of choices, extending it with 0s.
    struct Script {
        path: Vec<(u32, u32)>,
        pos: usize,
    }
    impl Roller for Script {
        fn pick(&mut self, n: u32) -> u32 {
            if self.pos == self.path.len() {
                self.path.push((0, n));
            }
            let (c, m) = self.path[self.pos];
            assert_eq!(m, n, "a replayed path asks for the same dice");
            self.pos += 1;
            c
        }
    }
    let sampler = roll.sampler();
    let mut script = Script {
        path: Vec::new(),
        pos: 0,
    };
    let mut scratch = Vec::new();
    let mut out = BTreeMap::new();
    for _ in 0..limit {
        script.pos = 0;
        let v = sampler.sample(&mut script, &mut scratch);
        script.path.truncate(script.pos);
        let mut cases = 1u128;
        for &(_, n) in &script.path {
            cases = cases.checked_mul(n as u128)?;
        }
        // This path is 1 of `cases`; in the exact count it is total/cases.
        assert_eq!(total % cases, 0, "{cases} does not divide {total}");
        *out.entry(v).or_insert(0u128) += total / cases;
        // Next path: the last choice that can move up does, the rest drop.
        while let Some((c, n)) = script.path.pop() {
            if c + 1 < n {
                script.path.push((c + 1, n));
                break;
            }
        }
        if script.path.is_empty() {
            return Some(out);
        }
    }
    None
}

/// Exact counts of `text` (which must fit `u128`), checked to sum to the
/// total.
fn exact_counts(roll: &Roll) -> (BTreeMap<i64, u128>, u128) {
    let d = roll.exact().expect("small cases solve");
    assert_eq!(d.weight_sum(), *d.total(), "weights sum to the total");
    let total = d.total().to_u128().expect("total fits u128");
    let counts = d
        .iter()
        .map(|(v, w)| (v, w.to_u128().expect("fits")))
        .collect();
    (counts, total)
}

/// The exact distribution of `text` equals brute-force enumeration.
fn agrees_with_brute_force(text: &str) {
    let roll = Roll::new(text).unwrap_or_else(|e| panic!("{}", e.picture()));
    let (exact, total) = exact_counts(&roll);
    let brute = brute_force(&roll, total, 2_000_000).expect("few enough rolls");
    assert_eq!(exact, brute, "{text}");
}

#[test]
fn every_operator_equals_brute_force() {
    for text in [
        // dice, custom faces, constants
        "3d6",
        "d%",
        "4dF",
        "2d{1,2,4,4}",
        "3d{-1..1}",
        "2d{0,0,1} + 2",
        "0d6 + 3",
        // keep / drop, alone and chained
        "4d6kh3",
        "4d6kl3",
        "4d6dh1",
        "4d6dl1",
        "5d4kh2kl1",
        "3d6k2",
        "2d6kh5",
        "3d6kh0",
        "2d20kl1",
        "6d3kh3",
        // more dice than are kept in order on the stack (13 or more)
        "14d2kh3",
        "13d2dl4",
        // exploding and rerolls
        "2d4!",
        "d4!>=3",
        "2d3!>=3",
        "d6!",
        "d{1,2,2}!",
        "3d6r<=2",
        "3d6r1",
        "3d6ro<=2",
        "d4ro1!",
        "3d4!kh2",
        "2d4!dl1",
        // success counting
        "5d6>=5",
        "4d10>=8++10",
        "4d6>=5f1",
        "4d10>=8 ++10 f1",
        "3d6<=2",
        "3d6=6",
        "d4!>=3>=3",
        "2d4>=3!",
        "4d6kh2>=4",
        "5d6ro1>=5",
        // arithmetic
        "d6 * d6",
        "2 * d6 - d4",
        "-d6 + 3",
        "max(d6, d6)",
        "min(2d4, d6)",
        "max(d4, d4, d4)",
        "max(-d6, d{-2..3})",
        // comparisons
        "3d6 >= 10",
        "d20 > d20",
        "d6 = d6",
        "d6 == d6",
        "d6 != d6",
        "d8 <= d6",
        "d8 < d6",
        "(3d6)>=10",
        "(d6 >= 4) + (d6 >= 4)",
        "3d4kh1+2 >= 2d4kh1+4",
    ] {
        agrees_with_brute_force(text);
    }
}

/// Plain enumeration of `n` dice with `faces`, independent of the
/// expression code: sort, keep positions `lo..hi` from the top, sum.
fn naive_keep(n: u32, faces: &[i64], lo: usize, hi: usize) -> BTreeMap<i64, u128> {
    let mut out = BTreeMap::new();
    let total = faces.len().pow(n);
    for mut code in 0..total {
        let mut dice: Vec<i64> = (0..n)
            .map(|_| {
                let f = faces[code % faces.len()];
                code /= faces.len();
                f
            })
            .collect();
        dice.sort_unstable_by(|a, b| b.cmp(a));
        *out.entry(dice[lo..hi].iter().sum()).or_insert(0u128) += 1;
    }
    out
}

#[test]
fn keep_and_drop_mean_what_they_say() {
    let d6: Vec<i64> = (1..=6).collect();
    for (text, n, lo, hi) in [
        ("4d6kh3", 4, 0, 3),
        ("4d6dl1", 4, 0, 3),
        ("4d6kl3", 4, 1, 4),
        ("4d6dh1", 4, 1, 4),
        ("5d6kh3kl1", 5, 2, 3),
        ("5d6dh1dl1", 5, 1, 4),
        ("6d6kh2", 6, 0, 2),
        ("3d6kh9", 3, 0, 3),
    ] {
        let (exact, _) = exact_counts(&Roll::new(text).unwrap());
        assert_eq!(exact, naive_keep(n, &d6, lo, hi), "{text}");
    }
    let fudge = [-1, 0, 1];
    let (exact, _) = exact_counts(&Roll::new("4dFkh2").unwrap());
    assert_eq!(exact, naive_keep(4, &fudge, 0, 2));
}

#[test]
fn four_d6_keep_three_has_the_published_mean() {
    // 12.2446 = 15869/1296 (e.g. the AnyDice and icepool tables).
    let d = Roll::new("4d6kh3").unwrap().exact().unwrap();
    assert_eq!(d.total().to_u128(), Some(1296));
    let sum: i128 = d
        .iter()
        .map(|(v, w)| v as i128 * w.to_u128().unwrap() as i128)
        .sum();
    assert_eq!(sum, 15869);
    assert!((d.mean() - 12.244598765432098).abs() < 1e-12);
}

#[test]
fn gateway_example_is_11431_in_32768() {
    let d = Roll::new("3d8kh1+2 >= 2d8kh1+4").unwrap().exact().unwrap();
    assert_eq!(d.total().to_u128(), Some(8u128.pow(5)));
    assert_eq!(d.weight(1).to_u128(), Some(11431));
    assert_eq!(d.weight(0).to_u128(), Some(32768 - 11431));
}

#[test]
fn twenty_d6_keep_two_by_hand() {
    // 12 needs two sixes or more: 6^20 − 5^20 − 20·5^19 of 6^20.
    let d = Roll::new("20d6kh2").unwrap().exact().unwrap();
    let total = 6u128.pow(20);
    assert_eq!(d.total().to_u128(), Some(total));
    assert_eq!(
        d.weight(12).to_u128(),
        Some(total - 5u128.pow(20) - 20 * 5u128.pow(19))
    );
    // 2: every die a 1.
    assert_eq!(d.weight(2).to_u128(), Some(1));
    assert_eq!(d.weight_sum(), *d.total());
}

#[test]
fn success_pool_with_doubles_by_hand() {
    // Each d10 scores 0 (1..7), 1 (8, 9) or 2 (10): mean 0.4, variance 0.44.
    let d = Roll::new("10d10>=8 ++10").unwrap().exact().unwrap();
    assert_eq!(d.total().to_u128(), Some(10u128.pow(10)));
    assert!((d.mean() - 4.0).abs() < 1e-12);
    assert!((d.sd() - 4.4f64.sqrt()).abs() < 1e-12);
    assert_eq!(d.weight(20).to_u128(), Some(1));
    assert_eq!(d.weight(0).to_u128(), Some(7u128.pow(10)));
}

#[test]
fn big_counts_take_over_from_u128() {
    // 8d6!: 6^88 cases, past u128. The mean of one capped d6! is
    // 3.5·(1 + 1/6 + … + 1/6^10).
    let d = Roll::new("8d6!").unwrap().exact().unwrap();
    assert_eq!(d.total().bits(), 228);
    assert_eq!(d.total().to_u128(), None);
    assert_eq!(d.weight_sum(), *d.total());
    let one: f64 = (0..=10).map(|k| 3.5 / 6f64.powi(k)).sum();
    assert!((d.mean() - 8.0 * one).abs() < 1e-9, "{}", d.mean());
    // Eight ones: 6^80 of 6^88.
    assert!((d.probability(8) - 6f64.powi(-8)).abs() < 1e-20);
    // All the way up: 8 chains of ten sixes and a six.
    assert_eq!(d.range(), (8, 8 * 66));
    assert!(d.probability(8 * 66) > 0.0);
}

#[test]
fn parameters_take_their_values() {
    let e = Expr::parse("{n}d6kh{k} + {bonus}").unwrap();
    assert_eq!(e.params(), vec!["bonus", "k", "n"]);
    let vars: BTreeMap<String, i64> = [("n", 4), ("k", 3), ("bonus", 0)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(e.bind(&vars).unwrap(), Roll::new("4d6kh3+0").unwrap());
    let sides = Expr::parse("2d{s}>={t}").unwrap();
    let vars: BTreeMap<String, i64> = [("s", 8), ("t", 5)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(sides.bind(&vars).unwrap(), Roll::new("2d8>=5").unwrap());
}

/// `text` fails to parse or bind at `column` with a message containing
/// `words`.
fn fails(text: &str, column: usize, words: &str) {
    let err = Expr::parse(text)
        .and_then(|e| e.bind(&BTreeMap::from([("n".to_string(), 0)])))
        .expect_err(text);
    assert!(
        err.message.contains(words),
        "{text}: {:?} lacks {words:?}",
        err.message
    );
    assert_eq!(err.column(), column, "{text}:\n{}", err.picture());
}

#[test]
fn errors_point_at_the_column() {
    fails("4d6kh", 6, "keep needs a count");
    fails("4d6dl", 6, "drop needs a count");
    fails("3d", 3, "a die needs faces");
    fails("", 1, "empty");
    fails("3d6 +", 6, "ends too soon");
    fails("4d6 kh3", 5, "must touch its dice");
    fails("(3d6 + 2", 1, "never closed");
    fails("3d6)", 4, "no `(` to close");
    fails("d6r", 4, "reroll needs a face test");
    fails("10d10++10", 6, "doubles (++)");
    fails("10d10f1", 6, "failures (f)");
    fails("3d6 >= 10 >= 2", 11, "do not chain");
    fails("max(d6)", 1, "at least two");
    fails("2d{}", 3, "at least one face");
    fails("2d{3..1}", 4, "runs upwards");
    fails("2d{1 2}", 6, "separated by commas");
    fails("d6!!", 3, "`!!` is not supported");
    fails("d0", 2, "at least one face");
    fails("99999999999999999999d6", 1, "too large");
    fails("{1n}d6", 2, "a parameter is a name");
    fails("3 $ 4", 3, "unexpected `$`");
    fails(
        &format!("{}d6{}", "(".repeat(300), ")".repeat(300)),
        202,
        "nests more than 200",
    );
    fails(&"-".repeat(300), 202, "nests more than 200");
    fails(&vec!["d6"; 300].join("+"), 1, "nest more than 200 deep");
    fails(&"1".repeat(10_001), 10_001, "longer than 10000");
    // Binding: values the text alone cannot check.
    fails("{m}d6", 1, "{m} has no value");
    fails("2d{n}", 3, "the number of faces is 0");
    fails("d6r<=6", 1, "matches every face");
    fails("d6!>=1", 1, "explodes on every face");
    fails("3d6!kh2>=4", 1, "cannot be combined");
    fails("20000d6", 1, "the number of dice is 20000");
    fails(
        "d1000000 * d1000000 * d1000000 * d1000000",
        1,
        "beyond the ±2^53",
    );
}

#[test]
fn the_error_picture_has_a_caret() {
    let err = Expr::parse("4d6kh").unwrap_err();
    assert_eq!(err.picture(), "4d6kh\n     ^ keep needs a count");
    assert_eq!(
        err.to_string(),
        "keep needs a count (column 6 of \"4d6kh\")"
    );
}

#[test]
fn spacing_tells_success_counting_from_comparison() {
    assert_eq!(
        Expr::parse("3d6>=10").unwrap().to_string(),
        "3d6>=10",
        "touching: count dice showing 10+"
    );
    assert_eq!(Expr::parse("3d6 >= 10").unwrap().to_string(), "(3d6 >= 10)");
    assert_eq!(Expr::parse("(3d6)>=10").unwrap().to_string(), "(3d6 >= 10)");
    assert!(Expr::parse("3d6 >= 10").unwrap().is_comparison());
    assert!(!Expr::parse("3d6>=10").unwrap().is_comparison());
    // After a success test, doubles and failures may stand apart.
    assert_eq!(
        Expr::parse("10d10>=8 ++10 f1").unwrap().to_string(),
        "10d10>=8++10f1"
    );
    assert_eq!(
        Expr::parse("2D6 + d% - dF * 3 ≥ 4").unwrap().to_string(),
        "(((2d6 + 1d%) - (1dF * 3)) >= 4)"
    );
}

#[test]
fn large_pools_refuse_exact_answers_rather_than_hang() {
    let err = Roll::new("10000d1000").unwrap().exact().unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    assert!(Roll::new("500d6").unwrap().exact().is_ok());
}

// --- Properties ------------------------------------------------------------

/// A small pool with random modifiers, as text.
fn pool_text(max_dice: u32) -> impl Strategy<Value = String> {
    let die = prop_oneof![
        Just("d2"),
        Just("d3"),
        Just("d4"),
        Just("d6"),
        Just("dF"),
        Just("d{1,2,4,4}"),
        Just("d{-1..1}"),
        Just("d{0,0,1}"),
        Just("d{2..4}"),
    ];
    let reroll = prop_oneof![
        3 => Just(""),
        1 => Just("r1"),
        1 => Just("r<=0"),
        1 => Just("ro1"),
        1 => Just("ro>=3"),
    ];
    let keep = prop_oneof![
        3 => Just(""),
        1 => Just("kh1"),
        1 => Just("kl2"),
        1 => Just("dh1"),
        1 => Just("dl1"),
        1 => Just("kh2kl1"),
    ];
    let success = prop_oneof![
        3 => Just(""),
        1 => Just(">=2"),
        1 => Just("<=0"),
        1 => Just(">=1++3"),
        1 => Just(">=2f1"),
        1 => Just(">1 ++>=3 f<=-1"),
    ];
    (1..=max_dice, die, reroll, any::<bool>(), keep, success).prop_map(
        |(n, die, reroll, explode, keep, success)| {
            // Explode only small pools: every chain is enumerated.
            let bang = if explode && n <= 2 { "!" } else { "" };
            format!("{n}{die}{reroll}{keep}{success}{bang}")
        },
    )
}

/// A small expression: a pool, or two combined by an operator.
fn expr_text() -> impl Strategy<Value = String> {
    let op = prop_oneof![
        Just(" + "),
        Just(" - "),
        Just(" * "),
        Just(" >= "),
        Just(" < "),
        Just(" = "),
        Just(" != "),
        Just("max"),
        Just("min"),
    ];
    prop_oneof![
        pool_text(4),
        (pool_text(3), op, pool_text(2)).prop_map(|(a, op, b)| match op {
            "max" | "min" => format!("{op}({a}, {b})"),
            _ => format!("{a}{op}{b}"),
        }),
        (pool_text(3), -3i64..=3).prop_map(|(a, k)| format!("-{a} + {k}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn exact_sums_to_one_and_equals_brute_force(text in expr_text()) {
        let roll = match Roll::new(&text) {
            Ok(r) => r,
            // A reroll or explosion matching every face of a small die.
            Err(e) => {
                prop_assert!(
                    e.message.contains("every face") || e.message.contains("cannot be combined"),
                    "{}", e.picture()
                );
                return Ok(());
            }
        };
        let d = roll.exact().unwrap();
        prop_assert_eq!(d.weight_sum(), d.total().clone());
        let total = d.total().to_u128();
        prop_assume!(total.is_some());
        let total = total.unwrap();
        let brute = brute_force(&roll, total, 400_000);
        prop_assume!(brute.is_some());
        let exact: BTreeMap<i64, u128> =
            d.iter().map(|(v, w)| (v, w.to_u128().unwrap())).collect();
        prop_assert_eq!(exact, brute.unwrap(), "{}", text);
        // The probabilities, as floats, sum to 1 too.
        let s: f64 = d.probabilities().iter().map(|p| p.1).sum();
        prop_assert!((s - 1.0).abs() < 1e-12);
    }

    #[test]
    fn canonical_text_parses_back_to_itself(text in expr_text()) {
        let once = Expr::parse(&text).unwrap().to_string();
        let twice = Expr::parse(&once).unwrap().to_string();
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn more_dice_never_lower_keep_highest(n in 1u32..8, k in 1u32..4, t in 2i64..20) {
        // P(ndXkh k ≥ t) rises with n.
        let p = |n: u32| {
            let d = Roll::new(&format!("{n}d6kh{k}")).unwrap().exact().unwrap();
            d.probabilities().iter().filter(|(v, _)| *v >= t).map(|p| p.1).sum::<f64>()
        };
        prop_assert!(p(n + 1) >= p(n) - 1e-12);
    }
}
