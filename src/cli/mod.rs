//! Command-line types (clap stays on the binary side) and dispatch to one
//! handler per subcommand.

mod best;
pub use best::{answer as best_answer, question as best_question};
mod check;
mod completions;
mod diff;
mod interrupt;
mod man;
mod merge;
mod odds;
mod progress;
mod report;
mod run;
mod shard;
pub(crate) mod stdout;
mod systems;
mod tune;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use oddsmith::run::Mode;
use oddsmith::shard::Shard;

/// Exact and Monte Carlo odds for tabletop dice mechanics.
///
/// Describe a mechanic and the parameters to sweep in a scenario file, then
/// `oddsmith run` it: exact where the maths allows, Monte Carlo on every
/// core elsewhere, with tidy CSV/Parquet output. `oddsmith systems` lists
/// every mechanic and its parameters; `oddsmith odds` answers a one-line
/// question.
#[derive(Debug, Parser)]
#[command(name = "oddsmith", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a scenario file and write its results to a directory.
    ///
    /// Writes summary.csv (one row per config and method), results.csv and
    /// results.parquet (the long table), agreement.csv (with --mode both),
    /// manifest.json, charts and reports. The directory is replaced whole,
    /// and only when the whole run succeeded; Ctrl-C stops it (exit 130)
    /// and leaves the previous run as it was.
    Run(RunArgs),
    /// Answer a one-line question: `oddsmith odds "4d6kh3"`, `oddsmith odds
    /// cortex.basic actor.pool="d8 d6 d6"`, or `oddsmith odds gateway
    /// --actor 3d8+2 --vs 2d8+4 --raises 0..3`.
    Odds(OddsArgs),
    /// List mechanics with their parameters (ranges, defaults), outcome
    /// fields and headline metrics: every one, one system's
    /// (`oddsmith systems cortex`) or one mechanic (`oddsmith systems
    /// cortex.basic`).
    Systems(SystemsArgs),
    /// Find the knob value that gives the odds you want: for each
    /// combination of a scenario's sweep, the value of its `[tune]` knob
    /// whose metric is nearest a target (or at least / at most a bound).
    ///
    /// `oddsmith tune SCENARIO [--out DIR]`, or in one line: `oddsmith tune
    /// gateway.challenge --knob opposition.challenge --metric p_success
    /// --target 0.5 actor.trait=3`. An existing file, or a name ending in
    /// .toml, is a scenario; anything else is a mechanic. Prints the answer;
    /// with --out writes tune.csv, tune.parquet, a chart, report.md,
    /// report.html and manifest.json (the directory is replaced whole;
    /// `oddsmith report DIR` rebuilds it). Exit 1 when a
    /// `knob_between` assertion fails.
    Tune(TuneArgs),
    /// Best play: the policy that maximises a metric for one side against
    /// the other side's given policy, what it is worth against the policy
    /// the values give, and which options it never needs.
    ///
    /// `oddsmith best gateway.scene ladder=6 --metric p_a_wins`. Prints
    /// the value under best play and under the given policy, the gap, the
    /// best policy as rules, the dominance table (what forbidding each
    /// option costs, how often best play uses it), and the best policy as
    /// the mechanic's own keys where its policy language can say it
    /// (replayed through the exact solver, as `run` and `check` would).
    ///
    /// `--against best`: both sides play best (a zero-sum duel, exact:
    /// the sides decide in turn). `oddsmith best gateway.scene ladder=6
    /// --against best` prints the duel's value (A maximises P(A wins), B
    /// minimises it), one-sided best play's value beside it, and both
    /// sides' policies. Only for mechanics with a second deciding side
    /// (gateway.scene) and a zero-sum metric (p_a_wins).
    Best(BestArgs),
    /// Run scenarios and check every `[[expect]]` balance assertion: exit 0
    /// when all hold, 1 when any fails, 2 on bad input. For CI.
    ///
    /// Monte Carlo results fail an assertion only when their whole 95%
    /// interval is outside the bound.
    Check(CheckArgs),
    /// Rebuild report.md, report.html and the charts of a finished run (or
    /// tune) from its results.parquet (tune.parquet) and scenario.toml,
    /// without re-running.
    Report(ReportArgs),
    /// Compare two runs of the same mechanic and sweep config by config;
    /// list the headline metrics that moved by more than their uncertainty
    /// allows (exact: 1e-9; Monte Carlo: 5 combined standard errors),
    /// biggest first. Exit 1 when any did or a config is in one run only.
    Diff(DiffArgs),
    /// Merge the shards of a run (`oddsmith run … --shard I/N`, I = 1..N)
    /// into the run one machine would have written, byte for byte (but
    /// for manifest.json's timings and thread count).
    ///
    /// The shards must be of one scenario file, seed, trials, mode,
    /// precision and shard count, each given once, in any order; exit 2
    /// names any that is missing, doubled or of another run.
    Merge(MergeArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell or
    /// elvish.
    ///
    /// For bash, `source <(oddsmith completions bash)` in ~/.bashrc; for
    /// zsh, write it as `_oddsmith` into a directory on $fpath; for fish,
    /// to ~/.config/fish/completions/oddsmith.fish.
    Completions(CompletionsArgs),
    /// Print the manual page in roff: `oddsmith man | man -l -`, or
    /// `oddsmith man run` for one subcommand's page with all its options.
    Man(ManArgs),
    /// Serve the designer's workbench: a page that answers as you type
    /// (mechanics or dice expressions, distributions, compare, sweeps),
    /// and its JSON API. Local only (127.0.0.1) unless --host says
    /// otherwise; Ctrl-C stops it.
    Serve(ServeArgs),
}

