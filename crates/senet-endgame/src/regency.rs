//! The endgame space of the Regency ruleset.

use core::ops::Range;

use senet_core::{BitBoard, Ruleset, Setup, Side, SquareSet};
use senet_regency::{ExitRule, PIECES, Regency, RegencyState};

use super::ranking::{binomial, compress, expand, rank, unrank};
use super::{EndgameError, EndgameRules, EndgameSpace};

/// Squares on the track, plus one so that square numbers index arrays directly.
const SLOTS: usize = 31;
const NOWHERE: u8 = u8::MAX;

/// The Regency positions with at most `k` pieces a side on the board, waiting for a throw.
///
/// Regency's rules treat the two sides alike once White has made its first move (R-5 is the
/// only rule that names a side), so a position and its mirror image (colours swapped, the
/// other side to act) have the same value for the side to act. The space keeps one of each
/// pair: the side to act is called "mine", the other "theirs", and the index is
///
/// ```text
/// offset(a, b) + rank(mine) · C(n − a, b) + rank(theirs among the squares mine leaves free)
/// ```
///
/// where `a` and `b` count the pieces on the board, `n` is the number of squares a piece can
/// rest on (27 never, 30 not when a piece landing there is borne off at once: 28 squares by
/// default, 29 under the exit options), and `rank` is the position of a set of squares in
/// the colexicographic order of all sets of that size. Groups `(a, b)` are stored in order of
/// `a + b`, which makes the layers: a move never puts a piece back on the board.
///
/// Positions in which White has not yet made its first move lie outside the space (they
/// only occur with all five White pieces on the board).
///
/// ```
/// use senet::ai::endgame::{EndgameSpace, RegencyEndgame};
/// use senet::Ruleset;
/// use senet::Regency;
/// let space = RegencyEndgame::new(Regency::default(), 2).unwrap();
/// assert_eq!(space.state_count(), 756 + 2 * 9_828 + 122_850);
/// let rules = Regency::default();
/// let black = rules.parse_position(&format!("{}B.W.. b", ".".repeat(25))).unwrap();
/// let white = rules.parse_position(&format!("{}W.B.. w", ".".repeat(25))).unwrap();
/// assert_eq!(space.index(&black), space.index(&white)); // mirror images share an index
/// assert!(space.index(&rules.initial_state()).is_none()); // five pieces a side
/// ```
#[derive(Clone, Debug)]
pub struct RegencyEndgame {
    rules: Regency,
    max_pieces: u8,
    /// For each square, its position among the squares a piece can rest on.
    position: [u8; SLOTS],
    /// The squares a piece can rest on, by position.
    squares: Vec<u8>,
    groups: Vec<Group>,
    /// `group_of[a][b]`: the group with `a` pieces of mine and `b` of theirs.
    group_of: [[usize; PIECES as usize + 1]; PIECES as usize + 1],
    layers: Vec<Range<usize>>,
    total: usize,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    mine: u8,
    theirs: u8,
    start: usize,
    count: usize,
    /// C(n − mine, theirs): placements of theirs for each placement of mine.
    stride: usize,
}

impl RegencyEndgame {
    /// The space of positions with at most `max_pieces` (1..=5) pieces a side on the board.
    pub fn new(rules: Regency, max_pieces: u8) -> Result<RegencyEndgame, EndgameError> {
        if rules.collect_throws() {
            // Its turns hold several throws, which the index does not encode.
            return Err(EndgameError::Unsupported(rules.spec().to_string()));
        }
        if !(1..=PIECES).contains(&max_pieces) {
            return Err(EndgameError::Pieces {
                requested: max_pieces,
                max: PIECES,
            });
        }
        // R-12: no piece stays on 27; R-14: a piece reaching 30 is borne off at once (under
        // the exit options 30 is an ordinary square).
        let thirty_is_a_square = rules.exit() != ExitRule::LandOnThirty;
        let squares: Vec<u8> = (1..=30u8)
            .filter(|&s| s != 27 && (s != 30 || thirty_is_a_square))
            .collect();
        let mut position = [NOWHERE; SLOTS];
        for (p, &s) in squares.iter().enumerate() {
            position[usize::from(s)] = p as u8;
        }
        let n = squares.len();
        let k = max_pieces;
        let mut groups = Vec::new();
        let mut layers = Vec::new();
        let mut group_of = [[usize::MAX; PIECES as usize + 1]; PIECES as usize + 1];
        let mut start = 0;
        for sum in 2..=2 * k {
            let layer_start = start;
            for mine in 1..=k {
                let Some(theirs) = sum.checked_sub(mine).filter(|t| (1..=k).contains(t)) else {
                    continue;
                };
                let stride = binomial(n - usize::from(mine), usize::from(theirs));
                let count = binomial(n, usize::from(mine)) * stride;
                group_of[usize::from(mine)][usize::from(theirs)] = groups.len();
                groups.push(Group {
                    mine,
                    theirs,
                    start,
                    count,
                    stride,
                });
                start += count;
            }
            layers.push(layer_start..start);
        }
        Ok(RegencyEndgame {
            rules,
            max_pieces,
            position,
            squares,
            groups,
            group_of,
            layers,
            total: start,
        })
    }

