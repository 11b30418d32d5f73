//! `oddsmith odds`: a one-line question answered with a small table.

use anyhow::anyhow;
use oddsmith::sim::{self, Plan};
use oddsmith::stats;
use oddsmith::systems::gateway::notation::{parse_pool, parse_raises};
use oddsmith::systems::gateway::{Contest, model};

use super::{OddsArgs, OddsSystem, Outcome};

pub fn odds(args: OddsArgs) -> anyhow::Result<Outcome> {
    match args.system {
        OddsSystem::Gateway => gateway(&args),
    }
}

fn gateway(args: &OddsArgs) -> anyhow::Result<Outcome> {
    let actor = parse_pool(&args.actor).map_err(|e| anyhow!("--actor {e}"))?;
    let vs = parse_pool(&args.vs).map_err(|e| anyhow!("--vs {e}"))?;
    let raises = parse_raises(&args.raises).map_err(|e| anyhow!("--raises {e}"))?;
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
            let m = model(contest);
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
