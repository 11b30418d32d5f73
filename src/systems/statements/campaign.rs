//! `statements.campaign`: one scene played several times in a row
//! (RULES.md §5.3, "across scenes"), by Monte Carlo. Luck carries over from
//! scene to scene (spent on true statements, earned by drives, at most 10);
//! bids follow a policy; after every scene each player takes the
//! experience test (§5.4) with that scene's failures against its traits.
//!
//! Every roll is drawn with one word from an alias table of its exact law,
//! built once: a statement's successes at each bid it can carry, the
//! experience test's at each number of failures a scene can give.

use super::experience::test_roll;
use super::roll::{MAX_ROLLS, Roll, Rolls};
use super::scene::{self, MAX_PLAYERS, MAX_STATEMENTS, Played, Table};
use crate::dice::DiceRng;
use crate::sim::Tally;
use crate::sim::alias::Alias;
use crate::systems::{
    Args, Choice, Define, FieldSpec, Lit, MetricSpec, ParamError, ParamKind, ParamSpec, Schema,
    Trial,
};

/// Most scenes in one campaign.
pub const MAX_SCENES: i64 = 20;
/// The most luck one statement can be bid.
const MAX_BID: i64 = 5;
/// Bids a statement can carry, 0..=`MAX_BID`.
const BIDS: usize = MAX_BID as usize + 1;

crate::choice! {
    /// How players bid luck in each scene.
    pub enum Bids {
        /// No luck is ever bid.
        None = "none",
        /// The bids the statements give, each lowered to the luck the
        /// player still has unbid when the scene starts (in statement order).
        Fixed = "fixed",
        /// All the player's luck (at most 5) on its first statement.
        AllIn = "all-in",
    }
}

static PARAMS: [ParamSpec; 8] = [
    scene::SCENE_PARAMS[0],
    scene::SCENE_PARAMS[1],
    scene::SCENE_PARAMS[2],
    scene::SCENE_PARAMS[3],
    scene::SCENE_PARAMS[4],
    ParamSpec {
        path: "scenes",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_SCENES,
        },
        default: Lit::Int(5),
        doc: "Scenes in a row, each the scene `players` describes, luck carried over.",
    },
    ParamSpec {
        path: "bids",
        kind: ParamKind::Choice(Bids::NAMES),
        default: Lit::Str("fixed"),
        doc: "\"none\": no luck bid; \"fixed\": each statement's `luck`, lowered to the luck the player has left when the scene starts; \"all-in\": the player's whole luck (at most 5) on its first statement.",
    },
    ParamSpec {
        path: "experience.traits",
        kind: ParamKind::Int { min: 0, max: 1000 },
        default: Lit::Int(10),
        doc: "Each player's traits and resources, against which the scene's failures roll the experience test after every scene (RULES.md §5.4).",
    },
];

/// A checked campaign: the scene, its length, the bid policy, the
/// experience test.
pub struct Series {
    table: Table,
    scenes: usize,
    bids: Bids,
    /// Per statement: favouring without the bid, opposing, and whether the
    /// bid counts in the weight (as `variant.weight_luck` says).
    base: Vec<(u64, u64)>,
    weight_luck: bool,
    /// `laws[i * BIDS + bid]`: the successes of statement `i` under `bid`.
    laws: Vec<Alias>,
    /// `tests[f]`: the experience test's successes after `f` failures.
    tests: Vec<Alias>,
    /// No statement is ever bid on (the scene bids nothing, and the
    /// policy is not `all-in`): the scene's bids stay at 0.
    no_bids: bool,
}

impl Series {
    /// Set the bids of `table` for players holding `luck` (a statement's
    /// roll is then drawn from its law under that bid, not from the
    /// table's own).
    fn bid(&self, table: &mut Table, luck: &[i64]) {
        if self.no_bids {
            return;
        }
        let mut left = [0; MAX_PLAYERS];
        left[..luck.len()].copy_from_slice(luck);
        let given = self.table.entries.iter().map(|e| e.bid);
        for ((e, &(favour, _)), given) in table.entries.iter_mut().zip(&self.base).zip(given) {
            let wanted = match self.bids {
                Bids::None => 0,
                Bids::Fixed => given,
                Bids::AllIn if e.tier == 0 => MAX_BID,
                Bids::AllIn => 0,
            };
            let bid = wanted.min(left[e.player]).max(0);
            left[e.player] -= bid;
            e.bid = bid;
            e.weight_per_success = favour + if self.weight_luck { bid as u64 } else { 0 };
        }
    }

