//! The policy editor's material: for each policy parameter, the forms its
//! value may take (each with a short doc), and worked examples that fill
//! the field. The examples are not made up here: each is copied from a
//! shipped scenario, the manual or the mechanic's own documentation, and
//! names where (a test checks that the text is there, and that the
//! mechanic accepts it). Entity tables that carry a policy (a
//! `gateway.ensemble` PC) get examples the same way.

use serde::Serialize;

/// One form a policy value may take.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct Form {
    /// The form as written (`[{ … }, …]`, `"never"`); empty: unset.
    pub form: &'static str,
    pub doc: &'static str,
}

/// A worked example that fills the field.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct Example {
    pub label: &'static str,
    /// The value, as the field takes it (a TOML value); empty: unset.
    pub value: &'static str,
    /// Where it comes from, relative to the repository's root.
    pub source: &'static str,
}

const NAMED: Form = Form {
    form: "{ name = \"…\", rules = [ … ] }",
    doc: "The same rules with a name: tables, charts and the compare view show the name instead of the rules.",
};

const GATEWAY_SCENE: &[Form] = &[
    Form {
        form: "[{ effect = …, raises = n, when = … }, …]",
        doc: "Rules tried in order: the first whose `when` holds and whose effect is allowed now is taken; if none is, Edge with no raises. effect: \"edge\", \"setup\", \"press\", \"accelerate\", \"block\", \"climax\", \"anticlimax\", or a list of them. raises: chosen raises (default 0). when: \"always\" (default), \"can-climax\", \"can-anticlimax\", \"holds-initiative\", \"has-free-raise\", \"no-free-raise\", or { edge_at_least | edge_at_most | ladder_at_most | round_at_least = n }.",
    },
    NAMED,
    Form {
        form: "",
        doc: "Unset: the rules' default, Climax when allowed, Anticlimax when allowed, else Edge.",
    },
];

const GATEWAY_SKIRMISH: &[Form] = &[
    Form {
        form: "[{ effect = …, raises = n, when = …, target = …, to = … }, …]",
        doc: "Rules tried in order, as gateway.scene's, with more effects (\"manoeuvre\", \"disengage\", \"eliminate\", \"restrict\"), target = \"all\" | \"key\" | \"minor\", and to = \"<ally>\" (a Set-up's free raise handed to that ally). A condition's edge is the entity's least edge over the opponents it has lines with.",
    },
    NAMED,
    Form {
        form: "",
        doc: "Unset: the default policy, Climax when allowed, Anticlimax when allowed, Eliminate when allowed, Manoeuvre while some opponent is not on a line, else Edge on every line.",
    },
];

const CORTEX_GIVE_IN: &[Form] = &[
    Form {
        form: "[{ give_in = \"complication\" | \"plot-point\", when = { … } }, …]",
        doc: "Checked in order before the actor rolls; every key of `when` must hold: stakes_at_least, out_of_reach_by_more_than (the stakes minus the best total the actor can make), complication_at_least (its own complication's size). The price: a d6 complication, stacked, or a plot point. Giving in before the first roll is free.",
    },
    NAMED,
    Form {
        form: "",
        doc: "Unset: the actor never gives in.",
    },
];

const CORTEX_BUY_TIME: &[Form] = &[
    Form {
        form: "[{ buy_time = true | false, when = { beats_at_most = n, steps_left_at_least = n } }, …]",
        doc: "Between two steps, the first rule that holds decides: with buy_time = true the first helper still able (see `helpers`) rolls against the next step's opposition to win back beats.",
    },
    NAMED,
    Form {
        form: "",
        doc: "Unset: nobody buys time.",
    },
];

const PARTING_SHOT: &[Form] = &[
    Form {
        form: "\"never\"",
        doc: "No parting shot (the default).",
    },
    Form {
        form: "\"always\"",
        doc: "A parting shot after every defeat of the other side.",
    },
    Form {
        form: "{ when_ahead_by = n }",
        doc: "A parting shot when the victor's lead in the tally, right after the defeat, is at least n (0..=1000).",
    },
    Form {
        form: "[{ shoot = true | false, when_ahead_by = n }, …]",
        doc: "Rules tried in order, in the shared policy form ({ name, rules } names them).",
    },
];

