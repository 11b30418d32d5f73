//! `shard.json`, the partial run a shard writes: which run it is part of
//! (scenario and its SHA-256, seed, trials, mode, shard count), which
//! shard, and per piece of work the exact answer and/or the integer tally.
//!
//! Its header records SHA-256 digests of its canonical payload (see
//! [`Digests`]), so a file changed or damaged on its way from the machine
//! that ran the shard to the one that merges is refused, whatever the
//! change: a count moved from one value to another keeps every total, and
//! only a digest tells.
//!
//! Floats that feed the results (probabilities, the precision target) are
//! stored as decimal strings that read back to the same bits, so a merged
//! run is byte-identical to a single one whatever JSON reader is used.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use super::Shard;
use crate::model::{Joint, Marginals, Outcomes, Weight};
use crate::report::OutputError;
pub use crate::report::hex;
use crate::run::Mode;
use crate::sim::Tally;
use crate::systems::Schema;

/// The file a shard writes beside `scenario.toml`.
pub const FILE: &str = "shard.json";
/// The `format` of the files this version writes and reads.
/// (`oddsmith-shard-1` files, which have no digests, are refused as
/// another format.)
pub(super) const FORMAT: &str = "oddsmith-shard-2";

/// An `f64` stored as the shortest decimal that reads back to its bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bits(pub f64);

impl From<Bits> for f64 {
    fn from(Bits(p): Bits) -> f64 {
        p
    }
}

impl Serialize for Bits {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:e}", self.0))
    }
}

impl<'de> Deserialize<'de> for Bits {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bits, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<f64>()
            .map(Bits)
            .map_err(|_| serde::de::Error::custom(format!("`{s}` is not a number")))
    }
}

/// The scenario a run ran.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRef {
    pub name: String,
    /// The path it was run from, as given (reports name the file).
    pub path: String,
    /// SHA-256 of its bytes, hex.
    pub sha256: String,
}

/// What every shard of one run shares; shards merge only when these are
/// equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub oddsmith_version: String,
    pub scenario: ScenarioRef,
    pub mechanic: String,
    /// Configs of the whole run.
    pub configs: usize,
    pub mode: Mode,
    pub seed: u64,
    /// Trials per config (in precision mode, the first round's).
    pub trials: u64,
    pub precision: Option<Bits>,
    /// The trial cap per config (precision mode only).
    pub max_trials: Option<u64>,
    /// N, the number of shards the run was cut into.
    pub shards: usize,
}

/// Facts about how the shard ran, for the merged run's manifest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timings {
    pub threads: usize,
    pub wall_seconds: f64,
    pub exact_seconds: f64,
    pub monte_carlo_seconds: f64,
}

/// A tally as stored: trials, and per field `(value, count)` in
/// increasing value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredTally {
    pub trials: u64,
    pub fields: Vec<Vec<(i64, u64)>>,
    /// Whole outcomes and their counts, for a mechanic with a metric over
    /// two fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joint: Option<Vec<(Vec<i64>, u64)>>,
}

impl StoredTally {
    pub fn of(t: &Tally) -> StoredTally {
        StoredTally {
            trials: t.trials(),
            fields: columns(t, |n| n),
            joint: whole(t, |n| n),
        }
    }
}

/// Per field `(value, stored weight)` in increasing value: a tally's
/// counts as they are, an answer's probabilities as [`Bits`].
fn columns<W: Weight, S>(t: &Outcomes<W>, store: impl Fn(W) -> S) -> Vec<Vec<(i64, S)>> {
    (0..t.len())
        .map(|f| t.weights(f).map(|(v, w)| (v, store(w))).collect())
        .collect()
}

/// The whole outcomes and their stored weights, when `t` knows them.
fn whole<W: Weight, S>(t: &Outcomes<W>, store: impl Fn(W) -> S) -> Option<Vec<(Vec<i64>, S)>> {
    t.joint()
        .map(|j| j.iter().map(|(o, &w)| (o.to_vec(), store(w))).collect())
}

