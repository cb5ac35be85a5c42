//! Figures that describe a ruleset as a game, measured on played games: who wins, how long
//! games last, how many real decisions they hold, how often the lead changes.
//!
//! Everything here is pure arithmetic on game histories, generic over [`Ruleset`]:
//!
//! - [`pip_count`] is the progress score: how far a side still has to go;
//! - [`GameTracker`] notes what one game did, event by event, without allocating;
//! - [`play_measured`] plays a game with any move chooser and measures it on the way;
//!   [`measure_history`] and [`measure_game`] measure a game already played (a [`Game`] or a
//!   list of [`Action`]s); both give the same [`GameMetrics`];
//! - [`MetricsSummary`] adds up many games, and [`MatchupSummary`] the games of two players
//!   against each other. Both keep integer counts only, so that two summaries of disjoint
//!   batches merge into exactly the summary of both, whatever the order: simulations give
//!   the same figures on any number of threads.
//!
//! # Definitions
//!
//! **Pip count** of a side: the squares its pieces still have to travel to leave the board.
//! A piece on square `s` counts `31 − s` (square 31 is the virtual square one past 30 that a
//! borne-off piece reaches), a piece waiting in hand (Piccione) counts 31, a piece borne off
//! counts 0, and a piece taken out of the game by a capture (Bell) counts 31: it is as far
//! from home as a piece can be and will never get there. So every game ends with the winner
//! ahead on pips (Bell's board is empty at the end, and the side with more pieces off has
//! fewer captured) and a drawn Bell game ends level. The exception is CEMEA's ancient mode,
//! where both sides end with nothing left: there the winner, the first to finish, took the
//! lead when it finished and keeps it on the equal counts that follow.
//!
//! **Turn**: a maximal run of actions (throws and moves) by one side, as
//! [`TurnCounter`] counts them. A **decision** is a move or a pass; throws are not decisions.
//!
//! **Lead**: after each turn (and at the start) the side with the lower pip count leads; on
//! equal counts the previous leader keeps the lead (at the start, nobody leads on equal
//! counts). A **lead change** is a change of leader from one side to the other.
//!
//! **Drama**: the turn ends at which the eventual winner had the higher pip count, and by how
//! many pips it trailed there. **Decided at**: the first turn end from which the eventual
//! winner led until the end of the game, as a share of the game's turns (0 when it led from
//! the start).
//!
//! ```
//! use senet::metrics::{play_measured, pip_count, MetricsSummary};
//! use senet::rand_core::SeedableRng;
//! use senet::{MoveList, Regency, Ruleset, Side, DEFAULT_TURN_CAP, uniform_below};
//! # use rand_chacha::ChaCha8Rng;
//!
//! let rules = Regency::default();
//! // After the forced opening move Black (2, 4, 6, 8, 11) is 6 pips ahead of White (1 … 9).
//! let start = rules.initial_state();
//! assert_eq!(pip_count(&rules, &start, Side::Black), 124);
//! assert_eq!(pip_count(&rules, &start, Side::White), 130);
//!
//! let mut summary = MetricsSummary::default();
//! let mut moves = MoveList::new();
//! for seed in 0..20 {
//!     let mut rng = ChaCha8Rng::seed_from_u64(seed);
//!     let game = play_measured(&rules, start, &mut rng, &mut moves, DEFAULT_TURN_CAP,
//!         |_side, _state, moves, rng| moves[uniform_below(rng, moves.len() as u32) as usize]);
//!     summary.add(&game);
//! }
//! assert_eq!(summary.games.games(), 20);
//! assert!(summary.decision_share().unwrap() > 0.0);
//! ```

use senet_core::rand_core::Rng;
use senet_core::{
    Action, Game, Move, MoveList, PerSide, Phase, PlayError, PlayoutEnd, RecordError, Ruleset,
    Side, ThrowingDevice, TurnCounter, uniform_below,
};

use crate::stats::{Distribution, SimulationSummary, wilson_interval};

/// The virtual square one past 30 that a piece reaches when it is borne off.
pub const EXIT: u32 = 31;

/// The progress score of `side` in `state`: the squares its pieces still have to travel.
///
/// `31 − s` for a piece on square `s`, 31 for a piece in hand, 31 for a piece lost to a
/// capture ([`Ruleset::captured`]), 0 for a piece borne off. Lower is better.
///
/// ```
/// use senet::metrics::pip_count;
/// use senet::{Piccione, Ruleset, Side};
/// // Piccione's pieces all start in hand: 5 × 31.
/// let rules = Piccione;
/// assert_eq!(pip_count(&rules, &rules.initial_state(), Side::White), 155);
/// ```
pub fn pip_count<R: Ruleset>(rules: &R, state: &R::State, side: Side) -> u32 {
    let board = rules.board(state);
    let pieces = board.pieces(side);
    let square_sum: u32 = pieces.iter().map(|sq| u32::from(sq.get())).sum();
    let away = u32::from(board.in_hand(side)) + u32::from(rules.captured(state, side));
    EXIT * u32::from(pieces.len()) - square_sum + EXIT * away
}

