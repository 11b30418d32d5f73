//! `split = [{ key, entities, name }, …]`: a split scene's sub-scenes read
//! and checked against the scene.

use super::super::cast::{GM, Kind, Member, SubScene};
use super::table::{check_name, list};
use crate::systems::gateway::scene::entity::table_entries;
use crate::systems::{ParamError, ParamValue};

const KEY: &str = "split";
/// Most sub-scenes (bits of a byte in the state).
const MAX_SUBS: usize = 6;

/// The sub-scenes `v` gives. Each key entity becomes a key entity (left
/// only by a Climax) if it was a minor one.
pub(super) fn split_of(
    v: &ParamValue,
    members: &mut [Member],
    names: &[String],
    index: &dyn Fn(&str, &'static str) -> Result<usize, ParamError>,
) -> Result<Vec<SubScene>, ParamError> {
    let e = |m: String| ParamError::new(KEY, m);
    let items = list(v, "sub-scene tables").map_err(e)?;
    if !(2..=MAX_SUBS).contains(&items.len()) {
        return Err(e(format!(
            "{} sub-scenes; a split scene has 2..={MAX_SUBS}",
            items.len()
        )));
    }
    let rider = |i: usize| members[i].lead.is_some();
    let mut subs: Vec<SubScene> = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let what = format!("sub-scene {}", k + 1);
        let (mut key, mut name, mut mask) = (None, None, 0u16);
        for (k, x) in table_entries(item, &what).map_err(e)? {
            match k.as_str() {
                "key" => {
                    let n = check_name(x).map_err(|m| e(format!("{what}: `key`: {m}")))?;
                    key = Some(index(&n, KEY)?);
                }
                "name" => {
                    name = Some(check_name(x).map_err(|m| e(format!("{what}: `name`: {m}")))?)
                }
                "entities" => {
                    for x in list(x, "entity names").map_err(|m| e(format!("{what}: {m}")))? {
                        let n = check_name(x).map_err(|m| e(format!("{what}: {m}")))?;
                        let i = index(&n, KEY)?;
                        if rider(i) {
                            return Err(e(format!(
                                "{what}: \"{n}\" has a lead; a passenger is in its lead's sub-scenes"
                            )));
                        }
                        mask |= 1 << i;
                    }
                }
                other => {
                    return Err(e(format!(
                        "{what}: unknown key `{other}`; allowed: key, entities, name"
                    )));
                }
            }
        }
        let key = key.ok_or_else(|| e(format!("{what}: `key` (its key entity) is missing")))?;
        if members[key].side != GM || rider(key) {
            return Err(e(format!(
                "{what}: the key entity \"{}\" must be a GM entity that is no passenger",
                names[key]
            )));
        }
        let name = name.unwrap_or_else(|| names[key].clone());
        if subs.iter().any(|b| b.name == name || b.key == key) {
            return Err(e(format!(
                "{what}: the name or key entity \"{name}\" is taken by another sub-scene"
            )));
        }
        subs.push(SubScene {
            name,
            key,
            members: mask | 1 << key,
        });
    }
    let all = subs.iter().fold(0u16, |a, b| a | b.members);
    if let Some(i) = (0..members.len()).find(|&i| !rider(i) && all >> i & 1 == 0) {
        return Err(e(format!(
            "\"{}\" is in no sub-scene; list it in one (or more) `entities`",
            names[i]
        )));
    }
    for b in &subs {
        // A sub-scene's key entity leaves only by a Climax.
        if members[b.key].kind == Kind::Minor {
            members[b.key].kind = Kind::Key;
        }
    }
    Ok(subs)
}
