//! The endgame space of Kendall's ruleset with immediate throws.

use core::ops::Range;

use senet_core::{BitBoard, Ruleset, Setup, Side, SquareSet};
use senet_kendall::{Kendall, KendallState, ThrowTiming};

use super::ranking::{MOST_IN_SET, binomial, compress, expand, rank, unrank};
use super::{Checkpoint, EndgameError, EndgameRules, EndgameSpace, SolveOptions, SolveStats};

mod stored;

/// Squares a piece can stand on: all thirty (27 is the water, K-13; 28–30 are exits, K-11).
const SQUARES: usize = 30;
/// The most pieces a side has (K-1).
const MOST_PIECES: usize = MOST_IN_SET;
/// K-15: the piece that must move stands on 26 at most (it comes back to 15 and can only be
/// swapped about by moves that end on 26 at most).
const MUST_MOVE_SQUARES: usize = 26;
/// The water (K-13), as a position (square − 1).
const WATER: u32 = 26;
/// Bytes a solve with immediate throws on disk takes per position at its peak, measured
/// with 3 pieces a side (5.57 GB for 49.1 million positions, 113 bytes a position,
/// `docs/players.md`): the graph of the largest layer (39.6 million positions, about 25
/// successors each) and Tarjan's arrays, while its components are found.
const ON_DISK_PEAK_BYTES_PER_POSITION: u64 = 115;
/// Bytes a solve with stored throws takes per position, measured with 2 pieces a side
/// while sweeping (1.9 GB for 803,390 positions, `docs/players.md`): two levels of
/// positions between moves, each board with every multiset of throws of its level, and the
/// history of the acceleration, 16 vectors of both bounds.
const STORED_PEAK_BYTES_PER_POSITION: u64 = 2_600;