    /// One campaign into `out`: per player, luck after each scene, then
    /// failures, improvements (1+ experience success) and attribute gains
    /// (3 successes).
    fn play(&self, rng: &mut DiceRng, table: &mut Table, t: &mut Played, out: &mut Vec<i64>) {
        let players = self.table.names.len();
        // The luck each player carries into the next scene.
        let mut luck = [0; MAX_PLAYERS];
        luck[..players].copy_from_slice(&self.table.start_luck);
        let luck = &mut luck[..players];
        let mut per_player = [(0i64, 0i64, 0i64); MAX_PLAYERS];
        out.clear();
        out.resize(players * (self.scenes + 3), 0);
        for k in 0..self.scenes {
            self.bid(table, luck);
            let at = |i: usize| i * BIDS + table.entries[i].bid as usize;
            table.play_with(rng, t, luck, |i, rng| self.laws[at(i)].draw(rng));
            for p in 0..players {
                luck[p] = t.luck[p];
                out[p * (self.scenes + 3) + k] = luck[p];
                let failures = t.failures[p];
                let test = self.tests[failures as usize].draw(rng);
                let acc = &mut per_player[p];
                acc.0 += failures;
                acc.1 += i64::from(test >= 1);
                acc.2 += i64::from(test == MAX_ROLLS);
            }
        }
        for (p, &(failures, improve, attribute)) in per_player[..players].iter().enumerate() {
            let at = p * (self.scenes + 3) + self.scenes;
            out[at] = failures;
            out[at + 1] = improve;
            out[at + 2] = attribute;
        }
    }

    /// Fields and metrics named for the players and scenes.
    fn named_schema(&self) -> Schema {
        let mut fields = Vec::new();
        let mut metrics = Vec::new();
        for name in &self.table.names {
            for k in 1..=self.scenes {
                metrics.push(MetricSpec::mean(
                    format!("mean_luck.{name}.{k}"),
                    fields.len(),
                    "Mean luck of the player after this scene.",
                ));
                fields.push(FieldSpec::int(
                    format!("{name}.luck.{k}"),
                    "The player's luck after this scene (at most 10).",
                ));
            }
            metrics.push(MetricSpec::mean(
                format!("mean_failures.{name}"),
                fields.len(),
                "Mean failures of the player over the campaign.",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.failures"),
                "The player's failures over all scenes.",
            ));
            metrics.push(MetricSpec::mean(
                format!("mean_experience.{name}"),
                fields.len(),
                "Expected experience: mean number of scenes whose experience test gave +1 to a trait or resource.",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.experience"),
                "Experience tests with at least one success (+1 trait or resource each).",
            ));
            fields.push(FieldSpec::int(
                format!("{name}.attribute"),
                "Experience tests with three successes (+1 attribute each).",
            ));
        }
        Schema { fields, metrics }
    }
}

impl Trial for Series {
    fn simulate(&self, rng: &mut DiceRng, trials: u64, tally: &mut Tally) {
        let mut table = self.table.clone();
        let mut played = Played::default();
        let mut out = Vec::new();
        for _ in 0..trials {
            self.play(rng, &mut table, &mut played, &mut out);
            tally.record_outcome(&out);
        }
    }
}

/// The mechanic `statements.campaign`.
pub struct Campaign;

impl Define for Campaign {
    type Trial = Series;
    const NAME: &'static str = "statements.campaign";
    const SUMMARY: &'static str = "A campaign: one scene played n times in a row, luck carried over, bids by policy, an experience test after each scene.";
    const EXACT: bool = false;

