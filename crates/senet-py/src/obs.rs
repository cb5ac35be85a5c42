//! The fixed-shape observation of a position, shared by the environments and
//! `Game.observation()`, and the action mask.
//!
//! Layout (`float32`): squares 1..=30 holding a Black piece (30 values of 0 or 1), the same
//! for White, then pieces off (Black, White), in hand (Black, White), captured (Black,
//! White), the side to act (0 Black, 1 White; 0 once the game is over), then each of the
//! ruleset's position fields in its `FIELD_INFO` order: one value saying whether the field
//! differs from its default, then the field's value (see [`FieldKind`]). A field at its
//! default is left out of the position notation, so its slots are all 0; the default is a
//! function of the rest of the observation.

use senet::registry::AnyRuleset;
use senet::{DynGame, Setup, Side, Square};

/// Values before the ruleset's fields.
pub(crate) const BASE: usize = 67;

/// How a position field's text becomes numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldKind {
    /// An integer: one value.
    Number,
    /// One of two words: one value, 0 for the first and 1 for the second.
    Word(&'static str, &'static str),
    /// A square (1..=30): one value.
    Square,
    /// A comma-separated list of squares, or `none`: 30 values of 0 or 1.
    Squares,
    /// A string of throw digits such as `1145`: how many of each value 1..=6.
    Digits,
    /// Two comma-separated integers: two values.
    Pair,
}

impl FieldKind {
    /// The kind of every position field of the registered rulesets; `None` for a field this
    /// module does not know (a test covers every registered field).
    pub(crate) fn of(name: &str) -> Option<FieldKind> {
        Some(match name {
            "throw" | "black_turns" | "white_turns" | "captured_b" | "captured_w"
            | "extra_throws" => FieldKind::Number,
            "white_opened" | "white_started" | "entered_must_move" => {
                FieldKind::Word("false", "true")
            }
            "first" => FieldKind::Word("b", "w"),
            "phase" => FieldKind::Word("throw", "move"),
            "must_move_b" | "must_move_w" => FieldKind::Square,
            "unmoved" => FieldKind::Squares,
            "throws" => FieldKind::Digits,
            "hand" => FieldKind::Pair,
            _ => return None,
        })
    }

    /// Values the field takes, besides the one saying whether it is there.
    fn width(self) -> usize {
        match self {
            FieldKind::Number | FieldKind::Word(..) | FieldKind::Square => 1,
            FieldKind::Squares => 30,
            FieldKind::Digits => 6,
            FieldKind::Pair => 2,
        }
    }

    /// Writes `text` into `out` (`width` values, zeroed); `None` when it does not read.
    fn write(self, text: &str, out: &mut [f32]) -> Option<()> {
        match self {
            FieldKind::Number => out[0] = text.parse::<u32>().ok()? as f32,
            FieldKind::Word(first, second) => {
                out[0] = match text {
                    t if t == first => 0.0,
                    t if t == second => 1.0,
                    _ => return None,
                }
            }
            FieldKind::Square => out[0] = f32::from(Square::new(text.parse().ok()?).ok()?.get()),
            FieldKind::Squares => {
                if text != "none" {
                    for part in text.split(',') {
                        let square = Square::new(part.trim().parse().ok()?).ok()?;
                        out[usize::from(square.get()) - 1] = 1.0;
                    }
                }
            }
            FieldKind::Digits => {
                for digit in text.chars() {
                    let value = digit.to_digit(10)? as usize;
                    *out.get_mut(value.checked_sub(1)?)? += 1.0;
                }
            }
            FieldKind::Pair => {
                let (a, b) = text.split_once(',')?;
                out[0] = a.trim().parse::<u32>().ok()? as f32;
                out[1] = b.trim().parse::<u32>().ok()? as f32;
            }
        }
        Some(())
    }
}

/// Where each field of one ruleset goes.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// Name, kind and offset of the field's presence value.
    fields: Vec<(&'static str, FieldKind, usize)>,
    size: usize,
}

impl Layout {
    /// The layout of `rules`' observations. Fields of unknown kind count as numbers.
    pub(crate) fn new(rules: &AnyRuleset) -> Layout {
        let mut fields = Vec::new();
        let mut size = BASE;
        for field in rules.info().map_or(&[][..], |info| info.field_info) {
            let kind = FieldKind::of(field.name).unwrap_or(FieldKind::Number);
            fields.push((field.name, kind, size));
            size += 1 + kind.width();
        }
        Layout { fields, size }
    }