/// The Kendall positions with at most `k` pieces a side on the board, waiting for a throw:
/// with immediate throws (`kendall(throw_timing=immediate)`) every such position, with stored
/// throws (the default) those where a turn starts.
///
/// Between two throws a Kendall position with immediate throws is the board, the side to
/// act, and the piece each side must move on its next decision (K-15). Once each side has
/// borne off a piece the rules treat the two sides alike (option `starting_throw` only
/// delays White's first move), so, as in [`RegencyEndgame`](super::RegencyEndgame), the
/// side to act is called "mine" and the other "theirs", and a position and its mirror image
/// share an index. The water (27), the gate (26) and the exits (28–30) are squares like the
/// others: every piece stands on one of the thirty.
///
/// The piece that must move (K-15) is set when a piece goes back from the water to 15,
/// which ends its side's turn; it lapses at that side's next decision, and follows the piece
/// when the opponent swaps it away meanwhile. So between two throws:
///
/// - no piece must move: the *plain* positions;
/// - the piece that must move is theirs (they went back to 15, and it is still the turn of
///   the side to act, which may throw again after a 1, 4 or 5): the *must-move* positions,
///   with that piece on any square from 1 to 26. Mine are then never in the water: their
///   piece left it empty, and a piece of mine entering it by its own move (K-13, or the
///   option `trap`) ends my turn;
/// - the piece that must move is mine (my piece went back to 15, and the opponent's turn has
///   ended): these are *passed through* ([`EndgameSpace::passes_through`]): their value is
///   that of their throw, after which the obligation is over, so they are not stored;
/// - both sides never have one at once (the piece that went back left the water empty, so
///   the opponent cannot go back to 15 in its turn before the obligation lapses).
///
/// With `a` and `b` the pieces of mine and theirs on the board, colexicographic ranks of
/// sets of squares, and `x` the square of their piece that must move,
///
/// ```text
/// plain:     offset + rank(mine) · C(30 − a, b) + rank(theirs among the squares mine leave)
/// must-move: offset + ((x − 1) · C(28, a) + rank(mine among the squares x and 27 leave))
///                       · C(29 − a, b − 1) + rank(their other pieces among the rest)
/// ```
///
/// Groups are ordered by `a + b` (the layers: a piece borne off never comes back), plain
/// before must-move.
///
/// **Stored throws** (K-4, the default timing). A turn collects throws until a 2 or a 3 and
/// then spends them one move at a time; nobody decides while they are collected. The space
/// indexes the turn starts: the positions above, in which the side to act has thrown
/// nothing yet, and after them the turn starts whose piece that must move is mine (my piece
/// went back to 15 at the end of my last turn), which the whole next turn depends on:
///
/// ```text
/// mine must: offset + ((x − 1) · C(29, a − 1) + rank(my other pieces among the squares x
///                       leaves)) · C(30 − a, b) + rank(theirs among the squares mine leave)
/// ```
///
/// (either side may be in the water there). The generic solver cannot follow such a turn
/// from one indexed position to the next, so the space solves itself
/// ([`EndgameSpace::solve_own`]): the method, what it leaves out (turns of more than
/// [`MOST_AGAIN_THROWS`](KendallEndgame::MOST_AGAIN_THROWS) throws that throw again) and
/// what it assumes are in `docs/players.md`, "Kendall with stored throws". One layer holds
/// the whole space.
///
/// Options: `pieces`, `starting_throw`, `trap` and `home_row` are all supported (they change
/// the moves, not what a position between throws remembers; `starting_throw` lies behind
/// these positions, since each side has borne off a piece).
///
/// ```
/// use senet::ai::endgame::{EndgameSpace, KendallEndgame};
/// use senet::Ruleset;
/// use senet::kendall::{Kendall, ThrowTiming};
///
/// let rules = Kendall::default().with_throw_timing(ThrowTiming::Immediate);
/// let space = KendallEndgame::new(rules, 1).unwrap();
/// assert_eq!(space.state_count(), 30 * 29 + 26 * 28);
/// let black = rules.parse_position(&format!("{}B.W.. b", ".".repeat(25))).unwrap();
/// let white = rules.parse_position(&format!("{}W.B.. w", ".".repeat(25))).unwrap();
/// assert_eq!(space.index(&black), space.index(&white)); // mirror images share an index
/// // White's piece went back from the water to 15 and must move next (K-15).
/// let must = rules.parse_position(&format!("{}W..........B.... b must_move_w=15", ".".repeat(14)))
///     .unwrap();
/// assert!(space.index(&must).unwrap() >= 30 * 29);
/// // Stored throws: the turn starts, with those whose piece that must move is mine.
/// let stored = KendallEndgame::new(Kendall::default(), 1).unwrap();
/// assert_eq!(stored.state_count(), 30 * 29 + 26 * 28 + 26 * 29);
/// let mine = Kendall::default()
///     .parse_position(&format!("{}B..........W.... b must_move_b=15", ".".repeat(14)))
///     .unwrap();
/// assert!(stored.index(&mine).unwrap() >= 30 * 29 + 26 * 28);
/// ```
#[derive(Clone, Debug)]
pub struct KendallEndgame {
    rules: Kendall,
    max_pieces: u8,
    groups: Vec<Group>,
    /// `group_of[kind][a][b]`: the group of that kind with `a` pieces of mine and `b` of
    /// theirs.
    group_of: [[[usize; MOST_PIECES + 1]; MOST_PIECES + 1]; 3],
    /// Whether the throws are stored (K-4): the positions whose piece that must move is
    /// mine are then indexed too, after all the others.
    stored: bool,
    /// Positions in which no piece of mine must move: with stored throws, also the positions
    /// between two moves of a turn.
    without_mine: usize,
    layers: Vec<Range<usize>>,
    total: usize,
}

/// Whether a group holds plain or must-move positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Plain = 0,
    /// Their piece must move.
    MustMove = 1,
    /// My piece must move (stored throws only).
    MineMust = 2,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    kind: Kind,
    mine: u8,
    theirs: u8,
    start: usize,
    count: usize,
    /// Placements of theirs (or of their other pieces) for each placement of the rest.
    stride: usize,
    /// Must-move groups: placements of mine for each square of the piece that must move.
    mine_count: usize,
}

impl KendallEndgame {
    /// With stored throws: the most throws of 1, 4 or 5 (each "throw again", K-4) a turn
    /// collects in the solve. A longer turn, with probability (6/16)^16 = 1.5e-7, is cut
    /// off: the solve brackets every value between the side to act losing its cut turns
    /// (and its opponent winning theirs) and the other way round, and the table keeps the
    /// midpoint ([`SolveStats::truncation`]).
    pub const MOST_AGAIN_THROWS: usize = stored::MOST_AGAIN;