    fn params(&self) -> &'static [ParamSpec] {
        &PARAMS
    }

    fn schema(&self) -> Schema {
        let field = |name: &str, doc| FieldSpec::int(name, doc);
        Schema {
            fields: vec![
                field(
                    "<player>.luck.<k>",
                    "The player's luck after scene k (1..=scenes).",
                ),
                field(
                    "<player>.failures",
                    "The player's failures over all scenes.",
                ),
                field(
                    "<player>.experience",
                    "Experience tests with at least one success.",
                ),
                field(
                    "<player>.attribute",
                    "Experience tests with three successes.",
                ),
            ],
            metrics: vec![
                MetricSpec::mean(
                    "mean_luck.<player>.<k>",
                    0,
                    "Mean luck of each player after each scene.",
                ),
                MetricSpec::mean(
                    "mean_failures.<player>",
                    1,
                    "Mean failures of each player over the campaign.",
                ),
                MetricSpec::mean(
                    "mean_experience.<player>",
                    2,
                    "Expected experience of each player (improvements).",
                ),
            ],
        }
    }

    fn schema_of(&self, series: &Series) -> Schema {
        series.named_schema()
    }

    fn build(&self, args: &Args) -> Result<Series, ParamError> {
        let table = scene::Scene.build(args)?;
        let weight_luck = args.bool("variant.weight_luck")?;
        let base: Vec<(u64, u64)> = table
            .entries
            .iter()
            .map(|e| {
                let favour = e.roll.favour - e.bid as u64;
                (favour, e.roll.sides - e.roll.favour)
            })
            .collect();
        let laws = base
            .iter()
            .flat_map(|&(favour, opposing)| {
                (0..BIDS as u64).map(move |bid| Roll::new(favour + bid, opposing).law(table.rolls))
            })
            .collect();
        let traits = args.int("experience.traits")? as u64;
        // A player's failures in a scene: at most 3 a statement.
        let most = MAX_ROLLS as u64 * MAX_STATEMENTS as u64;
        let tests = (0..=most)
            .map(|failures| test_roll(failures, traits).law(Rolls::Three))
            .collect();
        let bids: Bids = args.choice_of("bids")?;
        let no_bids = bids != Bids::AllIn && table.entries.iter().all(|e| e.bid == 0);
        Ok(Series {
            table,
            scenes: args.int("scenes")? as usize,
            bids,
            base,
            weight_luck,
            laws,
            tests,
            no_bids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{Mechanic, ParamMap, ParamValue};
    use ParamValue::*;

    fn tbl(pairs: &[(&str, ParamValue)]) -> ParamValue {
        Table(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    /// A one-player campaign of one statement; every outcome of trial 1.
    fn run(statement: ParamValue, luck: i64, rest: &[(&str, ParamValue)]) -> Vec<i64> {
        let mut m = ParamMap::new();
        m.set(
            "players",
            List(vec![tbl(&[
                ("name", Str("ann".into())),
                ("luck", Int(luck)),
                ("statements", List(vec![statement])),
            ])]),
        );
        for (k, v) in rest {
            m.set(*k, v.clone());
        }
        let series = Campaign.trial(&m).unwrap();
        let (mut table, mut played, mut out) =
            (series.table.clone(), Played::default(), Vec::new());
        series.play(&mut DiceRng::from_u64(1), &mut table, &mut played, &mut out);
        assert_eq!(out.len(), Campaign.schema_of(&series).fields.len());
        out
    }

    #[test]
    fn drives_earn_luck_up_to_ten_and_failures_feed_experience() {
        // Favouring 0: three failures a scene, each earning luck (a drive):
        // 3, 6, 9, then the cap. Three failures against traits 0 always
        // give three experience successes.
        let hopeless = tbl(&[
            ("favouring", Int(0)),
            ("opposing", Int(1)),
            ("drive", Bool(true)),
        ]);
        let out = run(
            hopeless,
            0,
            &[("experience.traits", Int(0)), ("bids", Str("none".into()))],
        );
        assert_eq!(out, [3, 6, 9, 10, 10, 15, 5, 5]);
    }

    #[test]
    fn bids_are_spent_when_true_and_follow_the_policy() {
        // Favouring 1 against 0: always three successes, always true.
        let sure = |bid| tbl(&[("favouring", Int(1)), ("luck", Int(bid))]);
        // Fixed bids of 2 from 5 luck: 3, 1, then the 1 left, then none.
        let fixed = run(sure(2), 5, &[("scenes", Int(4))]);
        assert_eq!(fixed, [3, 1, 0, 0, 0, 0, 0]);
        // All in: everything on the first statement at once.
        let all_in = run(
            sure(0),
            5,
            &[("scenes", Int(2)), ("bids", Str("all-in".into()))],
        );
        assert_eq!(all_in, [0, 0, 0, 0, 0]);
        // No bids: the luck stays.
        let none = run(
            sure(2),
            5,
            &[("scenes", Int(2)), ("bids", Str("none".into()))],
        );
        assert_eq!(none, [5, 5, 0, 0, 0]);
    }

    /// `a` and `b` laws over 0, 1, …: the law of their sum.
    fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut c = vec![0.0; a.len() + b.len() - 1];
        for (i, &p) in a.iter().enumerate() {
            for (j, &q) in b.iter().enumerate() {
                c[i + j] += p * q;
            }
        }
        c
    }

    /// The registry's example campaign (five scenes of two players with
    /// two statements each, no luck, traits 10): scenes are independent,
    /// so a player's failures are five scenes' failures convolved, and its
    /// experience and attribute counts binomial over the scenes, each
    /// scene's chance summed over its failures. A million trials (every
    /// roll drawn from an alias table) agree with it.
    #[test]
    fn the_example_campaign_agrees_with_independent_scenes() {
        use crate::dist::Marginals;
        use crate::systems::testing::{Sample, assert_agrees_with, example};
        let model = Campaign.prepare(&example(&Campaign)).unwrap();
        let mut exact = Marginals::new(16);
        for (p, favouring) in [(0, 3), (1, 5)] {
            let law = |f: u64| Roll::new(f, 4).success_probabilities(Rolls::Three);
            // Failures of one scene: 3 − successes of each statement.
            let fails = |l: [f64; 4]| [l[3], l[2], l[1], l[0]];
            let scene = convolve(&fails(law(favouring)), &fails(law(favouring + 1)));
            let (mut improve, mut attribute) = (0.0, 0.0);
            for (f, &q) in scene.iter().enumerate() {
                let test = test_roll(f as u64, 10).success_probabilities(Rolls::Three);
                improve += q * (1.0 - test[0]);
                attribute += q * test[3];
            }
            let (mut failures, mut exp, mut attr) = (vec![1.0], vec![1.0], vec![1.0]);
            for _ in 0..5 {
                failures = convolve(&failures, &scene);
                exp = convolve(&exp, &[1.0 - improve, improve]);
                attr = convolve(&attr, &[1.0 - attribute, attribute]);
            }
            let at = 8 * p;
            for k in 0..5 {
                exact.add(at + k, 0, 1.0);
            }
            for (field, law) in [(5, &failures), (6, &exp), (7, &attr)] {
                for (v, &q) in law.iter().enumerate() {
                    exact.add(at + field, v as i64, q);
                }
            }
        }
        let z = assert_agrees_with(model.as_ref(), &exact, Sample::seed(18), "example campaign");
        eprintln!("example campaign: worst |z| {z:.2}");
    }

    #[test]
    fn fields_and_metrics_are_named_per_player_and_scene() {
        let mut m = ParamMap::new();
        let st = tbl(&[("favouring", Int(3)), ("opposing", Int(3))]);
        m.set(
            "players",
            List(vec![
                tbl(&[
                    ("name", Str("ann".into())),
                    ("statements", List(vec![st.clone()])),
                ]),
                tbl(&[("name", Str("bob".into())), ("statements", List(vec![st]))]),
            ]),
        );
        m.set("scenes", Int(2));
        let model = Campaign.prepare(&m).unwrap();
        let names: Vec<&str> = model
            .schema()
            .metrics
            .iter()
            .map(|x| x.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "mean_luck.ann.1",
                "mean_luck.ann.2",
                "mean_failures.ann",
                "mean_experience.ann",
                "mean_luck.bob.1",
                "mean_luck.bob.2",
                "mean_failures.bob",
                "mean_experience.bob"
            ]
        );
        m.set("scenes", Int(21));
        assert_eq!(Campaign.prepare(&m).err().unwrap().key, "scenes");
    }
}
