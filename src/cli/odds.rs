//! `oddsmith odds`: a one-line question answered with a small table.

use anyhow::{Context, bail};
use oddsmith::sim::{self, Plan};
use oddsmith::stats;
use oddsmith::systems::Define;
use oddsmith::systems::gateway::{Challenge, Contest, Pool};

use super::{OddsArgs, OddsSystem, Outcome};

pub fn odds(args: OddsArgs) -> anyhow::Result<Outcome> {
    match args.system {
        OddsSystem::Gateway => gateway(&args),
    }
}

/// `NdK+M` / `NdK-M` / `NdK` with K = 8: N d8 keep highest, plus M.
fn parse_pool(flag: &str, text: &str) -> anyhow::Result<Pool> {
    let bad = || {
        format!(
            "--{flag} {text:?} is not a Gateway roll; write N d8 keep highest plus M as NdK+M, e.g. 3d8+2 (N 1..=20)"
        )
    };
    let t = text.trim().to_ascii_lowercase();
    let (dice, rest) = t.split_once('d').with_context(bad)?;
    let dice: u32 = dice
        .parse()
        .ok()
        .filter(|n| (1..=20).contains(n))
        .with_context(bad)?;
    let (sides, bonus) = match rest.find(['+', '-']) {
        Some(i) => (
            &rest[..i],
            rest[i..]
                .trim_start_matches('+')
                .parse::<i64>()
                .ok()
                .with_context(bad)?,
        ),
        None => (rest, 0),
    };
    if sides != "8" {
        bail!("--{flag} {text:?}: Gateway rolls d8s only (got d{sides})");
    }
    Ok(Pool { dice, bonus })
}

/// `2`, `0..3` or `0..=3` (both inclusive), within 0..=10.
fn parse_raises(text: &str) -> anyhow::Result<Vec<u32>> {
    let bad = || {
        format!(
            "--raises {text:?}: give a number or an inclusive range such as 0..3, within 0..=10"
        )
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (
            a.trim().parse::<u32>().ok().with_context(bad)?,
            b.trim_start_matches('=')
                .trim()
                .parse::<u32>()
                .ok()
                .with_context(bad)?,
        ),
        None => {
            let n = text.trim().parse::<u32>().ok().with_context(bad)?;
            (n, n)
        }
    };
    if lo > hi || hi > 10 {
        bail!(bad());
    }
    Ok((lo..=hi).collect())
}

fn gateway(args: &OddsArgs) -> anyhow::Result<Outcome> {
    let actor = parse_pool("actor", &args.actor)?;
    let vs = parse_pool("vs", &args.vs)?;
    let raises = parse_raises(&args.raises)?;
    println!(
        "gateway: highest of {} vs highest of {}; success on equal or better, +2 to the opposition per raise{}",
        args.actor,
        args.vs,
        if args.free_raises > 0 {
            format!(", {} free raise(s) on success", args.free_raises)
        } else {
            String::new()
        }
    );
    print!(
        "{:>6}  {:>10}  {:>11}  {:>15}",
        "raises", "p_success", "odds", "expected_raises"
    );
    if args.check {
        print!("  {:>28}  {:>6}", "monte carlo (95% interval)", "z");
    }
    println!();
    let mut best = (0u32, f64::NEG_INFINITY);
    for (i, &r) in raises.iter().enumerate() {
        let contest = Contest::new(actor, vs, r, args.free_raises);
        let (wins, all) = contest.success_fraction();
        let p = wins as f64 / all as f64;
        let expected = p * contest.banked as f64;
        if expected > best.1 {
            best = (r, expected);
        }
        let one_in = if p > 0.0 {
            format!("1 in {:.2}", 1.0 / p)
        } else {
            "never".into()
        };
        print!("{r:>6}  {p:>10.6}  {one_in:>11}  {expected:>15.4}");
        if args.check {
            let m = Challenge.model(contest);
            let plan = Plan {
                seed: args.seed,
                trials: args.trials,
                precision: None,
            };
            let tally = sim::simulate(&[(i, m.as_ref())], &plan, &()).remove(0);
            let spec = &m.schema().metrics[0];
            let est = stats::estimate(spec, &tally);
            let exact = stats::exact_value(spec, &m.exact().expect("gateway is exact"));
            let z = stats::z_score(&exact, &est);
            print!(
                "  {:>28}  {z:>6.2}",
                format!("{:.6} [{:.6}, {:.6}]", est.value, est.lo, est.hi)
            );
        }
        println!();
    }
    if raises.len() > 1 {
        println!(
            "most raises banked on average: {} raise(s), {:.4} expected",
            best.0, best.1
        );
    }
    Ok(Outcome::Fine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_and_raises_parse() {
        assert_eq!(
            parse_pool("actor", "3d8+2").unwrap(),
            Pool { dice: 3, bonus: 2 }
        );
        assert_eq!(
            parse_pool("actor", "2D8-1").unwrap(),
            Pool { dice: 2, bonus: -1 }
        );
        assert_eq!(
            parse_pool("actor", "1d8").unwrap(),
            Pool { dice: 1, bonus: 0 }
        );
        assert!(parse_pool("actor", "3d6+2").is_err());
        assert!(parse_pool("actor", "0d8").is_err());
        assert!(parse_pool("actor", "three").is_err());
        assert_eq!(parse_raises("0..3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse_raises("1..=2").unwrap(), vec![1, 2]);
        assert_eq!(parse_raises("4").unwrap(), vec![4]);
        assert!(parse_raises("3..1").is_err());
        assert!(parse_raises("0..11").is_err());
    }
}