/// The pip counts of both sides.
pub fn pip_counts<R: Ruleset>(rules: &R, state: &R::State) -> PerSide<u32> {
    PerSide::from_fn(|side| pip_count(rules, state, side))
}

/// What one game did: its end, its length, its decisions and the course of the lead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameMetrics {
    /// How the game ended: by the rules, or stopped by the turn cap (a history that stops
    /// before the end of the game counts as stopped).
    pub end: PlayoutEnd,
    /// Turns played (runs of actions by one side).
    pub turns: u32,
    /// Decisions made: moves and passes.
    pub decisions: u32,
    /// Decisions at which more than one move was legal.
    pub decisions_with_choice: u32,
    /// The number of legal moves, added over every decision.
    pub legal_moves: u64,
    /// Decisions at which the move played was a pass (a lost throw, or a throw given up).
    pub passes: u32,
    /// Turn ends observed (positions after a turn, the last one being the end of the game).
    pub turn_ends: u32,
    /// Changes of the leader from one side to the other (see the module's definitions).
    pub lead_changes: u32,
    /// Turn ends at which the eventual winner had the higher pip count (0 without a winner).
    pub winner_behind: u32,
    /// The winner's deficit in pips, added over those turn ends.
    pub winner_deficit: u64,
    /// The turn end from which the eventual winner led until the end (0: from the start).
    /// `None` without a winner, or if the winner did not lead at the end.
    pub decided_at: Option<u32>,
}

impl GameMetrics {
    /// The winner, if the game ended by the rules with one.
    pub fn winner(&self) -> Option<Side> {
        match self.end {
            PlayoutEnd::Finished(outcome) => outcome.winner,
            PlayoutEnd::TurnCap => None,
        }
    }

    /// Whether the game ended by the rules.
    pub fn finished(&self) -> bool {
        matches!(self.end, PlayoutEnd::Finished(_))
    }

    /// [`decided_at`](GameMetrics::decided_at) in thousandths of the game's turn ends,
    /// rounded down.
    pub fn decided_at_permille(&self) -> Option<u32> {
        let k = self.decided_at?;
        if self.turn_ends == 0 {
            return Some(0);
        }
        let permille = u64::from(k) * 1000 / u64::from(self.turn_ends);
        u32::try_from(permille.min(1000)).ok()
    }
}

/// Notes what a game does, one event at a time, and gives its [`GameMetrics`] at the end.
///
/// The caller reports the pip counts at the start ([`new`](GameTracker::new)) and after each
/// turn ([`turn_end`](GameTracker::turn_end)), and each decision
/// ([`decision`](GameTracker::decision)). [`play_measured`] and [`measure_history`] do this
/// for a game of any ruleset; the tracker itself needs no ruleset, which makes the
/// definitions testable on hand-made sequences:
///
/// ```
/// use senet::metrics::GameTracker;
/// use senet::{Outcome, PerSide, PlayoutEnd, Side};
///
/// // Black leads at the start, White after turn 1, Black again after turns 2 and 3.
/// let mut tracker = GameTracker::new(PerSide::new(100, 110));
/// tracker.turn_end(PerSide::new(100, 90));
/// tracker.turn_end(PerSide::new(60, 70));
/// tracker.turn_end(PerSide::new(0, 40));
/// let black_wins = PlayoutEnd::Finished(Outcome { winner: Some(Side::Black), points: PerSide::new(1, 0) });
/// let game = tracker.finish(black_wins, 3);
/// assert_eq!(game.lead_changes, 2);
/// assert_eq!((game.winner_behind, game.winner_deficit), (1, 10));
/// assert_eq!(game.decided_at, Some(2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTracker {
    decisions: u32,
    decisions_with_choice: u32,
    legal_moves: u64,
    passes: u32,
    turn_ends: u32,
    leader: Option<Side>,
    lead_changes: u32,
    behind: PerSide<u32>,
    deficit: PerSide<u64>,
    /// The last sample (0 = the start, k = the end of turn k) at which each side did not
    /// hold the lead.
    last_not_leading: PerSide<Option<u32>>,
}

impl GameTracker {
    /// A tracker for a game that starts with these pip counts.
    pub fn new(start: PerSide<u32>) -> GameTracker {
        let mut tracker = GameTracker {
            decisions: 0,
            decisions_with_choice: 0,
            legal_moves: 0,
            passes: 0,
            turn_ends: 0,
            leader: None,
            lead_changes: 0,
            behind: PerSide::both(0),
            deficit: PerSide::both(0),
            last_not_leading: PerSide::both(None),
        };
        tracker.sample(start);
        tracker
    }

