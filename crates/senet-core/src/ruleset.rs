//! The ruleset trait: the turn machine every reconstruction plugs into.

use crate::prelude::*;
use core::fmt;
use core::hash::Hash;

use crate::board::{BitBoard, SpecialSquares};
use crate::error::{PlayError, PositionError, SpecError};
use crate::moves::{Move, MoveList};
use crate::opening::SeatRule;
use crate::setup::{FieldInfo, Setup};
use crate::side::{PerSide, Side};
use crate::spec::{OptionInfo, RulesetSpec};
use crate::throw::{Throw, ThrowingDevice, uniform_below};
use rand_core::Rng;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Points per side. Their meaning is the ruleset's: the
    /// winner's score (Regency, Jéquier), the loser's penalty as a negative number
    /// (Botermans), pieces borne off (Bell)… Each ruleset documents it.
    pub points: PerSide<i32>,
}

impl Outcome {
    /// The points of `side`.
    pub const fn points_of(&self, side: Side) -> i32 {
        self.points.get(side)
    }

    /// What the game is worth to `side` as a probability of winning: 1 for a win, 0 for a
    /// loss, ½ for a draw (the value players and the endgame solver give a finished game).
    ///
    /// ```
    /// use senet_core::{Outcome, PerSide, Side};
    /// let won = Outcome { winner: Some(Side::Black), points: PerSide::new(7, 0) };
    /// assert_eq!((won.value_for(Side::Black), won.value_for(Side::White)), (1.0, 0.0));
    /// let drawn = Outcome { winner: None, points: PerSide::both(0) };
    /// assert_eq!(drawn.value_for(Side::White), 0.5);
    /// ```
    #[inline]
    pub fn value_for(&self, side: Side) -> f64 {
        match self.winner {
            Some(winner) if winner == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// The result in words, as the `senet` command prints it.
///
/// ```
/// use senet_core::{Outcome, PerSide, Phase, Side};
/// let won = Outcome { winner: Some(Side::Black), points: PerSide::new(7, 0) };
/// assert_eq!(won.to_string(), "Black wins (points: Black 7, White 0)");
/// let drawn = Outcome { winner: None, points: PerSide::both(0) };
/// assert_eq!(drawn.to_string(), "a draw (points: Black 0, White 0)");
/// assert_eq!(Phase::Over(drawn).to_string(), drawn.to_string());
/// ```
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins")?,
            None => f.write_str("a draw")?,
        }
        write!(
            f,
            " (points: Black {}, White {})",
            self.points_of(Side::Black),
            self.points_of(Side::White)
        )
    }
}

/// What the game is waiting for: a throw (chance acts), a move (a player decides), or
/// nothing (the game is over).
///
/// Chance is an explicit actor, as in OpenSpiel: in [`Phase::Throw`] the next step is a value
/// from the ruleset's throwing device (sampled or chosen by a search engine from the exact
/// outcome table); in [`Phase::Move`] the side chooses among the generated moves, which always
/// include at least one entry (an explicit [`Move::PASS`] when nothing else is legal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `Side` throws next.
    Throw(Side),
    /// `Side` chooses a move next.
    Move(Side),
    /// The game has ended.
    Over(Outcome),
}

impl Phase {
    /// The side acting next, unless the game is over.
    pub const fn side(self) -> Option<Side> {
        match self {
            Phase::Throw(s) | Phase::Move(s) => Some(s),
            Phase::Over(_) => None,
        }
    }
}

/// What comes next, in words: `Black to throw`, `White to move`, or the outcome.
///
/// ```
/// use senet_core::{Phase, Side};
/// assert_eq!(Phase::Throw(Side::Black).to_string(), "Black to throw");
/// assert_eq!(Phase::Move(Side::White).to_string(), "White to move");
/// ```
impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Throw(side) => write!(f, "{side} to throw"),
            Phase::Move(side) => write!(f, "{side} to move"),
            Phase::Over(outcome) => outcome.fmt(f),
        }
    }
}