/// `oddsmith serve` flags.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Port to listen on.
    #[arg(long, default_value_t = 7878)]
    pub port: u16,
    /// Address to listen on [default: 127.0.0.1]. Anything but loopback
    /// lets other machines in, and the workbench has no accounts.
    #[arg(long, value_name = "ADDR")]
    pub host: Option<String>,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

#[derive(Debug, clap::Args)]
struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
struct ManArgs {
    /// A subcommand (e.g. run) whose own page to print; oddsmith(1) when
    /// omitted.
    subcommand: Option<String>,
}

#[derive(Debug, clap::Args)]
struct BestArgs {
    /// The mechanic (`gateway.scene`).
    mechanic: String,
    /// Parameters as key=value (ladder=6, a.trait=3), one value each.
    params: Vec<String>,
    /// The metric to maximise [default: the mechanic's headline metric].
    #[arg(long)]
    metric: Option<String>,
    /// Skip the dominance table (one solve per option group).
    #[arg(long)]
    no_dominance: bool,
    /// What the other side plays: given (its policy from the values;
    /// best play for one side) or best (it plays best too, minimising the
    /// metric: a zero-sum duel, for gateway.scene and p_a_wins).
    #[arg(long, value_enum, default_value_t = Against::Given)]
    against: Against,
    /// text: a report for people; json: the library's answer.
    #[arg(long, value_enum, default_value_t = BestFormat::Text)]
    format: BestFormat,
}

/// What the other side plays in `best`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Against {
    Given,
    Best,
}