    /// The space of positions with at most `max_pieces` pieces a side on the board
    /// (1 up to the option `pieces`). Fails for a number of pieces out of range.
    pub fn new(rules: Kendall, max_pieces: u8) -> Result<KendallEndgame, EndgameError> {
        let pieces = rules.pieces_per_side();
        if !(1..=pieces).contains(&max_pieces) {
            return Err(EndgameError::Pieces {
                requested: max_pieces,
                max: pieces,
            });
        }
        let k = max_pieces;
        let mut groups = Vec::new();
        let mut group_of = [[[usize::MAX; MOST_PIECES + 1]; MOST_PIECES + 1]; 3];
        let mut start = 0;
        let mut add = |kind: Kind, mine: u8, theirs: u8, start: &mut usize| {
            let (a, b) = (usize::from(mine), usize::from(theirs));
            let (count, stride, mine_count) = shape(kind, a, b);
            group_of[kind as usize][a][b] = groups.len();
            groups.push(Group {
                kind,
                mine,
                theirs,
                start: *start,
                count,
                stride,
                mine_count,
            });
            *start += count;
        };
        let mut layers = Vec::new();
        for sum in 2..=2 * k {
            let layer_start = start;
            for kind in [Kind::Plain, Kind::MustMove] {
                for mine in 1..=k {
                    if let Some(theirs) = sum.checked_sub(mine).filter(|t| (1..=k).contains(t)) {
                        add(kind, mine, theirs, &mut start);
                    }
                }
            }
            layers.push(layer_start..start);
        }
        let without_mine = start;
        let stored = rules.throw_timing() == ThrowTiming::Stored;
        if stored {
            for mine in 1..=k {
                for theirs in 1..=k {
                    add(Kind::MineMust, mine, theirs, &mut start);
                }
            }
            // The solver for stored throws takes the space whole.
            layers = core::iter::once(0..start).collect();
        }
        Ok(KendallEndgame {
            rules,
            max_pieces,
            groups,
            group_of,
            stored,
            without_mine,
            layers,
            total: start,
        })
    }

    /// What a state between two throws is, as this space sees it: the side to act, its
    /// pieces and the other side's as positions (square − 1), and the square of the piece
    /// that must move with whose it is. `None` for states outside the space.
    #[inline]
    fn parts(&self, state: &KendallState) -> Option<Parts> {
        if !state.is_throwing() || state.stored_count() != 0 || !state.white_started() {
            return None;
        }
        let board = state.board();
        let me = state.to_move();
        let them = me.opponent();
        let (mine, theirs) = (board.pieces_of(me), board.pieces_of(them));
        let (a, b) = (mine.len(), theirs.len());
        let (k, n) = (self.max_pieces, self.rules.pieces_per_side());
        if a == 0 || b == 0 || a > k || b > k {
            return None;
        }
        if board.off_count(me) + a != n || board.off_count(them) + b != n {
            return None;
        }
        let must = match (state.must_move(me), state.must_move(them)) {
            (None, None) => None,
            (Some(sq), None) if mine.contains(sq) => Some((Whose::Mine, sq.get())),
            (None, Some(sq)) if theirs.contains(sq) => Some((Whose::Theirs, sq.get())),
            _ => return None,
        };
        if must.is_some_and(|(_, sq)| usize::from(sq) > MUST_MOVE_SQUARES) {
            return None;
        }
        let mine = mine.bits() >> 1;
        if matches!(must, Some((Whose::Theirs, _))) && mine & (1 << WATER) != 0 {
            return None;
        }
        Some(Parts {
            mine,
            theirs: theirs.bits() >> 1,
            a,
            b,
            must,
        })
    }
}

/// Whose piece must move (K-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whose {
    Mine,
    Theirs,
}

/// A state between two throws taken apart (see [`KendallEndgame::parts`]).
struct Parts {
    /// Positions (square − 1) of the pieces of the side to act.
    mine: u32,
    /// Positions of the other side's pieces.
    theirs: u32,
    a: u8,
    b: u8,
    must: Option<(Whose, u8)>,
}

/// The positions of a group of `kind` with `a` pieces of mine and `b` of theirs, the
/// placements of the last-ranked pieces for each placement of the others (the stride), and
/// for must-move groups the placements of the pieces ranked between the two.
fn shape(kind: Kind, a: usize, b: usize) -> (usize, usize, usize) {
    match kind {
        Kind::Plain => {
            let stride = binomial(SQUARES - a, b);
            (binomial(SQUARES, a) * stride, stride, 0)
        }
        Kind::MustMove => {
            let stride = binomial(SQUARES - 1 - a, b - 1);
            // Mine avoid the square of their piece and the water.
            let mine_count = binomial(SQUARES - 2, a);
            (MUST_MOVE_SQUARES * mine_count * stride, stride, mine_count)
        }
        Kind::MineMust => {
            // My piece that must move stands on 1–26, my others anywhere else, theirs
            // anywhere mine leave: either side may be in the water (K-12, K-13).
            let stride = binomial(SQUARES - a, b);
            let mine_count = binomial(SQUARES - 1, a - 1);
            (MUST_MOVE_SQUARES * mine_count * stride, stride, mine_count)
        }
    }
}