/// A reconstruction of the rules of Senet.
///
/// A ruleset is a small configured value (its options); the game itself lives in
/// [`Ruleset::State`], a `Copy` value holding the [`BitBoard`] and whatever else the rules
/// need to remember (the pending throw, stored throws, a stranded piece, unmoved pieces,
/// pieces in hand…). The methods form a turn machine:
///
/// 1. [`phase`](Ruleset::phase) says who acts and whether a throw or a move comes next;
/// 2. [`throw_unchecked`](Ruleset::throw_unchecked) records a throw;
/// 3. [`generate_moves`](Ruleset::generate_moves) lists the legal moves into a reused
///    [`MoveList`] without allocating; a side that must move always gets at least one entry;
/// 4. [`play_unchecked`](Ruleset::play_unchecked) applies one of them with every consequence
///    (swaps, returns, extra throws, the end of the turn).
///
/// The `unchecked` methods are the fast path for engines that only feed them generated
/// moves and device values. [`try_throw`](Ruleset::try_throw) and
/// [`try_play`](Ruleset::try_play) check first and leave the state unchanged on error;
/// [`Game`](crate::Game) wraps them with a history.
///
/// Options that change legality are part of the ruleset value and act inside
/// `generate_moves`, never as a filter afterwards.
pub trait Ruleset: Clone + fmt::Debug + Send + Sync + 'static {
    /// Everything a position of this ruleset consists of. Small and `Copy`.
    type State: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// The sticks or die this ruleset throws.
    type Device: ThrowingDevice;

    /// The id used in specifications and records, e.g. `regency`.
    const ID: &'static str;
    /// A human-readable name, e.g. `Regency ("simple" Senet)`.
    const NAME: &'static str;
    /// The revision of this ruleset's behaviour, starting at 1. It goes up by one whenever a
    /// seeded game can come out differently: a rule, an interpretation or an option changed,
    /// moves generated in another order, the device sampled differently. Each ruleset's
    /// checked-in golden playthroughs (`tests/golden/` of the `senet` facade) record it, and
    /// their test fails when a game changes while the revision stays the same.
    ///
    /// Game records store it ([`GameRecord::revision`](crate::GameRecord::revision)), and
    /// [`Game::from_record`](crate::Game::from_record) refuses a record written under another
    /// revision with [`RecordError::Revision`](crate::RecordError::Revision): its actions might
    /// replay, but not necessarily into the game that was recorded.
    const RULES_REVISION: u32;

    /// The rules in prose (Markdown, each rule under its id), for a program to show its
    /// players: `senet rules <id>` prints it and `senet serve`'s page has a panel for it.
    /// The ruleset crates keep it in their `RULES.md`, the rules and interpretations of
    /// `docs/rules/<id>.md` word for word. Empty for a ruleset that gives none.
    const RULES_TEXT: &'static str = "";
    /// The options the ruleset accepts; the first value of each is its default.
    const OPTIONS: &'static [OptionInfo];
    /// The position fields beyond board and side, documented one by one: accepted values, the
    /// meaning of leaving the field out, and what it records. [`Setup::check_fields`] rejects
    /// any other name, and `senet rules` and `docs/notation.md` list these.
    const FIELD_INFO: &'static [FieldInfo] = &[];
    /// How the opening throws decide who plays the even set (see [`draw_seats`](crate::draw_seats)).
    const SEAT_RULE: SeatRule;

    /// Configures the ruleset from a specification such as `regency(house_of_water=true)`.
    fn from_spec(spec: &RulesetSpec) -> Result<Self, SpecError>;

    /// The canonical specification of this configuration (options at their defaults are
    /// left out); `from_spec(&r.spec())` gives back an equal ruleset.
    fn spec(&self) -> RulesetSpec;

    /// The throwing device, whose outcome table gives the exact chance of each throw.
    fn device(&self) -> Self::Device;

    /// Pieces each side plays with.
    fn pieces_per_side(&self) -> u8;

    /// Pieces of `side` that have left the game without being borne off: captured pieces, in
    /// rulesets where a capture removes the piece for good (Bell). With the pieces on the
    /// board, off and in hand they make up [`pieces_per_side`](Ruleset::pieces_per_side).
    /// The default, 0, fits every ruleset in which pieces only leave by being borne off.
    fn captured(&self, state: &Self::State, side: Side) -> u8 {
        let _ = (state, side);
        0
    }

    /// The names of what a state remembers beyond its board, piece counters and side to act
    /// (the pending throw, held throws, rule memories), in the order
    /// [`state_features`](Ruleset::state_features) writes them: the inputs a learned evaluator
    /// needs to tell apart two states with the same board. Empty by default; a house ruleset
    /// that leaves it empty still trains, from the board alone.
    const STATE_FEATURES: &'static [&'static str] = &[];

    /// Writes one number in `[0, 1]` per entry of [`STATE_FEATURES`](Ruleset::STATE_FEATURES)
    /// into `out` (at least that long), seen from `side`: facts about `side` before facts about
    /// its opponent. It must not allocate (evaluators call it at every leaf of a search).
    fn state_features(&self, state: &Self::State, side: Side, out: &mut [f32]) {
        let _ = (state, side, out);
    }

    /// The position in which the first throw of the game is made. Where the rules force an
    /// opening move with the throw that assigned the sets, that move has been made.
    fn initial_state(&self) -> Self::State;

    /// The board of a state.
    fn board<'s>(&self, state: &'s Self::State) -> &'s BitBoard;

    /// What comes next in `state`.
    fn phase(&self, state: &Self::State) -> Phase;

    /// Records a throw. Only valid in [`Phase::Throw`] with a value the device can show;
    /// otherwise the resulting state is unspecified (but never undefined behaviour).
    fn throw_unchecked(&self, state: &mut Self::State, value: Throw);

    /// Clears `moves` and fills it with every legal move of the side to move. In
    /// [`Phase::Move`] the list is never empty; in other phases it is left empty.
    fn generate_moves(&self, state: &Self::State, moves: &mut MoveList);

    /// Applies a move from [`generate_moves`](Ruleset::generate_moves) with all its
    /// consequences. With any other move the resulting state is unspecified (but never
    /// undefined behaviour).
    fn play_unchecked(&self, state: &mut Self::State, mv: Move);

    /// Checks that a state can occur under this ruleset (piece counts, squares no piece can
    /// stand on, pending throws the device cannot show…).
    fn validate(&self, state: &Self::State) -> Result<(), PositionError>;

    /// Writes a state in the position notation, fields at their defaults left out.
    fn to_setup(&self, state: &Self::State) -> Setup;

    /// Reads a state from the position notation, filling in defaults, and validates it.
    fn read_setup(&self, setup: &Setup) -> Result<Self::State, PositionError>;

    /// `state`, once it passes [`validate`](Ruleset::validate): how
    /// [`read_setup`](Ruleset::read_setup) ends.
    fn validated(&self, state: Self::State) -> Result<Self::State, PositionError> {
        self.validate(&state)?;
        Ok(state)
    }

    /// Plays a uniformly random legal move in [`Phase::Move`]: the move at
    /// [`uniform_below`]`(rng, n)` among the `n` that
    /// [`generate_moves`](Ruleset::generate_moves) lists, with that one draw from `rng`, as
    /// [`random_playout`](crate::random_playout) and the random rollouts of search players
    /// do. `moves` is scratch space. A ruleset may override it to play the same move without
    /// listing every move (the property suite checks that random games stay the same), and
    /// fall back on [`play_random_from_list`], the default, where it cannot. Outside the move
    /// phase it plays what [`play_unchecked`](Ruleset::play_unchecked) would play with the
    /// first listed move or a pass.
    ///
    /// ```
    /// use senet_core::{MoveList, Phase, Ruleset, ThrowingDevice};
    /// # fn demo<R: Ruleset>(rules: R, rng: &mut impl rand_core::Rng) {
    /// let mut state = rules.initial_state();
    /// while let Phase::Throw(_) = rules.phase(&state) {
    ///     rules.throw_unchecked(&mut state, rules.device().sample(rng));
    /// }
    /// rules.play_random_move(&mut state, rng, &mut MoveList::new());
    /// # }
    /// ```
    #[inline]
    fn play_random_move<G: Rng + ?Sized>(
        &self,
        state: &mut Self::State,
        rng: &mut G,
        moves: &mut MoveList,
    ) {
        play_random_from_list(self, state, rng, moves);
    }

    /// Whether `mv` is legal in `state` (false outside [`Phase::Move`]).
    fn is_legal(&self, state: &Self::State, mv: Move) -> bool {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves.contains(&mv)
    }

    /// The legal moves in a fresh list (see [`generate_moves`](Ruleset::generate_moves)).
    fn legal_moves(&self, state: &Self::State) -> MoveList {
        let mut moves = MoveList::new();
        self.generate_moves(state, &mut moves);
        moves
    }

    /// Records a throw after checking the phase and the value; on error `state` is unchanged.
    fn try_throw(&self, state: &mut Self::State, value: Throw) -> Result<(), PlayError> {
        match self.phase(state) {
            Phase::Over(_) => Err(PlayError::GameOver),
            Phase::Move(side) => Err(PlayError::MoveExpected(side)),
            Phase::Throw(_) if !self.device().can_show(value) => {
                Err(PlayError::ImpossibleThrow(value))
            }
            Phase::Throw(_) => {
                self.throw_unchecked(state, value);
                Ok(())
            }
        }
    }

    /// Applies a move after checking that it is legal; on error `state` is unchanged.
    fn try_play(&self, state: &mut Self::State, mv: Move) -> Result<(), PlayError> {
        match self.phase(state) {
            Phase::Over(_) => Err(PlayError::GameOver),
            Phase::Throw(side) => Err(PlayError::ThrowExpected(side)),
            Phase::Move(side) => {
                if self.is_legal(state, mv) {
                    self.play_unchecked(state, mv);
                    Ok(())
                } else {
                    Err(PlayError::IllegalMove { mv, side })
                }
            }
        }
    }

    /// The outcome, once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        match self.phase(state) {
            Phase::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// The state in the position notation.
    fn position_string(&self, state: &Self::State) -> String {
        self.to_setup(state).to_string()
    }

    /// The squares with a rule of their own under this configuration (safe squares, the
    /// water, squares that send a piece elsewhere or earn a throw…), for diagrams. A mark is
    /// informative only: the rules act in `generate_moves` and `play_unchecked`.
    fn special_squares(&self) -> &'static [SpecialSquares] {
        &[]
    }

    /// The board of `state` as its three rows, with the [special squares](Self::special_squares)
    /// marked and explained underneath (see [`BitBoard::diagram_marked`]).
    fn diagram(&self, state: &Self::State) -> String {
        self.board(state).diagram_marked(self.special_squares())
    }

    /// Reads and validates a state written in the position notation.
    fn parse_position(&self, text: &str) -> Result<Self::State, PositionError> {
        self.read_setup(&text.parse()?)
    }
}

/// [`Ruleset::play_random_move`] by listing the moves: [`generate_moves`](Ruleset::generate_moves)
/// into `moves`, one [`uniform_below`] draw from `rng`, and
/// [`play_unchecked`](Ruleset::play_unchecked) of the move drawn.
#[inline]
pub fn play_random_from_list<R: Ruleset, G: Rng + ?Sized>(
    rules: &R,
    state: &mut R::State,
    rng: &mut G,
    moves: &mut MoveList,
) {
    rules.generate_moves(state, moves);
    let pick = uniform_below(rng, moves.len() as u32) as usize;
    // The list is never empty in the move phase; fall back to a pass if a ruleset breaks that
    // promise rather than index out of bounds.
    let mv = moves.get(pick).copied().unwrap_or_default();
    rules.play_unchecked(state, mv);
}
