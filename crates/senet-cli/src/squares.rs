//! The squares each ruleset gives a meaning, marked on the boards of `senet serve` and
//! `senet play`. The texts sum up `docs/rules/<id>.md` and cite its rule ids.

use serde::Serialize;

use senet::registry::AnyRuleset;

/// A square with a rule of its own.
#[derive(Serialize, Debug)]
pub(crate) struct SpecialSquare {
    /// 1..=30.
    pub(crate) square: u8,
    /// A short name for the mark.
    pub(crate) name: &'static str,
    /// What happens there, with the rule id.
    pub(crate) text: String,
}

fn mark(square: u8, name: &'static str, text: impl Into<String>) -> SpecialSquare {
    SpecialSquare {
        square,
        name,
        text: text.into(),
    }
}

/// The same mark on several squares.
fn marks(squares: &[u8], name: &'static str, text: &str) -> Vec<SpecialSquare> {
    squares.iter().map(|&sq| mark(sq, name, text)).collect()
}

/// The special squares of `rules` as configured, in the order of the track.
pub(crate) fn special_squares(rules: &AnyRuleset) -> Vec<SpecialSquare> {
    let spec = rules.spec();
    let option = |name: &str| spec.option(name).unwrap_or("").to_string();
    let mut squares = match rules.id() {
        "regency" => {
            let mut squares = marks(&[26, 28, 29], "safe", "Safe: no attack here (R-10).");
            squares.push(mark(
                30,
                "exit",
                "Safe; a piece leaves by a move ending exactly here (R-14).",
            ));
            if option("house_of_water") == "true" {
                squares.push(mark(
                    15,
                    "rebirth",
                    "The House of Rebirth, where the water sends a piece (variation 2).",
                ));
                squares.push(mark(
                    27,
                    "water",
                    "A piece landing here goes back to 15 if it is empty, else to the first \
                     empty square from 1 (R-12, variation 2).",
                ));
            } else {
                squares.push(mark(
                    27,
                    "water",
                    "A piece landing here moves on at once to the first empty square from 1 \
                     (R-12).",
                ));
            }
            squares
        }
        "botermans" => {
            let mut squares = marks(&[26, 28, 29], "safe", "Safe: no attack here (B-8).");
            squares.push(mark(
                27,
                "water",
                "A piece arriving here moves on at once to the lowest empty square (B-10).",
            ));
            squares.push(mark(
                30,
                "exit",
                "Safe; a piece leaves by arriving exactly here, a larger throw bounces back \
                 (B-12).",
            ));
            squares
        }
        "cemea" => vec![
            mark(15, "rebirth", "Where a piece from 27 goes back to (C-11)."),
            mark(26, "", "A 1 from here jumps over 27 onto 28 (C-10)."),
            mark(
                27,
                "water",
                "A piece landing here goes back to 15; if 15 is taken, its side is stranded \
                 until a 4 bears it off (C-11).",
            ),
            mark(28, "refuge", "Safe; leave with exactly 3 (C-12)."),
            mark(29, "refuge", "Safe; leave with exactly 2 (C-12)."),
            mark(30, "refuge", "Safe; leave with exactly 1 (C-12)."),
        ],
        "kendall" => vec![
            mark(
                15,
                "rebirth",
                "Where a piece from the water goes back to (K-14, K-15).",
            ),
            mark(
                26,
                "gate",
                "Must be reached exactly; from here 1-4 go to 27-30 and a 5 bears off (K-9, \
                 K-10).",
            ),
            mark(
                27,
                "water",
                "A piece in the water is its side's only piece to move: a 4 takes it off, any \
                 throw may send it to 15 (K-13, K-14).",
            ),
            mark(28, "", "Leaves only with a 3 (K-11)."),
            mark(29, "", "Leaves only with a 2 (K-11)."),
            mark(30, "", "Leaves with any throw (K-11)."),
        ],
        "bell" => {
            let marked: &[u8] = if option("marked_squares") == "ludii" {
                &[15, 26, 27, 28, 29]
            } else {
                &[26, 27, 28, 29, 30]
            };
            marks(
                marked,
                "marked",
                "Marked: protects its piece, and pieces on marked squares move first (Be-6, \
                 Be-7).",
            )
        }
        "jequier" => {
            let safe: &[u8] = if option("safe_squares") == "15_26_28_29" {
                &[15, 26, 28, 29]
            } else {
                &[26, 28, 29, 30]
            };
            let mut squares = marks(
                safe,
                "safe",
                "Safe: no attack here (J-8, or Ludii's squares).",
            );
            squares.push(mark(
                27,
                "water",
                "A piece landing here goes on at once to the lowest empty square (J-10).",
            ));
            squares
        }
        "piccione" => {
            let mut squares = marks(
                &[15, 26],
                "+throw",
                "Stopping here earns one more throw (P-9).",
            );
            squares.push(mark(
                27,
                "water",
                "A piece stopping here returns to its owner's hand (P-10).",
            ));
            squares
        }
        _ => Vec::new(),
    };
    squares.sort_by_key(|s| s.square);
    squares
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::registry::RULESETS;

    #[test]
    fn every_ruleset_marks_27_and_cites_a_rule_on_each_square() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let squares = special_squares(&rules);
            assert!(squares.iter().any(|s| s.square == 27), "{}", info.id);
            for s in squares {
                assert!((1..=30).contains(&s.square));
                assert!(
                    s.text.contains('('),
                    "{}: {} cites no rule",
                    info.id,
                    s.square
                );
            }
        }
        let water = AnyRuleset::parse("regency(house_of_water=true)").unwrap();
        assert_eq!(special_squares(&water)[0].square, 15);
    }
}
