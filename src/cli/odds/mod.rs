//! `oddsmith odds`: a one-line question answered with a small table.
//!
//! Three forms: dice expressions (`odds "4d6kh3" n=4`), any mechanic with
//! `key=value` parameters (`odds cortex.basic actor.pool="d8 d6 d6"`; a bare
//! system name picks its first mechanic), both asked in [`question`] and
//! answered by the library's [`oddsmith::answer`] (printed by [`answers`]
//! and [`text`]); and Gateway's raise table (`odds gateway --actor 3d8+2
//! --vs 2d8+4`), here.

mod answers;
mod question;
mod text;

pub use answers::{ask_error, mechanic_named, questions};
pub use question::{fixed, values};

use crate::cli::stdout::{out, outln};
use anyhow::{anyhow, bail};
use oddsmith::sim::{self, Plan};
use oddsmith::stats;
use oddsmith::systems::Define;
use oddsmith::systems::gateway::notation::{parse_pool, parse_raises};
use oddsmith::systems::gateway::{Challenge, Contest};

use super::{OddsArgs, Outcome};

pub fn odds(args: OddsArgs) -> anyhow::Result<Outcome> {
    let gateway_flags = args.actor.is_some()
        || args.vs.is_some()
        || args.raises.is_some()
        || args.free_raises.is_some();
    if !gateway_flags {
        return answers::answer(&args);
    }
    if args.what != "gateway" {
        bail!(
            "--actor, --vs, --raises and --free-raises belong to `oddsmith odds gateway`; for {:?} give parameters as key=value",
            args.what
        );
    }
    if !args.params.is_empty() {
        bail!(
            "`odds gateway --actor … --vs …` takes no key=value parameters (got {:?}); for gateway.challenge's own keys leave out --actor and --vs",
            args.params.join(" ")
        );
    }
    let (Some(actor), Some(vs)) = (&args.actor, &args.vs) else {
        bail!("`odds gateway` needs both --actor and --vs (e.g. --actor 3d8+2 --vs 2d8+4)");
    };
    if args.mode() == oddsmith::run::Mode::MonteCarlo {
        bail!(
            "`odds gateway --actor … --vs …` works its table out exactly; --mode mc does not apply (--mode both checks it by simulation)"
        );
    }
    gateway(&GatewayArgs {
        actor: actor.clone(),
        vs: vs.clone(),
        raises: args.raises.clone().unwrap_or_else(|| "0..3".into()),
        free_raises: args.free_raises.unwrap_or(0),
        check: args.mode() == oddsmith::run::Mode::Both,
        trials: args.trials,
        seed: args.seed,
    })
}

/// The Gateway form's flags, defaults filled in.
struct GatewayArgs {
    actor: String,
    vs: String,
    raises: String,
    free_raises: u32,
    check: bool,
    trials: u64,
    seed: u64,
}

fn gateway(args: &GatewayArgs) -> anyhow::Result<Outcome> {
    let actor = parse_pool(&args.actor).map_err(|e| anyhow!("--actor {e}"))?;
    let vs = parse_pool(&args.vs).map_err(|e| anyhow!("--vs {e}"))?;
    let raises = parse_raises(&args.raises).map_err(|e| anyhow!("--raises {e}"))?;
    outln!(
        "gateway: highest of {} vs highest of {}; success on equal or better, +2 to the opposition per raise{}",
        args.actor,
        args.vs,
        if args.free_raises > 0 {
            format!(", {} free raise(s) on success", args.free_raises)
        } else {
            String::new()
        }
    );
    out!(
        "{:>6}  {:>10}  {:>16}  {:>15}",
        "raises",
        "p_success",
        "odds",
        "expected_raises"
    );
    if args.check {
        out!("  {:>32}  {:>6}", "monte carlo (95% interval)", "z");
    }
    outln!();
    let mut best = (0u32, f64::NEG_INFINITY);
    for (i, &r) in raises.iter().enumerate() {
        let contest = Contest::new(actor, vs, r, args.free_raises);
        let (wins, all) = contest.success_fraction();
        let p = wins as f64 / all as f64;
        let expected = p * contest.banked as f64;
        if expected > best.1 {
            best = (r, expected);
        }
        let one_in = text::once_in(p, 0);
        out!(
            "{r:>6}  {:>10}  {one_in:>16}  {expected:>15.4}",
            text::percent(p)
        );
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
            out!(
                "  {:>32}  {z:>6.2}",
                format!(
                    "{} [{}, {}]",
                    text::percent(est.value),
                    text::percent(est.lo),
                    text::percent(est.hi)
                )
            );
        }
        outln!();
    }
    if raises.len() > 1 {
        outln!(
            "most raises banked on average: {} raise(s), {:.4} expected",
            best.0,
            best.1
        );
    }
    Ok(Outcome::Fine)
}
