//! Value stability: the Monte Carlo tallies of every mechanic's default
//! configuration at a fixed seed, pinned. A sampler that reads the random
//! stream differently (a new table, a different draw order) changes these
//! even when it stays within its standard errors, so such a change is seen
//! here first, and must be owned: regenerate `reports/`, say in the
//! README's "Changes" which shipped numbers moved, and re-pin (run with
//! `ODDSMITH_PRINT_PINS=1 cargo test --release --test stability -- --nocapture`).
//! Optimisations that keep the stream (the joint-key tally, the packed
//! Gateway tables, the QuestWorlds outcome table) must leave them alone.

use oddsmith::sim::{self, CHUNK, Plan, Tally};
use oddsmith::systems::{ParamMap, ParamValue, find, registry};

/// Three whole chunks and a short one, so chunk seeding and a partial
/// chunk are both covered.
const TRIALS: u64 = 3 * CHUNK + 1001;

/// FNV-1a over every (field, value, count) of a tally: one number that
/// moves when any count does.
fn fingerprint(t: &Tally) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u64| {
        for b in x.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(t.trials());
    for f in 0..t.len() {
        for (v, c) in t.field(f).iter() {
            eat(f as u64);
            eat(v as u64);
            eat(c);
        }
    }
    h
}

/// Configurations beyond the defaults that take other sampling paths:
/// Gateway pools too big for the combined table and small enough for ten
/// contests a word; QuestWorlds masteries, story points, PC against PC; a
/// CGG tension scene with a helper and a turn policy (played turn by
/// turn, not by chains).
fn extras() -> Vec<(&'static str, ParamMap)> {
    use ParamValue::{Bool, Int, List, Str, Table};
    let map = |pairs: &[(&str, ParamValue)]| ParamMap::from_pairs(pairs);
    vec![
        (
            "gateway.challenge",
            map(&[("actor.trait", Int(4)), ("opposition.variability", Int(4))]),
        ),
        (
            "gateway.challenge",
            map(&[
                ("actor.trait", Int(1)),
                ("opposition.variability", Int(1)),
                ("raises", Int(1)),
            ]),
        ),
        (
            "questworlds.contest",
            map(&[
                ("pc.rating", Str("5M".into())),
                ("pc.story_points", Int(2)),
                ("resistance.rating", Str("25".into())),
            ]),
        ),
        (
            "questworlds.contest",
            map(&[("opponent.rating", Str("12".into()))]),
        ),
        (
            "cgg.tension",
            map(&[(
                "explorers",
                List(vec![
                    Str("3d".into()),
                    Table(
                        [
                            ("code".to_string(), Str("3d".into())),
                            ("helps".to_string(), Bool(true)),
                            (
                                "policy".to_string(),
                                List(vec![Table(
                                    [
                                        ("choose".to_string(), Str("idle".into())),
                                        (
                                            "when".to_string(),
                                            Table(
                                                [("hours_at_most".to_string(), Int(6))]
                                                    .into_iter()
                                                    .collect(),
                                            ),
                                        ),
                                    ]
                                    .into_iter()
                                    .collect(),
                                )]),
                            ),
                        ]
                        .into_iter()
                        .collect(),
                    ),
                ]),
            )]),
        ),
    ]
}

/// `(mechanic, fingerprint, count of field 0's first value)` at seed 2026:
/// every mechanic whose defaults build, then [`extras`].
const PINS: &[(&str, u64, u64)] = &[
    ("gateway.challenge", 0x7217937d1b2751c3, 60920),
    ("gateway.scene", 0xaa3d7f2b8bdff124, 117258),
    ("cortex.basic", 0xf39030da92af3cce, 58069),
    ("cortex.contested", 0x985bc9ef71bc2ee4, 23104),
    ("cortex.fight", 0x322d3ef32c3d2af5, 169103),
    ("cortex.timed", 0x3bacf34b403a124e, 49640),
    ("cgg.risk", 0x5b1a464f0ec06ec5, 146647),
    ("cgg.action", 0x814707a91809686f, 118706),
    ("cgg.fallout", 0x86e4f93ae37ed56f, 97291),
    ("cgg.diligence", 0x31ecc02b0c22c878, 918),
    ("cgg.tension", 0x900dbae33175bfbb, 196300),
    ("cgg.session", 0x4645a183d7a94b8c, 196192),
    ("questworlds.contest", 0x009e516c0bc8781b, 136431),
    ("questworlds.scored", 0x6c936786b1ad2491, 168568),
    ("questworlds.wagered", 0x81d51f2b67296e78, 188278),
    ("questworlds.chained", 0xc7a56ea1cc02e600, 183782),
    ("questworlds.group_sequence", 0x14ee2212a8a19533, 168568),
    ("questworlds.group", 0xcb6bc04993019785, 116023),
    ("questworlds.prize", 0x863bc602ba7627cf, 9924),
    ("statements.statement", 0x36534bf4abb1f4e1, 35288),
    ("statements.experience", 0xa2a3ad86a3759373, 90165),
    ("dice.roll", 0x9f2cdbfbdf2bf72d, 176),
    ("gateway.challenge", 0xa432759a3404d745, 71286),
    ("gateway.challenge", 0x80edd83c74084fe2, 133181),
    ("questworlds.contest", 0x9c84fbb3155f3bc7, 187755),
    ("questworlds.contest", 0x4297e109a121131c, 121262),
    ("cgg.tension", 0xeda8f02b6481c7e4, 194117),
];

#[test]
fn default_tallies_at_a_fixed_seed_are_pinned() {
    let plan = Plan {
        seed: 2026,
        trials: TRIALS,
        precision: None,
    };
    let defaults = registry().iter().map(|m| (m.name(), ParamMap::new()));
    let mut got = Vec::new();
    for (name, values) in defaults.chain(extras()) {
        // A mechanic with no defaults that pass (a scene with no
        // players) is pinned by its extras only.
        let m = find(name).unwrap();
        if m.check(&values).is_err() {
            continue;
        }
        let model = m.prepare(&values).expect("a build of checked values");
        let t = &sim::simulate(&[(0, model.as_ref())], &plan, &())[0];
        let first = t.field(0).iter().next().map_or(0, |(_, c)| c);
        got.push((name, fingerprint(t), first));
    }
    if std::env::var_os("ODDSMITH_PRINT_PINS").is_some() {
        for (name, f, c) in &got {
            println!("    ({name:?}, {f:#018x}, {c}),");
        }
    }
    let pinned: Vec<_> = PINS.iter().map(|&(n, f, c)| (n, f, c)).collect();
    assert_eq!(got, pinned, "a sampler now reads the stream differently");
}