/// How `best` prints its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BestFormat {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
struct TuneArgs {
    /// A scenario file with a [tune] table, or a mechanic (one-line form).
    what: String,
    /// One-line form: parameters as key=value (actor.trait=3); a range
    /// or list (actor.trait=1..4, a=x,y) sweeps the key, one answer per
    /// combination.
    params: Vec<String>,
    /// Directory for the outputs (created if missing, replaced whole).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// One-line form: the parameter to search (an integer, ordered-name or
    /// rating parameter).
    #[arg(long)]
    knob: Option<String>,
    /// One-line form: the headline metric to aim.
    #[arg(long)]
    metric: Option<String>,
    /// One-line form: the knob value whose metric is nearest this.
    #[arg(long, allow_hyphen_values = true)]
    target: Option<f64>,
    /// One-line form: the metric must be at least this (as near it as the
    /// knob allows).
    #[arg(long, allow_hyphen_values = true)]
    at_least: Option<f64>,
    /// One-line form: the metric must be at most this (as near it as the
    /// knob allows).
    #[arg(long, allow_hyphen_values = true)]
    at_most: Option<f64>,
    /// One-line form: an answer further than this from the target is
    /// marked unreachable.
    #[arg(long)]
    within: Option<f64>,
    /// One-line form: the knob's values, FROM..TO inclusive (e.g. 0..20,
    /// 1..5M) [default: the parameter's declared range].
    #[arg(long, allow_hyphen_values = true)]
    range: Option<String>,
    /// auto: exact where a solver exists, else Monte Carlo; exact: exact
    /// only; mc: Monte Carlo only; both: exact, each value also simulated
    /// (as `run --mode`).
    #[arg(long, value_enum, default_value_t = ModeArg::Auto)]
    mode: ModeArg,
    /// Monte Carlo trials per knob value [default: the scenario's
    /// `trials`, else 1000000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// Seed for Monte Carlo [default: the scenario's `seed`, else 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Half-width of the 95% interval Monte Carlo candidates are refined
    /// to [default: the [tune] table's `precision`, else 0.002].
    #[arg(long)]
    precision: Option<f64>,
    /// Evaluate every knob value even where bisection would do.
    #[arg(long)]
    scan: bool,
    /// Worker threads [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Print nothing (the exit code and --out still tell).
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The shards' directories, e.g. shards/*.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Directory for the merged run (created if missing, replaced whole).
    #[arg(long, short)]
    out: PathBuf,
    /// No summary line.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// Scenario files, e.g. scenarios/*.toml.
    #[arg(required = true)]
    scenarios: Vec<PathBuf>,
    /// Also write each scenario's outputs (data, charts, report) to
    /// DIR/<scenario file stem>/. DIR is replaced whole when the gate
    /// has run: it holds this check's scenarios only.
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Write only each scenario's charts, report.md and report.html to
    /// DIR/<scenario file stem>/ (deterministic files, fit to commit).
    /// Only these scenarios' reports are replaced; the other reports in
    /// DIR stay (all at once when the gate has run).
    #[arg(long, conflicts_with = "out")]
    report: Option<PathBuf>,
    /// auto: exact where a solver exists, else Monte Carlo; mc: check
    /// against simulation only.
    #[arg(long, value_enum, default_value_t = CheckMode::Auto)]
    mode: CheckMode,
    /// Monte Carlo trials per config [default: each scenario's `trials`, else 1000000].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// Seed for Monte Carlo [default: each scenario's `seed`, else 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// No progress bar; only failures are printed.
    #[arg(long, short)]
    quiet: bool,
    /// Fail (exit 1) on warnings too: settings a mechanic accepts but
    /// that are almost surely not meant, such as `2d10>=12` (it counts
    /// d10s showing 12 or more: always 0).
    #[arg(long)]
    strict: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum CheckMode {
    Auto,
    Mc,
}

#[derive(Debug, clap::Args)]
struct SystemsArgs {
    /// A system (gateway, cortex, cgg, questworlds, statements) or a
    /// mechanic (e.g. cortex.basic); every mechanic when omitted.
    filter: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ReportArgs {
    /// A directory written by `oddsmith run` or `oddsmith check --out`.
    dir: PathBuf,
}

#[derive(Debug, clap::Args)]
struct DiffArgs {
    /// The earlier run's directory.
    old: PathBuf,
    /// The later run's directory.
    new: PathBuf,
    /// Also write every move (and every config found in one run only) to
    /// this CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The scenario file (TOML), e.g. scenarios/gateway-raises.toml.
    scenario: PathBuf,
    /// Directory for the outputs (created if missing).
    #[arg(long, short)]
    out: PathBuf,
    /// auto: exact where a solver exists, else Monte Carlo; exact; mc; both:
    /// run both and exit 1 if any metric disagrees by more than 5 standard
    /// errors.
    #[arg(long, value_enum, default_value_t = ModeArg::Auto)]
    mode: ModeArg,
    /// Monte Carlo trials per config [default: the scenario's `trials`,
    /// else 1000000]; with --precision, the first round's [default: the
    /// scenario's `trials`, else 65536].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// Seed for Monte Carlo [default: the scenario's `seed`, else 1]. The
    /// same seed gives the same numbers on any machine and thread count.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads [default: every core].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Precision mode: simulate each config in rounds, from --trials
    /// doubling, until the 95% interval of its headline metric has at most
    /// this half-width (e.g. 0.001), up to --max-trials.
    #[arg(long)]
    precision: Option<f64>,
    /// Trial cap per config in precision mode, kept to the trial
    /// [default: 100000000]. Only with --precision.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_trials: Option<u64>,
    /// Run only shard I of N and write it as a partial run for `oddsmith
    /// merge` (e.g. 2/3; I counts from 1). The run's work, in order, is
    /// every config's Monte Carlo chunks (65,536 trials each), or whole
    /// configs with --mode exact and with --precision (where a config's
    /// chunk count depends on its own results); shard I takes the I-th of
    /// N equal slices. Chunks draw the streams a single run draws, so the
    /// merge is byte-identical to one run.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// No progress bar and no summary line.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ModeArg {
    Auto,
    Exact,
    Mc,
    Both,
}

impl From<Mode> for ModeArg {
    fn from(m: Mode) -> ModeArg {
        match m {
            Mode::Auto => ModeArg::Auto,
            Mode::Exact => ModeArg::Exact,
            Mode::MonteCarlo => ModeArg::Mc,
            Mode::Both => ModeArg::Both,
        }
    }
}

impl OddsArgs {
    /// The mode asked for: --mode, or both with --check.
    fn mode(&self) -> Mode {
        if self.check {
            Mode::Both
        } else {
            self.mode.into()
        }
    }
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Auto => Mode::Auto,
            ModeArg::Exact => Mode::Exact,
            ModeArg::Mc => Mode::MonteCarlo,
            ModeArg::Both => Mode::Both,
        }
    }
}