/// Whole outcomes read back: [`whole`]'s inverse.
pub(super) fn joint_of<W: Weight, S>(stored: &[(Vec<i64>, S)], load: impl Fn(&S) -> W) -> Joint<W> {
    stored
        .iter()
        .map(|(o, w)| (o.clone().into_boxed_slice(), load(w)))
        .collect()
}

/// What a shard found for one piece of its work.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    pub config: usize,
    /// Chunks `[start, end)`; absent when the config is not cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<[u64; 2]>,
    /// Per field `(value, probability)`: only in the piece holding the
    /// config's chunk 0, when it has an exact answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Vec<Vec<(i64, Bits)>>>,
    /// The exact answer's whole outcomes, when the solver gave them and a
    /// metric reads two fields at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_joint: Option<Vec<(Vec<i64>, Bits)>>,
    /// The Monte Carlo tally of these chunks (of the whole config in
    /// precision mode). A piece with neither was answered exactly by the
    /// shard holding the config's chunk 0 (`--mode auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<StoredTally>,
}

impl Piece {
    pub fn exact_of(m: &Marginals) -> Vec<Vec<(i64, Bits)>> {
        columns(m, Bits)
    }

    /// `m`'s whole outcomes, kept when `schema` has a metric that reads
    /// them.
    pub fn exact_joint_of(m: &Marginals, schema: &Schema) -> Option<Vec<(Vec<i64>, Bits)>> {
        if !schema.needs_joint() {
            return None;
        }
        whole(m, Bits)
    }
}

/// SHA-256 digests (hex) of a shard's canonical payload: the values
/// read back from the file, serialized again as oddsmith writes them, so
/// a change that does not change a value (a float spelled `1.0e-1` for
/// `1e-1`) is no change, and every other is. Unkeyed: they catch
/// corruption and careless edits, not a forger who recomputes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Digests {
    /// Of `shard` and `run`: which shard of which run.
    pub run: String,
    /// Of `pieces`: each piece's config and chunk range, exact weights and
    /// tally.
    pub pieces: String,
}

/// One shard's partial run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// `oddsmith-shard-2`.
    pub format: String,
    /// I, this shard's index (from 1).
    pub shard: usize,
    pub run: Header,
    /// The digests of `shard`, `run` and `pieces`. `timings` are not
    /// covered: they feed only the merged manifest's seconds and thread
    /// count, never a result.
    pub sha256: Digests,
    pub timings: Timings,
    pub pieces: Vec<Piece>,
}

/// A writer that only hashes what is written to it.
struct Hashing(Sha256);

impl std::io::Write for Hashing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The SHA-256 (hex) of `value` as oddsmith serializes it, after `tag`
/// (so the two digests of one file never hash the same bytes).
fn digest_of(tag: &str, value: &impl Serialize) -> String {
    let mut h = Hashing(Sha256::new());
    h.0.update(FORMAT.as_bytes());
    h.0.update(b" ");
    h.0.update(tag.as_bytes());
    h.0.update(b"\n");
    // Serializing plain data into a writer that cannot fail cannot fail.
    serde_json::to_writer(&mut h, value).expect("shard data serializes");
    hex(&h.0.finalize())
}

/// A digest of a shard that does not match its payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The key of `sha256` whose payload changed: `run` or `pieces`.
    pub field: &'static str,
    pub recorded: String,
    pub computed: String,
}

impl Part {
    /// Which shard this is.
    pub fn which(&self) -> Shard {
        Shard {
            index: self.shard,
            count: self.run.shards,
        }
    }

    /// The digests of this part's payload as it now is.
    pub fn digests(&self) -> Digests {
        Digests {
            run: digest_of("run", &(self.shard, &self.run)),
            pieces: digest_of("pieces", &self.pieces),
        }
    }

    /// Record the digests of this part's payload (when it is made).
    pub fn seal(&mut self) {
        self.sha256 = self.digests();
    }