    /// Notes a decision: how many moves were legal and which one was played.
    #[inline]
    pub fn decision(&mut self, legal_moves: usize, played: Move) {
        self.decisions = self.decisions.saturating_add(1);
        self.legal_moves = self.legal_moves.saturating_add(legal_moves as u64);
        if legal_moves > 1 {
            self.decisions_with_choice = self.decisions_with_choice.saturating_add(1);
        }
        if played.is_pass() {
            self.passes = self.passes.saturating_add(1);
        }
    }

    /// Notes the pip counts at the end of a turn (the last call is the end of the game).
    #[inline]
    pub fn turn_end(&mut self, pips: PerSide<u32>) {
        self.turn_ends = self.turn_ends.saturating_add(1);
        let [black, white] = pips.into_array();
        for (side, mine, theirs) in [(Side::Black, black, white), (Side::White, white, black)] {
            if mine > theirs {
                self.behind[side] = self.behind[side].saturating_add(1);
                self.deficit[side] = self.deficit[side].saturating_add(u64::from(mine - theirs));
            }
        }
        self.sample(pips);
    }

    /// Updates the leader from the pip counts of sample `self.turn_ends`.
    fn sample(&mut self, pips: PerSide<u32>) {
        let [black, white] = pips.into_array();
        let leader = match black.cmp(&white) {
            core::cmp::Ordering::Less => Some(Side::Black),
            core::cmp::Ordering::Greater => Some(Side::White),
            core::cmp::Ordering::Equal => self.leader,
        };
        if self.leader.is_some() && leader != self.leader {
            self.lead_changes = self.lead_changes.saturating_add(1);
        }
        self.leader = leader;
        for side in Side::BOTH {
            if leader != Some(side) {
                self.last_not_leading[side] = Some(self.turn_ends);
            }
        }
    }

    /// The metrics of the game, which ended with `end` after `turns` turns.
    pub fn finish(&self, end: PlayoutEnd, turns: u32) -> GameMetrics {
        let winner = match end {
            PlayoutEnd::Finished(outcome) => outcome.winner,
            PlayoutEnd::TurnCap => None,
        };
        let (winner_behind, winner_deficit, decided_at) = match winner {
            Some(w) => (
                self.behind[w],
                self.deficit[w],
                match self.last_not_leading[w] {
                    None => Some(0),
                    Some(last) if last < self.turn_ends => Some(last + 1),
                    Some(_) => None,
                },
            ),
            None => (0, 0, None),
        };
        GameMetrics {
            end,
            turns,
            decisions: self.decisions,
            decisions_with_choice: self.decisions_with_choice,
            legal_moves: self.legal_moves,
            passes: self.passes,
            turn_ends: self.turn_ends,
            lead_changes: self.lead_changes,
            winner_behind,
            winner_deficit,
            decided_at,
        }
    }
}

/// Counts turns and takes the pip counts at each turn end, for one game of `R`.
struct Observer<'r, R: Ruleset> {
    rules: &'r R,
    turns: TurnCounter,
    tracker: GameTracker,
}

impl<'r, R: Ruleset> Observer<'r, R> {
    fn new(rules: &'r R, start: &R::State) -> Self {
        Observer {
            rules,
            turns: TurnCounter::default(),
            tracker: GameTracker::new(pip_counts(rules, start)),
        }
    }

    /// Notes that `side` is about to act in `state`; false when that would start a turn
    /// beyond `turn_cap`.
    #[inline]
    fn before_action(&mut self, state: &R::State, side: Side, turn_cap: u32) -> bool {
        if self.turns.observe(side) {
            if self.turns.turns() > turn_cap {
                return false;
            }
            if self.turns.turns() > 1 {
                // The position in which a new turn starts is the end of the previous one.
                self.tracker.turn_end(pip_counts(self.rules, state));
            }
        }
        true
    }

    fn finished(mut self, state: &R::State, end: PlayoutEnd) -> GameMetrics {
        if self.turns.turns() > 0 {
            self.tracker.turn_end(pip_counts(self.rules, state));
        }
        self.tracker.finish(end, self.turns.turns())
    }

    fn stopped(&self, turns: u32) -> GameMetrics {
        self.tracker.finish(PlayoutEnd::TurnCap, turns)
    }
}

