//! The one-line notation of `oddsmith odds gateway`: pools as `NdK+M` and
//! raises as `2` or `0..3`, held to the ranges a scenario's keys allow, so
//! the command line cannot ask what a scenario could not (nor overflow).

use super::Pool;

/// The most dice a pool has: a trait of 6 plus an essence of 3.
pub const MAX_DICE: u32 = 9;
/// The largest bonus, either way, that a side's keys add up to in a
/// scenario (a challenge of 20 plus an edge of 100; a character's
/// background, specialisation, equipment and edge stay within it too).
pub const MAX_BONUS: i64 = 120;
/// The most raises a challenge takes (`raises` 0..=10).
pub const MAX_RAISES: u32 = 10;
/// The most free raises (`free_raises` 0..=100).
pub const MAX_FREE_RAISES: u32 = 100;

/// `NdK+M`, `NdK-M` or `NdK` with K = 8: N d8 keep highest, plus M.
pub fn parse_pool(text: &str) -> Result<Pool, String> {
    let bad = || {
        format!(
            "{text:?} is not a Gateway roll; write N d8 keep highest plus M as NdK+M, e.g. 3d8+2 (N 1..={MAX_DICE}, M -{MAX_BONUS}..={MAX_BONUS})"
        )
    };
    let t = text.trim().to_ascii_lowercase();
    let (dice, rest) = t.split_once('d').ok_or_else(bad)?;
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if !digits(dice) {
        return Err(bad());
    }
    let (sides, bonus) = match rest.find(['+', '-']) {
        Some(i) => {
            let (sign, number) = rest[i..].split_at(1);
            if !digits(number) {
                return Err(bad());
            }
            // Too long to parse is out of range too.
            let m = number.parse::<i64>().unwrap_or(i64::MAX);
            (&rest[..i], if sign == "-" { -m } else { m })
        }
        None => (rest, 0),
    };
    if sides != "8" {
        return Err(format!("{text:?}: Gateway rolls d8s only (got d{sides})"));
    }
    let dice = dice.parse::<u32>().unwrap_or(u32::MAX);
    if !(1..=MAX_DICE).contains(&dice) {
        return Err(format!(
            "{text:?}: {dice} dice is out of range; allowed: 1..={MAX_DICE} (a trait of up to 6 plus an essence of up to 3)"
        ));
    }
    if !(-MAX_BONUS..=MAX_BONUS).contains(&bonus) {
        return Err(format!(
            "{text:?}: a bonus of {bonus} is out of range; allowed: -{MAX_BONUS}..={MAX_BONUS}"
        ));
    }
    Ok(Pool { dice, bonus })
}

/// `2`, `0..3` or `0..=3` (both inclusive), within 0..=10.
pub fn parse_raises(text: &str) -> Result<Vec<u32>, String> {
    let bad = || {
        format!(
            "{text:?}: give a number or an inclusive range such as 0..3, within 0..={MAX_RAISES}"
        )
    };
    let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if lo > hi || hi > MAX_RAISES {
        return Err(bad());
    }
    Ok((lo..=hi).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_and_raises_parse() {
        assert_eq!(parse_pool("3d8+2").unwrap(), Pool { dice: 3, bonus: 2 });
        assert_eq!(parse_pool("2D8-1").unwrap(), Pool { dice: 2, bonus: -1 });
        assert_eq!(parse_pool(" 1d8 ").unwrap(), Pool { dice: 1, bonus: 0 });
        assert_eq!(
            parse_pool("9d8-120").unwrap(),
            Pool {
                dice: 9,
                bonus: -120
            }
        );
        assert!(parse_pool("3d6+2").is_err());
        assert!(parse_pool("0d8").is_err());
        assert!(parse_pool("three").is_err());
        assert!(parse_pool("3d8+").is_err());
        assert!(parse_pool("3d8++2").is_err());
        assert!(parse_pool("-3d8").is_err());
        assert_eq!(parse_raises("0..3").unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(parse_raises("1..=2").unwrap(), vec![1, 2]);
        assert_eq!(parse_raises("4").unwrap(), vec![4]);
        assert!(parse_raises("3..1").is_err());
        assert!(parse_raises("0..11").is_err());
        assert!(parse_raises("0..=").is_err());
    }

    #[test]
    fn odds_arguments_get_the_ranges_of_scenario_keys() {
        // The overflow of the issue: now a range error, not a wrong table.
        let e = parse_pool("1d8+9223372036854775807").unwrap_err();
        assert!(
            e.contains("out of range") && e.contains("-120..=120"),
            "{e}"
        );
        let e = parse_pool("1d8-9223372036854775808").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse_pool("1d8+99999999999999999999999").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse_pool("10d8").unwrap_err();
        assert!(e.contains("1..=9"), "{e}");
        let e = parse_pool("4294967296d8").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        assert!(parse_pool("1d8+121").is_err());
        assert!(parse_pool("1d8+120").is_ok());
    }
}