const ASSIST: &[Form] = &[
    Form {
        form: "\"never\"",
        doc: "Join an engaged opponent (the default).",
    },
    Form {
        form: "\"always\"",
        doc: "Assist the most pressed teammate.",
    },
    Form {
        form: "{ when_pressed = n }",
        doc: "Assist a teammate pressed by n or more: RP against it (scored), AP it lost (wagered), resolve it lost (chained).",
    },
    Form {
        form: "[{ assist = true | false, when_pressed = n, ap = n }, …]",
        doc: "Rules tried in order; ap is what a wagered assist transfers (default 3). n in 0..=400.",
    },
];

const STRATEGIES: &str = "scenarios/gateway-strategies.toml";
const HENCHMEN: &str = "scenarios/gateway-henchmen.toml";

const GATEWAY_SCENE_EXAMPLES: &[Example] = &[
    Example {
        label: "straight: Climax, Anticlimax, else Edge",
        value: "{ name = \"straight\", rules = [\n    { effect = \"climax\" },\n    { effect = \"anticlimax\" },\n    { effect = \"edge\" },\n] }",
        source: STRATEGIES,
    },
    Example {
        label: "set-up: a Set-up when it has no free raise",
        value: "{ name = \"set-up\", rules = [\n    { effect = \"climax\" },\n    { effect = \"anticlimax\" },\n    { effect = \"setup\", when = \"no-free-raise\" },\n    { effect = \"edge\" },\n] }",
        source: STRATEGIES,
    },
    Example {
        label: "rush: Edge with Accelerate once ahead",
        value: "{ name = \"rush\", rules = [\n    { effect = \"climax\" },\n    { effect = \"anticlimax\" },\n    { effect = [\"edge\", \"accelerate\"], when = { edge_at_least = 1 } },\n    { effect = \"edge\" },\n] }",
        source: STRATEGIES,
    },
    Example {
        label: "stall: Press when behind",
        value: "{ name = \"stall\", rules = [\n    { effect = \"climax\" },\n    { effect = \"anticlimax\" },\n    { effect = \"press\", when = { edge_at_most = -1 } },\n    { effect = \"edge\" },\n] }",
        source: STRATEGIES,
    },
    Example {
        label: "the manual's six rules (Block, Set-up, raises, Press)",
        value: "[\n  { effect = \"climax\", when = \"can-climax\" },\n  { effect = \"block\", when = \"holds-initiative\" },\n  { effect = \"setup\", when = \"no-free-raise\" },\n  { effect = [\"edge\", \"accelerate\"], raises = 1, when = { edge_at_least = 2 } },\n  { effect = \"press\", when = { edge_at_most = -1 } },\n  { effect = \"edge\" },\n]",
        source: "docs/src/gateway.md",
    },
];

const PC_POLICY_EXAMPLES: &[Example] = &[
    Example {
        label: "straight: Climax, Eliminate, Manoeuvre, else Edge",
        value: "{ name = \"straight\", rules = [\n    { effect = \"climax\" },\n    { effect = \"eliminate\" },\n    { effect = \"manoeuvre\" },\n    { effect = \"edge\" },\n] }",
        source: HENCHMEN,
    },
    Example {
        label: "feed tom: Set-ups handed to the PC tom",
        value: "{ name = \"feed tom\", rules = [\n    { effect = \"climax\" },\n    { effect = \"eliminate\" },\n    { effect = \"manoeuvre\" },\n    { effect = \"setup\", to = \"tom\" },\n    { effect = \"edge\" },\n] }",
        source: HENCHMEN,
    },
];

const SKIRMISH_PCS_EXAMPLES: &[Example] = &[Example {
    label: "tom, norris and angelique (full trait, background 2)",
    value: "[\n  { name = \"tom\", trait = \"full\", background = 2 },\n  { name = \"norris\", trait = \"full\", background = 2 },\n  { name = \"angelique\", trait = \"full\", background = 2 },\n]",
    source: HENCHMEN,
}];

const SKIRMISH_KEY_EXAMPLES: &[Example] = &[Example {
    label: "kroe: full trait, background 2, significance 6",
    value: "{ name = \"kroe\", trait = \"full\", background = 2, significance = 6 }",
    source: HENCHMEN,
}];