/// Plays a game from `start` and measures it: throws come from the ruleset's device drawn
/// from `rng`, and `choose(side, state, moves, rng)` picks the move of `side` among the
/// legal `moves` (never empty; it must return one of them). `moves` is scratch space.
///
/// The game stops, as stopped by the cap, once a side would start turn `turn_cap + 1`, as
/// in [`random_playout`](senet_core::random_playout); with the chooser
/// `moves[uniform_below(rng, moves.len())]` the game played is exactly that of
/// `random_playout` on the same RNG.
pub fn play_measured<R, G, F>(
    rules: &R,
    start: R::State,
    rng: &mut G,
    moves: &mut MoveList,
    turn_cap: u32,
    mut choose: F,
) -> GameMetrics
where
    R: Ruleset,
    G: Rng + ?Sized,
    F: FnMut(Side, &R::State, &MoveList, &mut G) -> Move,
{
    let device = rules.device();
    let mut state = start;
    let mut observer = Observer::new(rules, &state);
    loop {
        match rules.phase(&state) {
            Phase::Over(outcome) => {
                return observer.finished(&state, PlayoutEnd::Finished(outcome));
            }
            Phase::Throw(side) => {
                if !observer.before_action(&state, side, turn_cap) {
                    return observer.stopped(turn_cap);
                }
                rules.throw_unchecked(&mut state, device.sample(rng));
            }
            Phase::Move(side) => {
                if !observer.before_action(&state, side, turn_cap) {
                    return observer.stopped(turn_cap);
                }
                rules.generate_moves(&state, moves);
                let mv = choose(side, &state, moves, rng);
                observer.tracker.decision(moves.len(), mv);
                rules.play_unchecked(&mut state, mv);
            }
        }
    }
}

/// The chooser of random play: uniformly among the legal moves, drawing from `rng` exactly as
/// [`random_playout`](senet_core::random_playout) does.
pub fn uniform_move<G: Rng + ?Sized>(moves: &MoveList, rng: &mut G) -> Move {
    let pick = uniform_below(rng, moves.len() as u32) as usize;
    moves.get(pick).copied().unwrap_or_default()
}

/// Measures random games `indices` (both sides choosing with [`uniform_move`], game `i` on
/// the generator `rng_of_game(i)`) and sums them. Summaries of disjoint ranges
/// [merge](MetricsSummary::merge) into the summary of their union, whatever the split, so
/// the games can be shared out between threads or machines.
///
/// ```
/// use senet::metrics::measure_random_games;
/// use senet::{DEFAULT_TURN_CAP, Regency};
/// use rand_chacha::ChaCha8Rng;
/// use rand_core::SeedableRng;
///
/// let rng_of_game = |i| {
///     let mut rng = ChaCha8Rng::seed_from_u64(7);
///     rng.set_stream(i);
///     rng
/// };
/// let rules = Regency::default();
/// let all = measure_random_games(&rules, 0..20, DEFAULT_TURN_CAP, rng_of_game);
/// let mut split = measure_random_games(&rules, 0..8, DEFAULT_TURN_CAP, rng_of_game);
/// split.merge(&measure_random_games(&rules, 8..20, DEFAULT_TURN_CAP, rng_of_game));
/// assert_eq!(split, all);
/// assert_eq!(all.games.games(), 20);
/// ```
pub fn measure_random_games<R, G>(
    rules: &R,
    indices: core::ops::Range<u64>,
    turn_cap: u32,
    mut rng_of_game: impl FnMut(u64) -> G,
) -> MetricsSummary
where
    R: Ruleset,
    G: Rng,
{
    let mut moves = MoveList::new();
    let mut summary = MetricsSummary::default();
    for index in indices {
        let game = play_measured(
            rules,
            rules.initial_state(),
            &mut rng_of_game(index),
            &mut moves,
            turn_cap,
            |_, _, moves, rng| uniform_move(moves, rng),
        );
        summary.add(&game);
    }
    summary
}

/// Measures a game already played: `actions` replayed from `start`. Every action is
/// checked; the first one that does not replay is an error naming it. A history that stops
/// before the game is over is measured as a game stopped by the turn cap.
///
/// ```
/// use senet::metrics::measure_history;
/// use senet::{Action, Regency, Ruleset};
///
/// let rules = Regency::default();
/// // Black and White each hold one piece, on 29 and 28; Black throws a 1 and bears off.
/// let start = rules.parse_position(&format!("{}WB. b", ".".repeat(27))).unwrap();
/// let history = ["throw 1", "move 29-off"].map(|a| a.parse::<Action>().unwrap());
/// let game = measure_history(&rules, start, &history).unwrap();
/// assert_eq!((game.turns, game.decisions, game.lead_changes), (1, 1, 0));
/// assert!(measure_history(&rules, start, &history[1..]).is_err());
/// ```
pub fn measure_history<R: Ruleset>(
    rules: &R,
    start: R::State,
    actions: &[Action],
) -> Result<GameMetrics, RecordError> {
    rules.validate(&start)?;
    let mut state = start;
    let mut observer = Observer::new(rules, &state);
    let mut moves = MoveList::new();
    for (index, &action) in actions.iter().enumerate() {
        let refused = |source: PlayError| RecordError::Replay {
            index,
            action: action.to_string(),
            source,
        };
        let side = match rules.phase(&state) {
            Phase::Over(_) => return Err(refused(PlayError::GameOver)),
            Phase::Throw(side) | Phase::Move(side) => side,
        };
        match action {
            Action::Throw(value) => {
                // Checked before the turn is counted, so that a refused action leaves no trace.
                let mut next = state;
                rules.try_throw(&mut next, value).map_err(refused)?;
                observer.before_action(&state, side, u32::MAX);
                state = next;
            }
            Action::Move(mv) => {
                rules.generate_moves(&state, &mut moves);
                if !moves.contains(&mv) {
                    let error = match rules.phase(&state) {
                        Phase::Throw(side) => PlayError::ThrowExpected(side),
                        _ => PlayError::IllegalMove { mv, side },
                    };
                    return Err(refused(error));
                }
                observer.before_action(&state, side, u32::MAX);
                observer.tracker.decision(moves.len(), mv);
                rules.play_unchecked(&mut state, mv);
            }
        }
    }
    Ok(match rules.phase(&state) {
        Phase::Over(outcome) => observer.finished(&state, PlayoutEnd::Finished(outcome)),
        _ => {
            let turns = observer.turns.turns();
            observer.stopped(turns)
        }
    })
}