impl EndgameRules for Kendall {
    type Space = KendallEndgame;
    const ENDGAME_SPECS: &'static str = "kendall";
    const PEAK_BYTES_PER_POSITION: u64 = 214;

    fn peak_bytes_per_position(&self) -> u64 {
        match self.throw_timing() {
            ThrowTiming::Immediate => Self::PEAK_BYTES_PER_POSITION,
            ThrowTiming::Stored => STORED_PEAK_BYTES_PER_POSITION,
        }
    }

    fn on_disk_peak_bytes_per_position(&self) -> u64 {
        match self.throw_timing() {
            ThrowTiming::Immediate => ON_DISK_PEAK_BYTES_PER_POSITION,
            // Refused on disk: the stored throws' own solver runs.
            ThrowTiming::Stored => STORED_PEAK_BYTES_PER_POSITION,
        }
    }

    fn pieces_solved_quickly(&self) -> u8 {
        match self.throw_timing() {
            ThrowTiming::Immediate => 2,
            ThrowTiming::Stored => 1,
        }
    }

    fn endgame_space(&self, max_pieces: u8) -> Result<KendallEndgame, EndgameError> {
        KendallEndgame::new(*self, max_pieces)
    }
}

impl EndgameSpace for KendallEndgame {
    type Rules = Kendall;

    const LAYOUT: &'static str = "kendall-immediate-endgame-v1";