#[derive(Debug, clap::Args)]
struct OddsArgs {
    /// What to ask about: a dice expression ("4d6kh3", "3d8kh1+2 >= 2d8kh1+4";
    /// quote it), a mechanic ("cortex.basic") or a system ("gateway": its
    /// first mechanic).
    #[arg(allow_hyphen_values = true)]
    what: String,
    /// Parameters as key=value: a mechanic's keys (actor.pool="d8 d6 d6"),
    /// or the values of an expression's {name} parameters (n=4). A value
    /// A..B (inclusive), A..B:S (step S) or a,b,c asks for each, as a
    /// scenario's [sweep] would (at most two such keys: a table or a
    /// grid). Further dice expressions, each quoted, are answered side by
    /// side.
    params: Vec<String>,
    /// `odds gateway` only: the actor's roll, N d8 keep highest plus M,
    /// written NdK+M (e.g. 3d8+2; N 1..=9 and M -120..=120, as a
    /// scenario's keys allow).
    #[arg(long, allow_hyphen_values = true)]
    actor: Option<String>,
    /// `odds gateway` only: the opposition's roll, the same way (e.g. 2d8+4).
    #[arg(long, allow_hyphen_values = true)]
    vs: Option<String>,
    /// `odds gateway` only: raises taken, one number (2) or a range (0..3,
    /// inclusive), within 0..=10 [default: 0..3].
    #[arg(long)]
    raises: Option<String>,
    /// `odds gateway` only: free raises granted on success, 0..=100
    /// [default: 0].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100))]
    free_raises: Option<u32>,
    /// A second question to set beside the first: key=value changes for a
    /// mechanic (`--compare actor.aid=d8`), another expression for an
    /// expression (`--compare "2d8+1 >= 14"`). Prints both answers, the
    /// difference (percentage points) and ratio of each metric, and the
    /// main field's =/≥/≤ table of both.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE|EXPR")]
    compare: Option<Vec<String>>,
    /// text: tables for people (probabilities as percentages); json: the
    /// answer as one object (an array of them for several questions or
    /// --compare), raw numbers; csv: one row per metric and config.
    #[arg(long, value_enum, default_value_t = OddsFormat::Text)]
    format: OddsFormat,
    /// auto: exact where a solver covers the values, else Monte Carlo;
    /// exact: exact only (an error where no solver does); mc: Monte Carlo
    /// only; both: also run Monte Carlo and show its estimate and z-score
    /// beside the exact answer.
    #[arg(long, value_enum, default_value_t = ModeArg::Auto)]
    mode: ModeArg,
    /// The same as --mode both.
    #[arg(long, conflicts_with = "mode")]
    check: bool,
    /// Trials for --mode mc and both, and for answers with no exact solver.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    trials: u64,
    /// Seed for Monte Carlo.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// How `odds` prints its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OddsFormat {
    Text,
    Json,
    Csv,
}