    /// The positions of the squares `squares` among those a piece can rest on, or `None`
    /// when a piece stands where none rests between two throws.
    #[inline]
    fn positions(&self, squares: SquareSet) -> Option<u32> {
        let mut at = 0u32;
        for sq in squares.iter() {
            let p = self.position[usize::from(sq.get())];
            if p == NOWHERE {
                return None;
            }
            at |= 1 << p;
        }
        Some(at)
    }
}

impl EndgameRules for Regency {
    type Space = RegencyEndgame;
    const ENDGAME_SPECS: &'static str = "regency";

    fn endgame_space(&self, max_pieces: u8) -> Result<RegencyEndgame, EndgameError> {
        RegencyEndgame::new(*self, max_pieces)
    }
}

impl EndgameSpace for RegencyEndgame {
    type Rules = Regency;

    const LAYOUT: &'static str = "regency-endgame-v1";

    fn rules(&self) -> &Regency {
        &self.rules
    }

    fn max_pieces(&self) -> u8 {
        self.max_pieces
    }

    fn state_count(&self) -> usize {
        self.total
    }

    fn layers(&self) -> Vec<Range<usize>> {
        self.layers.clone()
    }

    #[inline]
    fn index(&self, state: &RegencyState) -> Option<usize> {
        if state.pending_throw().is_some() || !state.white_opened() {
            return None;
        }
        let board = state.board();
        let me = state.to_move();
        let them = me.opponent();
        let mine = board.pieces_of(me);
        let theirs = board.pieces_of(them);
        let (a, b) = (mine.len(), theirs.len());
        if a == 0 || b == 0 || a > self.max_pieces || b > self.max_pieces {
            return None;
        }
        if board.off_count(me) + a != PIECES
            || board.off_count(them) + b != PIECES
            || board.hand_count(me) + board.hand_count(them) != 0
        {
            return None;
        }
        let group = &self.groups[self.group_of[usize::from(a)][usize::from(b)]];
        let mine_at = self.positions(mine)?;
        // Theirs among the positions mine leave free.
        let theirs_at = compress(self.positions(theirs)?, mine_at);
        Some(group.start + rank(mine_at) * group.stride + rank(theirs_at))
    }

    fn state(&self, index: usize) -> Option<RegencyState> {
        if index >= self.total {
            return None;
        }
        let group = self.groups[self.groups.partition_point(|g| g.start + g.count <= index)];
        let offset = index - group.start;
        let n = self.squares.len();
        let mine_at = unrank(offset / group.stride, group.mine, n);
        let theirs_compressed = unrank(
            offset % group.stride,
            group.theirs,
            n - usize::from(group.mine),
        );
        let theirs_at = expand(theirs_compressed, mine_at);
        let to_squares = |mut mask: u32| {
            let mut bits = 0u32;
            while mask != 0 {
                let p = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                bits |= 1 << self.squares[p];
            }
            SquareSet::from_bits_truncate(bits)
        };
        let board = BitBoard::from_pieces(to_squares(mine_at), to_squares(theirs_at)).ok()?;
        // The side to act is Black; pieces not on the board are off; White has opened.
        self.rules.read_setup(&Setup::new(board, Side::Black)).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_gives_a_state_that_indexes_back() {
        for rules in [
            Regency::default(),
            Regency::default().with_exit(ExitRule::BeyondThirty),
        ] {
            let space = RegencyEndgame::new(rules, 2).unwrap();
            for index in 0..space.state_count() {
                let state = space.state(index).unwrap();
                assert_eq!(space.index(&state), Some(index));
            }
            assert!(space.state(space.state_count()).is_none());
        }
    }

    #[test]
    fn the_exit_options_make_thirty_a_square() {
        let plain = RegencyEndgame::new(Regency::default(), 1).unwrap();
        let beyond =
            RegencyEndgame::new(Regency::default().with_exit(ExitRule::From28To30), 1).unwrap();
        assert_eq!(plain.state_count(), 28 * 27);
        assert_eq!(beyond.state_count(), 29 * 28);
    }

    #[test]
    fn pieces_outside_one_to_five_are_refused() {
        assert!(matches!(
            RegencyEndgame::new(Regency::default(), 0),
            Err(EndgameError::Pieces { requested: 0, .. })
        ));
        assert!(RegencyEndgame::new(Regency::default(), 6).is_err());
    }

    #[test]
    fn collected_throws_have_no_tables() {
        assert!(matches!(
            RegencyEndgame::new(Regency::default().with_collect_throws(true), 1),
            Err(EndgameError::Unsupported(_))
        ));
    }
}