/// Measures a [`Game`]'s history from its start (see [`measure_history`]).
pub fn measure_game<R: Ruleset>(game: &Game<R>) -> Result<GameMetrics, RecordError> {
    measure_history(game.rules(), *game.start(), game.history())
}

/// A count out of a total, with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Proportion {
    /// The successes.
    pub count: u64,
    /// The trials.
    pub total: u64,
}

impl Proportion {
    /// `count` out of `total`.
    pub const fn new(count: u64, total: u64) -> Proportion {
        Proportion { count, total }
    }

    /// The share, if there were trials.
    pub fn value(&self) -> Option<f64> {
        (self.total > 0).then(|| self.count as f64 / self.total as f64)
    }

    /// The 95% Wilson score interval (`(0, 1)` without trials).
    pub fn interval(&self) -> (f64, f64) {
        wilson_interval(self.count, self.total)
    }
}

/// Many games of one ruleset configuration, added up.
///
/// Lengths, outcomes and decisions count every game. The lead (changes, drama, decided at)
/// is measured on the games that ended by the rules, drama and "decided at" on those with a
/// winner. Every field is an integer count, so [`merge`](MetricsSummary::merge) is exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetricsSummary {
    /// Outcomes and lengths (in turns and in decisions) of every game.
    pub games: SimulationSummary,
    /// Lead changes per game that ended by the rules.
    pub lead_changes: Distribution,
    /// [`GameMetrics::decided_at_permille`] per game with a winner that led at the end.
    pub decided_at: Distribution,
    decisions: u64,
    decisions_with_choice: u64,
    legal_moves: u64,
    passes: u64,
    finished_turn_ends: u64,
    decided_turn_ends: u64,
    winner_behind: u64,
    winner_deficit: u64,
}

impl core::iter::Sum for MetricsSummary {
    /// Merges the parts: the summary of all their games, in any order.
    fn sum<I: Iterator<Item = MetricsSummary>>(parts: I) -> MetricsSummary {
        crate::stats::merge_all(parts, MetricsSummary::merge)
    }
}

impl core::iter::Sum for MatchupSummary {
    /// Merges the parts: the summary of all their games, in any order.
    fn sum<I: Iterator<Item = MatchupSummary>>(parts: I) -> MatchupSummary {
        crate::stats::merge_all(parts, MatchupSummary::merge)
    }
}

impl MetricsSummary {
    /// Adds one game.
    pub fn add(&mut self, game: &GameMetrics) {
        self.games.add(&game.end, game.decisions, game.turns);
        self.decisions += u64::from(game.decisions);
        self.decisions_with_choice += u64::from(game.decisions_with_choice);
        self.legal_moves += game.legal_moves;
        self.passes += u64::from(game.passes);
        if game.finished() {
            self.lead_changes.add(game.lead_changes);
            self.finished_turn_ends += u64::from(game.turn_ends);
        }
        if game.winner().is_some() {
            self.decided_turn_ends += u64::from(game.turn_ends);
            self.winner_behind += u64::from(game.winner_behind);
            self.winner_deficit += game.winner_deficit;
        }
        if let Some(permille) = game.decided_at_permille() {
            self.decided_at.add(permille);
        }
    }

    /// Adds every game of `other`.
    pub fn merge(&mut self, other: &MetricsSummary) {
        self.games.merge(&other.games);
        self.lead_changes.merge(&other.lead_changes);
        self.decided_at.merge(&other.decided_at);
        self.decisions += other.decisions;
        self.decisions_with_choice += other.decisions_with_choice;
        self.legal_moves += other.legal_moves;
        self.passes += other.passes;
        self.finished_turn_ends += other.finished_turn_ends;
        self.decided_turn_ends += other.decided_turn_ends;
        self.winner_behind += other.winner_behind;
        self.winner_deficit += other.winner_deficit;
    }

    /// Games that ended by the rules (not stopped by the turn cap).
    pub fn finished(&self) -> u64 {
        self.games.games() - self.games.capped()
    }