    /// Values in an observation.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// The names of the fields with the offset of each one's presence value.
    pub(crate) fn field_offsets(&self) -> impl Iterator<Item = (&'static str, usize)> + '_ {
        self.fields.iter().map(|&(name, _, offset)| (name, offset))
    }

    /// Writes the observation of `game` into `out` (`size` values).
    pub(crate) fn write(&self, game: &dyn DynGame, out: &mut [f32]) {
        out.fill(0.0);
        let board = game.board();
        for (plane, side) in [Side::Black, Side::White].into_iter().enumerate() {
            for square in board.pieces_of(side).iter() {
                out[plane * 30 + usize::from(square.get()) - 1] = 1.0;
            }
            out[60 + plane] = f32::from(board.off_count(side));
            out[62 + plane] = f32::from(board.hand_count(side));
            out[64 + plane] = f32::from(game.captured(side));
        }
        out[66] = match game.phase().side() {
            Some(Side::White) => 1.0,
            _ => 0.0,
        };
        self.write_fields(&game.setup(), out);
    }

    fn write_fields(&self, setup: &Setup, out: &mut [f32]) {
        for &(name, kind, offset) in &self.fields {
            if let Some(text) = setup.field(name) {
                let slots = &mut out[offset + 1..offset + 1 + kind.width()];
                if kind.write(text, slots).is_some() {
                    out[offset] = 1.0;
                } else {
                    slots.fill(0.0);
                }
            }
        }
    }
}

/// Writes the action mask of a decision with `legal` legal moves into `out`: 1 for each
/// index below `legal` (an action is an index into `Game.legal_moves()`), 0 elsewhere.
pub(crate) fn write_mask(legal: usize, out: &mut [i8]) {
    let legal = legal.min(out.len());
    out[..legal].fill(1);
    out[legal..].fill(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet::Phase;
    use senet::rand_core::SeedableRng;
    use senet::registry::RULESETS;
    use senet::rng::ChaCha8Rng;

    #[test]
    fn every_registered_field_has_a_kind() {
        for info in RULESETS {
            for field in info.field_info {
                assert!(
                    FieldKind::of(field.name).is_some(),
                    "{}: field {}",
                    info.id,
                    field.name
                );
            }
        }
    }

    /// Over random games of every ruleset, every field written reads, the board planes hold
    /// the pieces, and the observation keeps its size.
    #[test]
    fn observations_of_random_games_read_every_field() {
        for info in RULESETS {
            let rules = AnyRuleset::parse(info.id).unwrap();
            let layout = Layout::new(&rules);
            let mut out = vec![0.0; layout.size()];
            let mut rng = ChaCha8Rng::seed_from_u64(5);
            for _ in 0..20 {
                let mut game = senet::AnyGame::new(rules.clone());
                for _ in 0..300 {
                    layout.write(&*game, &mut out);
                    let setup = game.setup();
                    for (name, offset) in layout.field_offsets() {
                        let present = setup.field(name).is_some();
                        assert_eq!(out[offset] == 1.0, present, "{}: {name}", info.id);
                    }
                    let on_board: f32 = out[..60].iter().sum();
                    let pieces = game.board().pieces_of(Side::Black).len()
                        + game.board().pieces_of(Side::White).len();
                    assert_eq!(on_board, f32::from(pieces), "{}", info.id);
                    match game.phase() {
                        Phase::Over(_) => break,
                        Phase::Throw(_) => {
                            game.throw_random(&mut rng).unwrap();
                        }
                        Phase::Move(_) => {
                            let moves = game.legal_moves();
                            let mv = moves[(out[..60].iter().sum::<f32>() as usize) % moves.len()];
                            game.play(mv).unwrap();
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn field_texts_become_numbers() {
        let mut out = [0.0; 30];
        FieldKind::Digits.write("1145", &mut out[..6]).unwrap();
        assert_eq!(&out[..6], &[2.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        let mut out = [0.0; 30];
        FieldKind::Squares.write("2,4,9", &mut out).unwrap();
        assert_eq!(out.iter().sum::<f32>(), 3.0);
        assert_eq!(out[8], 1.0);
        let mut out = [0.0; 2];
        FieldKind::Pair.write("3,5", &mut out).unwrap();
        assert_eq!(out, [3.0, 5.0]);
        assert!(FieldKind::Word("b", "w").write("x", &mut out).is_none());
        assert!(FieldKind::Square.write("31", &mut out).is_none());
        assert!(FieldKind::Digits.write("0", &mut out).is_none());
    }
}