    /// Whether the recorded digests are those of the payload; the first
    /// that is not, if any.
    pub fn verify(&self) -> Result<(), Mismatch> {
        let now = self.digests();
        for (field, recorded, computed) in [
            ("run", &self.sha256.run, now.run),
            ("pieces", &self.sha256.pieces, now.pieces),
        ] {
            if *recorded != computed {
                return Err(Mismatch {
                    field,
                    recorded: recorded.clone(),
                    computed,
                });
            }
        }
        Ok(())
    }

    /// The file's bytes.
    pub fn to_json(&self) -> Result<Vec<u8>, OutputError> {
        let mut out = serde_json::to_vec(self).map_err(|e| OutputError::Encode {
            what: FILE.into(),
            message: e.to_string(),
        })?;
        out.push(b'\n');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part() -> Part {
        let mut p = Part {
            format: FORMAT.into(),
            shard: 2,
            run: Header {
                oddsmith_version: "0.1.0".into(),
                scenario: ScenarioRef {
                    name: "n".into(),
                    path: "s.toml".into(),
                    sha256: "ab".repeat(32),
                },
                mechanic: "dice.roll".into(),
                configs: 1,
                mode: Mode::Both,
                seed: 1,
                trials: 100,
                precision: None,
                max_trials: None,
                shards: 2,
            },
            sha256: Digests {
                run: String::new(),
                pieces: String::new(),
            },
            timings: Timings::default(),
            pieces: vec![Piece {
                config: 0,
                chunks: Some([1, 2]),
                exact: Some(vec![vec![(1, Bits(0.15)), (2, Bits(0.85))]]),
                exact_joint: None,
                tally: Some(StoredTally {
                    trials: 100,
                    fields: vec![vec![(1, 17), (2, 83)]],
                    joint: None,
                }),
            }],
        };
        p.seal();
        p
    }

    fn read(json: &str) -> Part {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn digests_cover_the_run_and_every_value_of_the_pieces() {
        let p = part();
        let json = String::from_utf8(p.to_json().unwrap()).unwrap();
        assert_eq!(read(&json).verify(), Ok(()));
        // Respelled, not changed: the same values, the same digests.
        let respelled = json.replace("\"1.5e-1\"", "\"0.150e0\"");
        assert_ne!(respelled, json);
        assert_eq!(read(&respelled).verify(), Ok(()));
        // Timings are not covered.
        let timed = json.replace("\"threads\":0", "\"threads\":8");
        assert_ne!(timed, json);
        assert_eq!(read(&timed).verify(), Ok(()));
        for (from, to, field) in [
            ("[1,17],[2,83]", "[1,16],[2,84]", "pieces"),
            ("[1,17],[2,83]", "[1,17],[3,83]", "pieces"),
            ("\"chunks\":[1,2]", "\"chunks\":[0,2]", "pieces"),
            ("\"1.5e-1\"", "\"1.6e-1\"", "pieces"),
            ("\"shard\":2", "\"shard\":1", "run"),
            ("\"seed\":1", "\"seed\":2", "run"),
        ] {
            let changed = json.replace(from, to);
            assert_ne!(changed, json, "{from}");
            let m = read(&changed).verify().unwrap_err();
            assert_eq!(m.field, field, "{from} → {to}");
            assert_ne!(m.recorded, m.computed);
        }
    }

    #[test]
    fn stored_floats_read_back_to_the_same_bits() {
        let values = [
            0.1,
            1.0 / 3.0,
            2.0f64.powi(-1074),
            f64::MIN_POSITIVE,
            0.999_999_999_999_999_9,
            1.0 - f64::EPSILON / 2.0,
            123_456.789e-300,
        ];
        for v in values {
            let json = serde_json::to_string(&Bits(v)).unwrap();
            let back: Bits = serde_json::from_str(&json).unwrap();
            assert_eq!(back.0.to_bits(), v.to_bits(), "{v:e} via {json}");
        }
    }
}