    fn layout(&self) -> &'static str {
        if self.stored {
            "kendall-stored-endgame-v1"
        } else {
            Self::LAYOUT
        }
    }

    fn solve_own(
        &self,
        options: &SolveOptions,
        checkpoint: Option<&Checkpoint>,
    ) -> Option<Result<(Vec<f64>, SolveStats), EndgameError>> {
        if !self.stored {
            return None;
        }
        Some(stored::solve(self, options, checkpoint))
    }

    fn own_residual(&self, values: &[f64]) -> Option<Result<f64, EndgameError>> {
        let threads = SolveOptions::default().thread_count();
        self.stored.then(|| stored::residual(self, values, threads))
    }

    fn rules(&self) -> &Kendall {
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
    fn index(&self, state: &KendallState) -> Option<usize> {
        let parts = self.parts(state)?;
        let (a, b) = (usize::from(parts.a), usize::from(parts.b));
        match parts.must {
            None => {
                let group = &self.groups[self.group_of[Kind::Plain as usize][a][b]];
                let theirs = compress(parts.theirs, parts.mine);
                Some(group.start + rank(parts.mine) * group.stride + rank(theirs))
            }
            Some((Whose::Theirs, square)) => {
                let group = &self.groups[self.group_of[Kind::MustMove as usize][a][b]];
                let x = u32::from(square) - 1;
                let must = 1u32 << x;
                let mine = compress(parts.mine, must | 1 << WATER);
                let others = compress(parts.theirs & !must, parts.mine | must);
                let outer = x as usize * group.mine_count + rank(mine);
                Some(group.start + outer * group.stride + rank(others))
            }
            Some((Whose::Mine, square)) if self.stored => {
                let group = &self.groups[self.group_of[Kind::MineMust as usize][a][b]];
                let x = u32::from(square) - 1;
                let must = 1u32 << x;
                let others = compress(parts.mine & !must, must);
                let theirs = compress(parts.theirs, parts.mine);
                let outer = x as usize * group.mine_count + rank(others);
                Some(group.start + outer * group.stride + rank(theirs))
            }
            Some((Whose::Mine, _)) => None,
        }
    }

    fn state(&self, index: usize) -> Option<KendallState> {
        if index >= self.total {
            return None;
        }
        let group = self.groups[self.groups.partition_point(|g| g.start + g.count <= index)];
        let offset = index - group.start;
        let (mine, theirs, must) = match group.kind {
            Kind::Plain => {
                let mine = unrank(offset / group.stride, group.mine, SQUARES);
                let theirs = unrank(
                    offset % group.stride,
                    group.theirs,
                    SQUARES - usize::from(group.mine),
                );
                (mine, expand(theirs, mine), None)
            }
            Kind::MustMove => {
                let outer = offset / group.stride;
                let x = outer / group.mine_count;
                let must = 1u32 << x;
                let mine = expand(
                    unrank(outer % group.mine_count, group.mine, SQUARES - 2),
                    must | 1 << WATER,
                );
                let others = unrank(
                    offset % group.stride,
                    group.theirs - 1,
                    SQUARES - 1 - usize::from(group.mine),
                );
                (mine, expand(others, mine | must) | must, Some(x + 1))
            }
            Kind::MineMust => {
                let outer = offset / group.stride;
                let x = outer / group.mine_count;
                let must = 1u32 << x;
                let others = unrank(outer % group.mine_count, group.mine - 1, SQUARES - 1);
                let mine = expand(others, must) | must;
                let theirs = unrank(
                    offset % group.stride,
                    group.theirs,
                    SQUARES - usize::from(group.mine),
                );
                (mine, expand(theirs, mine), Some(x + 1))
            }
        };
        let squares = |positions: u32| SquareSet::from_bits_truncate(positions << 1);
        let board = BitBoard::from_pieces(squares(mine), squares(theirs)).ok()?;
        // The side to act is Black; pieces not on the board are off.
        let mut setup = Setup::new(board, Side::Black);
        if let Some(square) = must {
            let field = match group.kind {
                Kind::MineMust => "must_move_b",
                _ => "must_move_w",
            };
            setup.push_field(field, square);
        }
        self.rules.read_setup(&setup).ok()
    }

    fn passes_through(&self, state: &KendallState) -> bool {
        !self.stored
            && self
                .parts(state)
                .is_some_and(|parts| matches!(parts.must, Some((Whose::Mine, _))))
    }

    /// A side holding 26 and 27 may wait in the water for a 4 while forced moves shuffle
    /// the other side (K-5, K-7, K-9, K-14, K-16): plain sweeps creep there.
    fn slow_cycles(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_kendall::PieceCount;

    fn immediate() -> Kendall {
        Kendall::default().with_throw_timing(ThrowTiming::Immediate)
    }

    #[test]
    fn group_sizes_count_every_position() {
        let space = KendallEndgame::new(immediate(), 2).unwrap();
        let plain = 30 * 29 + 2 * 30 * 406 + 435 * 378;
        let must = 26 * (28 + 28 * 28 + 378 + 378 * 27);
        assert_eq!(space.state_count(), plain + must);
        assert_eq!(space.layers().len(), 3);
        // Stored throws add the turn starts whose piece that must move is mine.
        let stored = KendallEndgame::new(Kendall::default(), 2).unwrap();
        let mine = 26 * (29 + 406 + 29 * 28 + 29 * 378);
        assert_eq!(stored.state_count(), plain + must + mine);
        let layers = stored.layers();
        assert_eq!((layers.len(), layers[0].end), (1, plain + must + mine));
    }

    #[test]
    fn every_index_gives_a_state_that_indexes_back() {
        let stored = Kendall::default();
        for rules in [
            immediate(),
            immediate().with_pieces(PieceCount::Five),
            stored,
        ] {
            let space = KendallEndgame::new(rules, 2).unwrap();
            for index in 0..space.state_count() {
                let state = space.state(index).unwrap();
                assert_eq!(space.index(&state), Some(index), "{index}");
                assert!(!space.passes_through(&state));
                // With stored throws, the turn starts whose piece that must move is mine
                // come last.
                let mine = state.must_move(state.to_move()).is_some();
                assert_eq!(mine, index >= space.without_mine, "{index}");
            }
            assert!(space.state(space.state_count()).is_none());
        }
    }

    #[test]
    fn pieces_out_of_range_are_refused() {
        assert!(KendallEndgame::new(Kendall::default(), 2).is_ok());
        assert!(matches!(
            KendallEndgame::new(Kendall::default(), 0),
            Err(EndgameError::Pieces { requested: 0, .. })
        ));
        assert!(matches!(
            KendallEndgame::new(immediate(), 0),
            Err(EndgameError::Pieces { requested: 0, .. })
        ));
        assert!(matches!(
            KendallEndgame::new(immediate().with_pieces(PieceCount::Five), 6),
            Err(EndgameError::Pieces {
                requested: 6,
                max: 5
            })
        ));
        assert!(KendallEndgame::new(immediate(), 7).is_ok());
    }
}