const GIVE_IN_EXAMPLES: &[Example] = &[Example {
    label: "a plot point when out of reach, a complication past stakes 14",
    value: "[\n  { give_in = \"plot-point\", when = { out_of_reach_by_more_than = 0 } },\n  { give_in = \"complication\", when = { stakes_at_least = 14, complication_at_least = 10 } },\n]",
    source: "docs/src/cortex.md",
}];

const BUY_TIME_EXAMPLES: &[Example] = &[Example {
    label: "buy time when down to two beats",
    value: "[{ buy_time = true, when = { beats_at_most = 2 } }]",
    source: "scenarios/cortex-buying-time.toml",
}];

const PARTING_EXAMPLES: &[Example] = &[
    Example {
        label: "always",
        value: "\"always\"",
        source: "src/systems/questworlds/parting.rs",
    },
    Example {
        label: "shoot when ahead by 3, else not",
        value: "[{ shoot = true, when_ahead_by = 3 }, { shoot = false }]",
        source: "docs/src/questworlds.md",
    },
];

const ASSIST_EXAMPLES: &[Example] = &[
    Example {
        label: "always assist",
        value: "\"always\"",
        source: "src/systems/questworlds/group_sequence/assist.rs",
    },
    Example {
        label: "assist a teammate pressed by 2+",
        value: "{ when_pressed = 2 }",
        source: "src/systems/questworlds/group_sequence/assist.rs",
    },
    Example {
        label: "assist when pressed by 3, transferring 5 AP; else join",
        value: "[{ assist = true, when_pressed = 3, ap = 5 }, { assist = false }]",
        source: "src/systems/questworlds/group_sequence/assist.rs",
    },
    Example {
        label: "assist when pressed by 2 (named)",
        value: "{ name = \"assist when pressed by 2\", rules = [{ assist = true, when_pressed = 2 }] }",
        source: "scenarios/questworlds-party.toml",
    },
];

const PC_WAGER: &[Form] = &[
    Form {
        form: "n",
        doc: "The same wager every round: AP 1..=400, at most the PC's starting AP.",
    },
    Form {
        form: "[{ wager = n, when = { … } }, …, { wager = n }]",
        doc: "A wager by the AP at the round's start: rules tried in order, the last without `when`. when: { pc_ap_at_least | pc_ap_at_most | opponent_ap_at_least | opponent_ap_at_most | lead_at_least | lead_at_most = n } (lead: the PC's AP minus the opposition's). The form best play writes.",
    },
    NAMED,
];

const PC_WAGER_EXAMPLES: &[Example] = &[Example {
    label: "all-in when 6 behind, 4 when low against a strong GM, else 1",
    value: "[\n  { wager = 15, when = { lead_at_most = -6 } },\n  { wager = 4, when = { pc_ap_at_most = 9, opponent_ap_at_least = 11 } },\n  { wager = 1 }\n]",
    source: "docs/src/questworlds.md",
}];

const ENSEMBLE_PCS_EXAMPLES: &[Example] = &[Example {
    label: "tom, norris (with a Set-up policy) and angelique",
    value: "[\n  { name = \"tom\", trait = 3, background = 1, start_edge = -2, essence = 2 },\n  { name = \"norris\", trait = 3, background = 3, start_edge = -2,\n    policy = [{ effect = \"climax\" }, { effect = \"setup\", when = \"no-free-raise\" }, { effect = \"edge\" }] },\n  { name = \"angelique\", trait = 3, background = 3, start_edge = -2, passengers = 1 },\n]",
    source: "docs/src/gateway.md",
}];

const ENSEMBLE_KEY_EXAMPLES: &[Example] = &[Example {
    label: "trait 3, background 4, Climax else Edge with a raise",
    value: "{ trait = 3, background = 4, essence = 1, policy = [\n  { effect = \"climax\" }, { effect = \"edge\", raises = 1 } ] }",
    source: "docs/src/gateway.md",
}];