    /// Games won by either side.
    pub fn decided(&self) -> u64 {
        self.games.wins(Side::Black) + self.games.wins(Side::White)
    }

    /// Black's (the first mover's) share of the games won by either side.
    pub fn first_mover_wins(&self) -> Proportion {
        Proportion::new(self.games.wins(Side::Black), self.decided())
    }

    /// **Balance**: 1 − |Black's win rate − White's win rate|, both over every game. 1 when
    /// both sides win equally often.
    pub fn balance(&self) -> Option<f64> {
        let games = self.games.games();
        (games > 0).then(|| {
            let black = self.games.wins(Side::Black) as f64;
            let white = self.games.wins(Side::White) as f64;
            1.0 - (black - white).abs() / games as f64
        })
    }

    /// **Advantage** of the first mover: Black's score over the games that ended by the
    /// rules, a win counting 1 and a draw ½. 0.5 is no advantage.
    pub fn advantage(&self) -> Option<f64> {
        let finished = self.finished();
        (finished > 0).then(|| {
            let score = self.games.wins(Side::Black) as f64 + 0.5 * self.games.draws() as f64;
            score / finished as f64
        })
    }

    /// **Completion**: the share of games that ended by the rules before the turn cap.
    pub fn completion(&self) -> Proportion {
        Proportion::new(self.finished(), self.games.games())
    }

    /// **Decisiveness** (how late the game is decided): the mean of
    /// [`GameMetrics::decided_at`] as a share of each game's turns, over the games with a
    /// winner. Near 1: the winner takes the lead for good only at the end.
    pub fn decided_at_mean(&self) -> Option<f64> {
        self.decided_at.mean().map(|permille| permille / 1000.0)
    }

    /// **Duration**: the mean length in turns (games stopped by the cap count the cap).
    pub fn duration(&self) -> Option<f64> {
        self.games.turns.mean()
    }

    /// **Decision moves**: the share of decisions with more than one legal move.
    pub fn decision_share(&self) -> Option<f64> {
        ratio(self.decisions_with_choice, self.decisions)
    }

    /// The mean number of legal moves at a decision (a lone pass counts as one).
    pub fn mean_legal_moves(&self) -> Option<f64> {
        ratio(self.legal_moves, self.decisions)
    }

    /// The share of decisions at which a pass was played.
    pub fn pass_share(&self) -> Option<f64> {
        ratio(self.passes, self.decisions)
    }

    /// Passes per game.
    pub fn passes_per_game(&self) -> Option<f64> {
        ratio(self.passes, self.games.games())
    }

    /// Lead changes per 100 turns, over the games that ended by the rules.
    pub fn lead_changes_per_100_turns(&self) -> Option<f64> {
        (self.finished_turn_ends > 0)
            .then(|| 100.0 * self.lead_changes.sum() as f64 / self.finished_turn_ends as f64)
    }

    /// **Drama**: the share of turn ends, over the games with a winner, at which the
    /// eventual winner trailed on pips.
    pub fn winner_behind_share(&self) -> Option<f64> {
        ratio(self.winner_behind, self.decided_turn_ends)
    }

    /// **Drama**, its severity: the winner's mean deficit in pips at the turn ends where it
    /// trailed.
    pub fn winner_mean_deficit(&self) -> Option<f64> {
        ratio(self.winner_deficit, self.winner_behind)
    }
}

fn ratio(count: u64, total: u64) -> Option<f64> {
    (total > 0).then(|| count as f64 / total as f64)
}

/// The games of two players against each other, by the side player A had.
///
/// Player A is the one whose results are counted (in a skill trace, the stronger one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchupSummary {
    games: PerSide<u64>,
    wins: PerSide<u64>,
    losses: PerSide<u64>,
    capped: PerSide<u64>,
}

impl MatchupSummary {
    /// Adds a game in which player A played `a_side`.
    pub fn add(&mut self, a_side: Side, end: &PlayoutEnd) {
        let i = a_side;
        self.games[i] += 1;
        match end {
            PlayoutEnd::Finished(outcome) => match outcome.winner {
                Some(w) if w == a_side => self.wins[i] += 1,
                Some(_) => self.losses[i] += 1,
                None => {}
            },
            PlayoutEnd::TurnCap => self.capped[i] += 1,
        }
    }

    /// Adds every game of `other`.
    pub fn merge(&mut self, other: &MatchupSummary) {
        for i in Side::BOTH {
            self.games[i] += other.games[i];
            self.wins[i] += other.wins[i];
            self.losses[i] += other.losses[i];
            self.capped[i] += other.capped[i];
        }
    }

    fn pick(counts: PerSide<u64>, side: Option<Side>) -> u64 {
        match side {
            Some(s) => counts[s],
            None => counts[Side::Black] + counts[Side::White],
        }
    }

    /// Games in which A played `side` (`None`: every game).
    pub fn games(&self, side: Option<Side>) -> u64 {
        Self::pick(self.games, side)
    }