/// What a successful command wants the exit code to say.
pub enum Outcome {
    /// Everything held.
    Fine,
    /// The command ran but a check failed (exit 1).
    CheckFailed,
}

impl Outcome {
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Outcome::Fine => ExitCode::SUCCESS,
            Outcome::CheckFailed => ExitCode::from(1),
        }
    }
}

/// The rayon pool for `--threads` (every core when unset), and its size.
fn worker_pool(threads: Option<u64>) -> anyhow::Result<(usize, rayon::ThreadPool)> {
    let threads = threads.map(|t| t as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start worker threads: {e}"))?;
    Ok((threads, pool))
}

/// Whether Ctrl-C stopped the command.
pub fn interrupted() -> bool {
    interrupt::requested()
}

/// The exit code after Ctrl-C.
pub const INTERRUPTED: u8 = interrupt::EXIT_CODE;

/// Run the command; an `Err` is bad input or output trouble (exit 2).
/// `serve` runs the workbench: it is handed in by `main`, because the
/// workbench builds on this module (its questions and errors are the
/// command line's) and this module must not import it back.
pub fn dispatch(
    cli: Cli,
    serve: impl FnOnce(ServeArgs) -> anyhow::Result<()>,
) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Run(args) => match args.shard {
            Some(which) => shard::run(args, which),
            None => run::run(args),
        },
        Command::Merge(args) => merge::merge(args),
        Command::Odds(args) => odds::odds(args),
        Command::Systems(args) => systems::systems(args.filter.as_deref()),
        Command::Check(args) => check::check(args),
        Command::Tune(args) => tune::tune(args),
        Command::Best(args) => best::best(args),
        Command::Report(args) => report::report(args),
        Command::Diff(args) => diff::diff(args),
        Command::Completions(args) => completions::completions(args.shell),
        Command::Man(args) => man::man(args.subcommand.as_deref()),
        Command::Serve(args) => serve(args).map(|()| Outcome::Fine),
    }
}

/// The questions `oddsmith odds WHAT PARAMS… [--compare …] [--check]
/// --trials N --seed S` asks, each with its label, or the CLI's message
/// for what is wrong: the workbench asks through here, so its questions
/// and its errors are the command line's.
pub fn odds_questions(
    what: &str,
    params: Vec<String>,
    mode: Mode,
    trials: u64,
    seed: u64,
) -> anyhow::Result<Vec<(String, oddsmith::answer::Question)>> {
    let args = OddsArgs {
        what: what.to_string(),
        params,
        actor: None,
        vs: None,
        raises: None,
        free_raises: None,
        compare: None,
        format: OddsFormat::Json,
        mode: mode.into(),
        check: false,
        trials,
        seed,
    };
    Ok(odds::questions(&args)?
        .into_iter()
        .map(|a| (a.label, a.question))
        .collect())
}

/// The CLI's message for a value the library refused.
pub fn odds_error(
    m: &dyn oddsmith::systems::Mechanic,
    e: oddsmith::answer::AskError,
) -> anyhow::Error {
    odds::ask_error(m, e)
}
