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
    pub(crate) text: &'static str,
}

const fn sq(square: u8, name: &'static str, text: &'static str) -> SpecialSquare {
    SpecialSquare { square, name, text }
}

const REGENCY: &[SpecialSquare] = &[
    sq(26, "safe", "Safe: no attack here (R-10)."),
    sq(
        27,
        "water",
        "A piece landing here moves on at once to the first empty square from 1 (R-12).",
    ),
    sq(28, "safe", "Safe: no attack here (R-10)."),
    sq(29, "safe", "Safe: no attack here (R-10)."),
    sq(
        30,
        "exit",
        "Safe; a piece leaves by a move ending exactly here (R-14).",
    ),
];

const REGENCY_WATER: &[SpecialSquare] = &[
    sq(
        15,
        "rebirth",
        "The House of Rebirth: where the water sends a piece (variation 2).",
    ),
    sq(26, "safe", "Safe: no attack here (R-10)."),
    sq(
        27,
        "water",
        "A piece landing here goes back to 15 if it is empty, else to the first empty square from 1 (R-12, variation 2).",
    ),
    sq(28, "safe", "Safe: no attack here (R-10)."),
    sq(29, "safe", "Safe: no attack here (R-10)."),
    sq(
        30,
        "exit",
        "Safe; a piece leaves by a move ending exactly here (R-14).",
    ),
];

const BOTERMANS: &[SpecialSquare] = &[
    sq(26, "safe", "Safe: nothing here can be attacked (B-8)."),
    sq(
        27,
        "water",
        "A piece arriving here moves on at once to the lowest empty square (B-10).",
    ),
    sq(28, "safe", "Safe (B-8)."),
    sq(29, "safe", "Safe (B-8)."),
    sq(
        30,
        "exit",
        "Safe; a piece leaves by arriving exactly here, a larger throw bounces back (B-12).",
    ),
];

const CEMEA: &[SpecialSquare] = &[
    sq(15, "rebirth", "Where a piece from 27 goes back to (C-11)."),
    sq(26, "", "A 1 from here jumps over 27 onto 28 (C-10)."),
    sq(
        27,
        "water",
        "A piece landing here goes back to 15; if 15 is taken, its side is stranded until a 4 bears it off (C-11).",
    ),
    sq(28, "refuge", "Safe; leave with exactly 3 (C-12)."),
    sq(29, "refuge", "Safe; leave with exactly 2 (C-12)."),
    sq(30, "refuge", "Safe; leave with exactly 1 (C-12)."),
];

const KENDALL: &[SpecialSquare] = &[
    sq(
        15,
        "rebirth",
        "Where a piece from the water goes back to (K-14, K-15).",
    ),
    sq(
        26,
        "gate",
        "Must be reached exactly; from here 1-4 go to 27-30 and a 5 bears off (K-9, K-10).",
    ),
    sq(
        27,
        "water",
        "A piece in the water is its side's only piece to move: a 4 takes it off, any throw may send it to 15 (K-13, K-14).",
    ),
    sq(28, "", "Leaves only with a 3 (K-11)."),
    sq(29, "", "Leaves only with a 2 (K-11)."),
    sq(30, "", "Leaves with any throw (K-11)."),
];

const BELL: &[SpecialSquare] = &[
    sq(
        26,
        "marked",
        "Marked: protects its piece; pieces here move first (Be-6, Be-7).",
    ),
    sq(27, "marked", "Marked: protects its piece (Be-6, I-1)."),
    sq(28, "marked", "Marked: protects its piece (Be-6)."),
    sq(29, "marked", "Marked: protects its piece (Be-6)."),
    sq(
        30,
        "marked",
        "Marked: protects its piece; leave by the exact count to 31 (Be-6, Be-8).",
    ),
];

const BELL_LUDII: &[SpecialSquare] = &[
    sq(
        15,
        "marked",
        "Marked: protects its piece (Be-6, Ludii's squares).",
    ),
    sq(26, "marked", "Marked: protects its piece (Be-6)."),
    sq(27, "marked", "Marked: protects its piece (Be-6)."),
    sq(28, "marked", "Marked: protects its piece (Be-6)."),
    sq(29, "marked", "Marked: protects its piece (Be-6)."),
];

const JEQUIER: &[SpecialSquare] = &[
    sq(26, "safe", "Safe: no attack here (J-8)."),
    sq(
        27,
        "water",
        "A piece landing here goes on at once to the lowest empty square (J-10).",
    ),
    sq(28, "safe", "Safe (J-8)."),
    sq(29, "safe", "Safe (J-8)."),
    sq(30, "safe", "Safe; a throw past 30 bears off (J-8, J-11)."),
];

const JEQUIER_LUDII: &[SpecialSquare] = &[
    sq(15, "safe", "Safe: no attack here (Ludii's safe squares)."),
    sq(26, "safe", "Safe (Ludii's safe squares)."),
    sq(
        27,
        "water",
        "A piece landing here goes on at once to the lowest empty square (J-10).",
    ),
    sq(28, "safe", "Safe (Ludii's safe squares)."),
    sq(29, "safe", "Safe (Ludii's safe squares)."),
];

const PICCIONE: &[SpecialSquare] = &[
    sq(15, "+throw", "Stopping here earns one more throw (P-9)."),
    sq(26, "+throw", "Stopping here earns one more throw (P-9)."),
    sq(
        27,
        "water",
        "A piece stopping here returns to its owner's hand (P-10).",
    ),
];

/// The special squares of `rules` as configured.
pub(crate) fn special_squares(rules: &AnyRuleset) -> &'static [SpecialSquare] {
    let spec = rules.spec();
    let option = |name: &str| spec.option(name).unwrap_or("");
    match rules.id() {
        "regency" if option("house_of_water") == "true" => REGENCY_WATER,
        "regency" => REGENCY,
        "botermans" => BOTERMANS,
        "cemea" => CEMEA,
        "kendall" => KENDALL,
        "bell" if option("marked_squares") == "ludii" => BELL_LUDII,
        "bell" => BELL,
        "jequier" if option("safe_squares") == "15_26_28_29" => JEQUIER_LUDII,
        "jequier" => JEQUIER,
        "piccione" => PICCIONE,
        _ => &[],
    }
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