    /// A's wins out of the games in which it played `side` (`None`: every game). Draws and
    /// games stopped by the cap are not wins.
    pub fn a_wins(&self, side: Option<Side>) -> Proportion {
        Proportion::new(Self::pick(self.wins, side), self.games(side))
    }

    /// A's losses in those games.
    pub fn a_losses(&self, side: Option<Side>) -> u64 {
        Self::pick(self.losses, side)
    }

    /// Games stopped by the cap among those games.
    pub fn capped(&self, side: Option<Side>) -> u64 {
        Self::pick(self.capped, side)
    }

    /// Draws among those games.
    pub fn draws(&self, side: Option<Side>) -> u64 {
        self.games(side) - Self::pick(self.wins, side) - self.a_losses(side) - self.capped(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use senet_core::Outcome;

    fn won_by(side: Side) -> PlayoutEnd {
        PlayoutEnd::Finished(Outcome {
            winner: Some(side),
            points: PerSide::both(0),
        })
    }

    #[test]
    fn a_game_led_throughout_by_its_winner_is_decided_at_the_start() {
        let mut t = GameTracker::new(PerSide::new(10, 20));
        t.turn_end(PerSide::new(5, 20));
        t.turn_end(PerSide::new(0, 20));
        let g = t.finish(won_by(Side::Black), 2);
        assert_eq!(g.lead_changes, 0);
        assert_eq!(g.decided_at, Some(0));
        assert_eq!(g.decided_at_permille(), Some(0));
        assert_eq!((g.winner_behind, g.winner_deficit), (0, 0));
    }

    #[test]
    fn equal_counts_keep_the_previous_leader_and_nobody_leads_a_level_start() {
        // Level start (Piccione): no leader; White leads, level (White keeps it), Black.
        let mut t = GameTracker::new(PerSide::new(155, 155));
        t.turn_end(PerSide::new(155, 150));
        t.turn_end(PerSide::new(120, 120));
        t.turn_end(PerSide::new(100, 110));
        t.turn_end(PerSide::new(0, 30));
        let g = t.finish(won_by(Side::Black), 4);
        assert_eq!(g.lead_changes, 1);
        // Black did not lead at the start (nobody did), nor after turns 1 and 2.
        assert_eq!(g.decided_at, Some(3));
        assert_eq!(g.decided_at_permille(), Some(750));
        assert_eq!((g.winner_behind, g.winner_deficit), (1, 5));
    }

    #[test]
    fn a_winner_that_does_not_lead_at_the_end_has_no_decision_point() {
        let mut t = GameTracker::new(PerSide::new(10, 10));
        t.turn_end(PerSide::new(20, 10));
        let g = t.finish(won_by(Side::Black), 1);
        assert_eq!(g.decided_at, None);
        assert_eq!(g.decided_at_permille(), None);
    }

    #[test]
    fn capped_games_and_draws_have_no_winner_figures() {
        let mut t = GameTracker::new(PerSide::new(10, 20));
        t.turn_end(PerSide::new(30, 20));
        let capped = t.finish(PlayoutEnd::TurnCap, 1);
        assert_eq!(capped.winner(), None);
        assert!(!capped.finished());
        assert_eq!((capped.winner_behind, capped.decided_at), (0, None));
        assert_eq!(capped.lead_changes, 1);
        let draw = t.finish(
            PlayoutEnd::Finished(Outcome {
                winner: None,
                points: PerSide::both(3),
            }),
            1,
        );
        assert!(draw.finished());
        assert_eq!((draw.winner_behind, draw.decided_at), (0, None));
    }

    #[test]
    fn decisions_count_choices_legal_moves_and_passes() {
        let mut t = GameTracker::new(PerSide::new(1, 1));
        let mv: Move = "9-12".parse().unwrap();
        t.decision(1, Move::PASS);
        t.decision(3, mv);
        t.decision(2, "pass/4".parse().unwrap());
        t.decision(1, mv);
        let g = t.finish(PlayoutEnd::TurnCap, 0);
        assert_eq!(g.decisions, 4);
        assert_eq!(g.decisions_with_choice, 2);
        assert_eq!(g.legal_moves, 7);
        assert_eq!(g.passes, 2);
    }

    fn metrics(end: PlayoutEnd, turns: u32, decisions: u32) -> GameMetrics {
        GameMetrics {
            end,
            turns,
            decisions,
            decisions_with_choice: decisions / 2,
            legal_moves: u64::from(decisions) * 3,
            passes: 1,
            turn_ends: turns,
            lead_changes: turns / 10,
            winner_behind: turns / 4,
            winner_deficit: u64::from(turns),
            decided_at: Some(turns / 2),
        }
    }

    #[test]
    fn summary_figures_follow_their_definitions() {
        let mut s = MetricsSummary::default();
        // Black wins 3, White 1, one draw, one stopped by the cap.
        s.add(&metrics(won_by(Side::Black), 100, 200));
        s.add(&metrics(won_by(Side::Black), 40, 80));
        s.add(&metrics(won_by(Side::Black), 60, 100));
        s.add(&metrics(won_by(Side::White), 20, 20));
        let draw = PlayoutEnd::Finished(Outcome {
            winner: None,
            points: PerSide::both(1),
        });
        let mut drawn = metrics(draw, 30, 50);
        (drawn.winner_behind, drawn.winner_deficit, drawn.decided_at) = (0, 0, None);
        s.add(&drawn);
        let mut capped = metrics(PlayoutEnd::TurnCap, 1000, 1500);
        (
            capped.winner_behind,
            capped.winner_deficit,
            capped.decided_at,
        ) = (0, 0, None);
        s.add(&capped);

        assert_eq!(s.games.games(), 6);
        assert_eq!(s.first_mover_wins(), Proportion::new(3, 4));
        assert_eq!(s.balance(), Some(1.0 - 2.0 / 6.0));
        assert_eq!(s.advantage(), Some(3.5 / 5.0));
        assert_eq!(s.completion(), Proportion::new(5, 6));
        assert_eq!(s.duration(), Some(1250.0 / 6.0));
        // 1950 decisions: 975 with a choice, 5850 legal moves, 6 passes.
        assert_eq!(s.decision_share(), Some(0.5));
        assert_eq!(s.mean_legal_moves(), Some(3.0));
        assert_eq!(s.pass_share(), Some(6.0 / 1950.0));
        assert_eq!(s.passes_per_game(), Some(1.0));
        // Lead changes over the five finished games: 10, 4, 6, 2, 3 in 250 turns.
        assert_eq!(s.lead_changes.mean(), Some(5.0));
        assert_eq!(s.lead_changes_per_100_turns(), Some(10.0));
        // Drama over the four decided games: 25 + 10 + 15 + 5 = 55 of 220 turn ends,
        // 100 + 40 + 60 + 20 = 220 pips.
        assert_eq!(s.winner_behind_share(), Some(0.25));
        assert_eq!(s.winner_mean_deficit(), Some(4.0));
        // Every decided game was decided halfway.
        assert_eq!(s.decided_at_mean(), Some(0.5));
        assert_eq!(s.decided_at.count(), 4);
    }

    #[test]
    fn an_empty_summary_has_no_figures() {
        let s = MetricsSummary::default();
        assert_eq!(s.balance(), None);
        assert_eq!(s.advantage(), None);
        assert_eq!(s.completion().value(), None);
        assert_eq!(s.decision_share(), None);
        assert_eq!(s.winner_mean_deficit(), None);
        assert_eq!(s.first_mover_wins().interval(), (0.0, 1.0));
    }

    #[test]
    fn summaries_merge_exactly_in_any_order() {
        let ends = [
            won_by(Side::Black),
            won_by(Side::White),
            PlayoutEnd::TurnCap,
        ];
        let games: Vec<GameMetrics> = (0..60u32)
            .map(|i| metrics(ends[(i % 3) as usize], 10 + i * 7 % 90, 20 + i * 13 % 200))
            .collect();
        let mut all = MetricsSummary::default();
        for g in &games {
            all.add(g);
        }
        for chunk in [1, 7, 60] {
            let mut parts: Vec<MetricsSummary> = games
                .chunks(chunk)
                .map(|c| {
                    let mut s = MetricsSummary::default();
                    c.iter().for_each(|g| s.add(g));
                    s
                })
                .collect();
            parts.reverse();
            let mut merged = MetricsSummary::default();
            for p in &parts {
                merged.merge(p);
            }
            assert_eq!(merged, all, "chunks of {chunk}");
        }
    }

    #[test]
    fn matchups_count_by_the_side_of_player_a() {
        let mut m = MatchupSummary::default();
        m.add(Side::Black, &won_by(Side::Black));
        m.add(Side::Black, &won_by(Side::White));
        m.add(Side::White, &won_by(Side::White));
        m.add(Side::White, &PlayoutEnd::TurnCap);
        m.add(
            Side::White,
            &PlayoutEnd::Finished(Outcome {
                winner: None,
                points: PerSide::both(0),
            }),
        );
        assert_eq!(m.a_wins(Some(Side::Black)), Proportion::new(1, 2));
        assert_eq!(m.a_wins(Some(Side::White)), Proportion::new(1, 3));
        assert_eq!(m.a_wins(None), Proportion::new(2, 5));
        assert_eq!(m.a_losses(None), 1);
        assert_eq!(m.capped(Some(Side::White)), 1);
        assert_eq!(m.draws(Some(Side::White)), 1);
        assert_eq!(m.draws(Some(Side::Black)), 0);
        let mut twice = m;
        twice.merge(&m);
        assert_eq!(twice.a_wins(None), Proportion::new(4, 10));
    }
}