const WRENCH: &[Form] = &[
    Form {
        form: "\"greedy\" | \"deny\" | \"none\"",
        doc: "A named wrench: greedy spends venture where it changes the outcome, cheapest first; deny greedy, then the rest on any legal use; none never.",
    },
    Form {
        form: "[{ use = \"…\", when = { … } }, …, { use = \"hold\" }]",
        doc: "Rules read one use at a time: the first whose `when` holds and whose use is open is spent, then the rules are read again; hold, or no rule that applies, ends the wrench. use: \"hold\", \"close\", \"gotta\", \"good\", \"serious\", \"not-as-bad\". when: { failures_at_least | failures_at_most | risk_short_at_least | risk_short_at_most | venture_at_least | venture_at_most | dice_at_least | dice_at_most = n } (risk_short: what the risk total still lacks; dice: difficulty dice on the table); failures | risk_short | venture | dice = n for exactly n; spent = [\"gotta\", …] (every use named spent this roll) | unspent = [ … ] (none of them yet), uses \"close\", \"gotta\", \"good\", \"serious\", \"not-as-bad\". Every key must hold. The form best play writes.",
    },
    NAMED,
];

const WRENCH_EXAMPLES: &[Example] = &[
    Example {
        label: "greedy",
        value: "\"greedy\"",
        source: "scenarios/cgg-difficulty.toml",
    },
    Example {
        label: "gotta on the last venture, serious when clear or once gotta is spent, close for the risk",
        value: "[\n  { use = \"gotta\", when = { failures_at_least = 1, venture_at_most = 1 } },\n  { use = \"serious\", when = { failures = 0, risk_short_at_least = 6 } },\n  { use = \"serious\", when = { failures = 1, spent = [\"gotta\"] } },\n  { use = \"close\", when = { risk_short_at_least = 1 } },\n  { use = \"hold\" },\n]",
        source: "docs/src/cgg.md",
    },
];

/// The forms of a policy parameter (none: not a policy).
pub fn forms(mechanic: &str, key: &str) -> &'static [Form] {
    match (mechanic, key) {
        ("gateway.scene", "a.policy" | "b.policy") => GATEWAY_SCENE,
        ("gateway.skirmish", "pc_policy" | "henchmen.policy") => GATEWAY_SKIRMISH,
        ("cortex.fight", "policy.give_in") => CORTEX_GIVE_IN,
        ("cortex.timed", "policy.buy_time") => CORTEX_BUY_TIME,
        (
            "questworlds.scored" | "questworlds.wagered" | "questworlds.chained",
            "pc.parting_shot" | "opponent.parting_shot",
        ) => PARTING_SHOT,
        ("questworlds.group_sequence", "assist") => ASSIST,
        ("questworlds.wagered", "pc.wager") => PC_WAGER,
        ("cgg.action" | "cgg.tension" | "cgg.session", "policy.wrench") => WRENCH,
        _ => &[],
    }
}

/// The worked examples of a parameter (none for most).
pub fn examples(mechanic: &str, key: &str) -> &'static [Example] {
    match (mechanic, key) {
        ("gateway.scene", "a.policy" | "b.policy") => GATEWAY_SCENE_EXAMPLES,
        ("gateway.skirmish", "pc_policy") => PC_POLICY_EXAMPLES,
        // A Set-up handed to a PC is no henchman's to give.
        ("gateway.skirmish", "henchmen.policy") => &PC_POLICY_EXAMPLES[..1],
        ("gateway.skirmish", "pcs") => SKIRMISH_PCS_EXAMPLES,
        ("gateway.skirmish", "key") => SKIRMISH_KEY_EXAMPLES,
        ("gateway.ensemble", "pcs") => ENSEMBLE_PCS_EXAMPLES,
        ("gateway.ensemble", "key") => ENSEMBLE_KEY_EXAMPLES,
        ("cortex.fight", "policy.give_in") => GIVE_IN_EXAMPLES,
        ("cortex.timed", "policy.buy_time") => BUY_TIME_EXAMPLES,
        (
            "questworlds.scored" | "questworlds.wagered" | "questworlds.chained",
            "pc.parting_shot" | "opponent.parting_shot",
        ) => PARTING_EXAMPLES,
        ("questworlds.group_sequence", "assist") => ASSIST_EXAMPLES,
        ("questworlds.wagered", "pc.wager") => PC_WAGER_EXAMPLES,
        ("cgg.action" | "cgg.tension" | "cgg.session", "policy.wrench") => WRENCH_EXAMPLES,
        _ => &[],
    }
}
