//! Kendall's endgames with stored throws (K-4), solved a turn at a time.
//!
//! A turn collects throws until a 2 or a 3 and then spends them, one move each, in the order
//! the player likes. Nobody decides anything while the throws are collected, so the value of
//! a position at the start of a turn is
//!
//! ```text
//! V(s) = Σ_M p(M) · W(s, M)        W(b, R) = max over the moves m of b with R:
//!                                              1 − V(turn start after m)   if m ends the turn
//!                                              W(b after m, R − throw(m))   otherwise
//! ```
//!
//! over the multisets `M` a turn can collect: `a` ones, `b` fours and `c` fives (each
//! "throw again", K-4) and the 2 or 3 that ends the throwing, with probability
//! `(a+b+c)! / (a! b! c!) · (4/16)^a (1/16)^b (1/16)^c · p(2 or 3)` (K-2). `W` is the value,
//! for the side to act, of a position between two moves of a turn: the board and the throws
//! `R` still to spend.
//!
//! The positions at the start of a turn are those of [`KendallEndgame`] with stored throws;
//! the positions between two moves are boards of the same space (the side to act, its
//! opponent's piece that must move) paired with every multiset `R`. Those are far too many to
//! keep (485,956 boards × 1,679 multisets with 2 pieces a side), so a sweep computes `W` one
//! *level* of `|R|` at a time, each level from the one below, and keeps two levels only.
//!
//! **Sweeps.** A sweep gives every `V` from the values of the turns that follow, which are
//! the other side's. Where a side waits in the water for a 4 (K-14) while the other moves,
//! plain sweeps creep: from the previous sweep's values alone, with 2 pieces a side, the
//! largest change shrank by only 0.989 a sweep and repeated itself every other sweep (slow
//! modes in pairs, one of them flipping sign each sweep). Two things speed them up. The two
//! bounds below read only each other, so a sweep computes the lower one from the upper and
//! then the upper one from the new lower (Gauss–Seidel between the halves). And the sweeps
//! are combined by Anderson's method ([`Anderson`]): each new iterate is the combination of
//! the last sweeps' results that best cancels their changes. Every [`ANDERSON_ROUNDS`]th
//! sweep is a plain one that starts the method afresh; only there is a checkpoint saved.
//! The solve stops when one sweep changes no value by more than the tolerance, as a plain
//! one would. With one piece a side: 24 sweeps, where plain ones from the previous sweep's
//! values took 68, plain ones of the halves in turn 35.
//!
//! **What is left out.** A turn may collect up to 60 throws (item 9 of the gaps in
//! `docs/rules/kendall.md`); the multisets kept hold at most [`MOST_AGAIN`] throws of 1, 4 or
//! 5, and a turn that collects more (probability `(6/16)^(MOST_AGAIN + 1)`, about 1.5e-7) is
//! cut off. Two values are solved for every turn start, together: a lower bound, where the
//! side to act loses its own cut turns and its opponent wins theirs, and an upper bound,
//! the other way round (`L = T₀(U)`, `U = T₁(L)`, `T_t` counting a cut turn of the side to act
//! as `t`). Plain sweeps from `L = 0` and `U = 1` keep the game's value between the two at
//! every sweep, as a sweep is monotone in the values and in `t`, so their limits bracket it;
//! the accelerated sweeps end at the same limits (with one piece a side, the midpoints of
//! plain and accelerated sweeps agree to 3.6e-8). [`SolveStats::truncation`] is half the
//! largest difference of the bounds the solve ends with. That is no proof: Anderson's steps
//! are not monotone, the solve stops on a change of 2e-7 where values creep, and the cells
//! are rounded to `f32`.
//!
//! **What is proven.** So the bounds are then proven ([`Turns::prove`]): moved apart by the
//! tolerance, they are swept plainly with `f64` cells, each new lower bound moved down and
//! each new upper bound up by more than a sweep's rounding error, until a sweep raises no
//! upper bound (and so, the lower bound reading the upper one, lowers no lower bound). Each
//! lower bound is then strictly below its turn counted with the cut turns lost, from the
//! upper bounds, and each upper bound strictly above its turn counted with them won: by
//! Everett's argument (see what the [solver](crate::solver#what-it-guarantees)
//! guarantees) the game's value, endless play a draw and no turn cut, lies between them.
//! Brackets not proven in 8 sweeps start again sixteen times wider; proven ones are swept
//! on while they close by a tenth a sweep, 8 times at most. The table keeps the middle of
//! each bracket and [`SolveStats::error_bound`] the widest half (one piece a side: 1.7e-6,
//! most of it the cut turns').
//!
//! **Checkpoints.** With a [`Checkpoint`] both bounds are one layer of the generic
//! checkpoint file, saved at the plain sweeps after [`Checkpoint::every`]. A resumed solve
//! ends with the values of one never stopped.
//!
//! **What is assumed, and tested.** Which moves a throw `t` allows depends on the board and
//! on which values are held (a 4 held lets a piece in the water wait, K-14; K-15 asks whether
//! any held throw can move the piece that must move), not on how many of each: the solver
//! asks the ruleset once for every set of values held. A move's result depends only on the
//! board. The tests check the values against the ruleset's own turn, expanded throw by throw
//! and move by move.

use crate::clock::Instant;

use senet_core::{Move, MoveList, Phase, Ruleset, Setup, Side, ThrowingDevice};
use senet_kendall::{Kendall, KendallState};

use super::KendallEndgame;
use crate::solver::{Anderson, Extrapolation, InLayer, Keeper, in_chunks};
use crate::table::largest_difference;
use crate::{
    Checkpoint, EndgameError, EndgameSpace, SolveEvent, SolveMethod, SolveOptions, SolveStats,
};

/// The most throws of 1, 4 or 5 a turn's multisets keep (see the module documentation).
pub(super) const MOST_AGAIN: usize = 15;

/// A move's end: the game is won.
const WIN: u32 = u32::MAX;
/// A move's continuation when the move ends the turn (K-13, K-14) or wins.
const ENDED: u32 = u32::MAX;

/// A move of a position between two moves, and where it leads.
#[derive(Clone, Copy, Debug)]
struct Effect {
    /// The throw it spends (0: the plain pass that gives up every throw, K-5).
    throw: u8,
    /// The position between two moves it leads to when throws are left ([`ENDED`] when the
    /// move ends the turn or the game).
    next: u32,
    /// The turn start it leads to when no throw is left or the move ends the turn (the
    /// opponent's, looked up as `1 − V`), or [`WIN`].
    end: u32,
}

/// Every position's moves: `effects[first[i]..first[i + 1]]`, and for every set of values
/// held (bit `v` for a `v`) which of them are legal (`masks[i * SETS + set]`, bit `j` for
/// the `j`-th move). While it is built, each thread fills one without the last `first`.
#[derive(Default)]
struct TurnGraph {
    first: Vec<u32>,
    effects: Vec<Effect>,
    masks: Vec<u32>,
}

/// Sets of values held: bits 1 to 5.
const SETS: usize = 64;

impl TurnGraph {
    fn build(space: &KendallEndgame, threads: usize) -> Result<TurnGraph, EndgameError> {
        let count = space.state_count();
        let chunk = count.div_ceil(threads.max(1) * 8).max(1);
        let starts: Vec<usize> = (0..count).step_by(chunk).collect();
        let parts = in_chunks(&starts, threads, |start| {
            let mut part = TurnGraph::default();
            for index in start..(start + chunk).min(count) {
                node_moves(space, index, &mut part)?;
            }
            Ok(part)
        })?;
        let mut graph = TurnGraph {
            first: Vec::with_capacity(count + 1),
            effects: Vec::new(),
            masks: Vec::with_capacity(count * SETS),
        };
        for part in parts {
            let base = graph.effects.len() as u32;
            graph.first.extend(part.first.iter().map(|&f| base + f));
            graph.effects.extend(part.effects);
            graph.masks.extend(part.masks);
        }
        graph.first.push(graph.effects.len() as u32);
        Ok(graph)
    }

    /// The moves of position `i` and their masks.
    #[inline]
    fn of(&self, i: usize) -> (&[Effect], &[u32]) {
        let effects = &self.effects[self.first[i] as usize..self.first[i + 1] as usize];
        (effects, &self.masks[i * SETS..(i + 1) * SETS])
    }
}

/// Lists the moves of position `index` for every set of values held.
fn node_moves(
    space: &KendallEndgame,
    index: usize,
    part: &mut TurnGraph,
) -> Result<(), EndgameError> {
    let rules = space.rules();
    let start = space
        .state(index)
        .ok_or_else(|| EndgameError::Inconsistent {
            index,
            reason: "no state for this index".to_string(),
        })?;
    part.first.push(part.effects.len() as u32);
    let mut seen: Vec<Move> = Vec::new();
    let mut masks = [0u32; SETS];
    let mut moves = MoveList::new();
    for (set, mask) in masks.iter_mut().enumerate() {
        // Bit 0 means nothing; a 2 and a 3 are never held together (K-4).
        if set == 0 || set & 1 != 0 || set & 0b1100 == 0b1100 {
            continue;
        }
        let held = holding(rules, &start, &values_of(set))?;
        rules.generate_moves(&held, &mut moves);
        for &mv in moves.iter() {
            let slot = match seen.iter().position(|&m| m == mv) {
                Some(slot) => slot,
                None => {
                    part.effects.push(effect(space, &start, mv)?);
                    seen.push(mv);
                    seen.len() - 1
                }
            };
            if slot >= 32 {
                return Err(EndgameError::Inconsistent {
                    index,
                    reason: "more than 32 different moves between two throws".to_string(),
                });
            }
            *mask |= 1 << slot;
        }
    }
    part.masks.extend_from_slice(&masks);
    Ok(())
}

/// The values of a set (bit `v` for a `v`), ascending.
fn values_of(set: usize) -> Vec<u8> {
    (1..=5u8).filter(|&v| set & 1 << v != 0).collect()
}

/// `start` (a position between two throws) with `throws` held, its moves due.
fn holding(
    rules: &Kendall,
    start: &KendallState,
    throws: &[u8],
) -> Result<KendallState, EndgameError> {
    let mut setup = rules.to_setup(start);
    let digits: String = throws.iter().map(|&v| char::from(b'0' + v)).collect();
    setup.push_field("throws", digits);
    Ok(rules.read_setup(&setup)?)
}

/// Where `mv`, played from `start` with its throw held, leads.
fn effect(space: &KendallEndgame, start: &KendallState, mv: Move) -> Result<Effect, EndgameError> {
    let rules = space.rules();
    let me = start.to_move();
    let Some(throw) = mv.throw().map(|t| t.get()) else {
        // The plain pass gives up every throw held (K-5).
        let mut after = holding(rules, start, &[1])?;
        rules.play_unchecked(&mut after, mv);
        return Ok(Effect {
            throw: 0,
            next: ENDED,
            end: turn_end(space, &after, me)?,
        });
    };
    let mut last = holding(rules, start, &[throw])?;
    rules.play_unchecked(&mut last, mv);
    let end = turn_end(space, &last, me)?;
    // With another throw held, the turn goes on unless the move ended it (K-13, K-14).
    let mut more = holding(rules, start, &[1, throw])?;
    rules.play_unchecked(&mut more, mv);
    let next = match rules.phase(&more) {
        Phase::Move(side) if side == me => between_moves(space, &more)?,
        _ => ENDED,
    };
    Ok(Effect { throw, next, end })
}

/// The index of the turn start `state` reached when `me`'s turn ended, or [`WIN`].
fn turn_end(space: &KendallEndgame, state: &KendallState, me: Side) -> Result<u32, EndgameError> {
    let rules = space.rules();
    match rules.phase(state) {
        Phase::Over(outcome) if outcome.winner == Some(me) => Ok(WIN),
        Phase::Throw(side) if side != me => {
            space
                .index(state)
                .map(|i| i as u32)
                .ok_or_else(|| EndgameError::NotClosed {
                    position: rules.position_string(state),
                })
        }
        _ => Err(EndgameError::Inconsistent {
            index: 0,
            reason: format!(
                "a move of {me:?} ends neither in a win nor in the opponent's turn: {}",
                rules.position_string(state)
            ),
        }),
    }
}

/// The index of `state`, between two moves of a turn, as the board it is: the same as the
/// turn start of that board with nothing thrown yet.
fn between_moves(space: &KendallEndgame, state: &KendallState) -> Result<u32, EndgameError> {
    let rules = space.rules();
    let mut setup = Setup::new(*state.board(), state.to_move());
    for (side, field) in [(Side::Black, "must_move_b"), (Side::White, "must_move_w")] {
        if let Some(square) = state.must_move(side) {
            setup.push_field(field, square);
        }
    }
    let board = rules.read_setup(&setup)?;
    match space.index(&board) {
        Some(i) if i < space.without_mine => Ok(i as u32),
        _ => Err(EndgameError::NotClosed {
            position: rules.position_string(state),
        }),
    }
}

/// The multisets of throws still to spend, by level (how many throws).
struct Multisets {
    levels: Vec<Vec<Held>>,
    /// The probability that a turn collects more than [`MOST_AGAIN`] throws of 1, 4 or 5.
    tail: f64,
}

/// A multiset of throws still to spend.
#[derive(Clone, Copy, Debug)]
struct Held {
    /// Which values it holds (bit `v` for a `v`).
    present: u8,
    /// For each value `v` held, the place of the multiset without one `v` in the level
    /// below ([`NONE`] when nothing is left).
    without: [u16; 6],
    /// The probability that a turn collects exactly these throws (0 unless the 2 or 3 that
    /// ends the collecting is among them).
    probability: f64,
}

const NONE: u16 = u16::MAX;

impl Multisets {
    fn new(rules: &Kendall) -> Multisets {
        let device = rules.device();
        let mut p = [0.0f64; 6];
        for outcome in device.outcomes() {
            p[usize::from(outcome.value)] +=
                f64::from(outcome.weight) / f64::from(device.denominator());
        }
        let mut levels: Vec<Vec<Held>> = Vec::new();
        let mut keys: Vec<Vec<[usize; 4]>> = Vec::new();
        let mut collected = 0.0;
        for level in 1..=MOST_AGAIN + 1 {
            let mut sets = Vec::new();
            let mut names = Vec::new();
            for last in [0usize, 2, 3] {
                let Some(again) = level.checked_sub(usize::from(last != 0)) else {
                    continue;
                };
                if again > MOST_AGAIN {
                    continue;
                }
                for ones in 0..=again {
                    for fours in 0..=again - ones {
                        let fives = again - ones - fours;
                        let counts = [ones, fours, fives, last];
                        let mut held = Held {
                            present: 0,
                            without: [NONE; 6],
                            probability: 0.0,
                        };
                        for (value, n) in [(1usize, ones), (4, fours), (5, fives), (last, 1)] {
                            if n == 0 || value == 0 {
                                continue;
                            }
                            held.present |= 1 << value;
                            let mut fewer = counts;
                            match value {
                                1 => fewer[0] -= 1,
                                4 => fewer[1] -= 1,
                                5 => fewer[2] -= 1,
                                _ => fewer[3] = 0,
                            }
                            if let Some(below) = keys.last() {
                                held.without[value] = below
                                    .iter()
                                    .position(|k| *k == fewer)
                                    .map_or(NONE, |i| i as u16);
                            }
                        }
                        if last != 0 {
                            held.probability = multinomial(ones, fours, fives)
                                * p[1].powi(ones as i32)
                                * p[4].powi(fours as i32)
                                * p[5].powi(fives as i32)
                                * p[last];
                            collected += held.probability;
                        }
                        sets.push(held);
                        names.push(counts);
                    }
                }
            }
            levels.push(sets);
            keys.push(names);
        }
        Multisets {
            levels,
            tail: (1.0 - collected).max(0.0),
        }
    }
}

/// `(a + b + c)! / (a! b! c!)`, as a float.
fn multinomial(a: usize, b: usize, c: usize) -> f64 {
    let mut value = 1.0;
    let mut n = 0;
    for count in [a, b, c] {
        for k in 1..=count {
            n += 1;
            value = value * n as f64 / k as f64;
        }
    }
    value
}

/// The number a cell between two moves holds: `f32` while solving (half the memory),
/// `f64` while proving the bounds (see the module documentation).
trait Cell: Copy + Default + Send + Sync {
    fn from_value(value: f64) -> Self;
    fn value(self) -> f64;
}

impl Cell for f32 {
    fn from_value(value: f64) -> f32 {
        value as f32
    }

    fn value(self) -> f64 {
        f64::from(self)
    }
}

impl Cell for f64 {
    fn from_value(value: f64) -> f64 {
        value
    }

    fn value(self) -> f64 {
        self
    }
}

/// What one level of a sweep reads.
#[derive(Clone, Copy)]
struct Level<'a, C> {
    graph: &'a TurnGraph,
    sets: &'a [Held],
    /// The level below, position by position (`width` values each).
    below: &'a [C],
    width: usize,
    /// The turn starts' values of the previous sweep.
    values: &'a [f64],
}

impl<C: Cell> Level<'_, C> {
    /// The best value between two moves with `held` still to spend, from a position with
    /// these moves and masks.
    #[inline]
    fn best(&self, (effects, masks): (&[Effect], &[u32]), held: &Held) -> f64 {
        let mut rest = masks[usize::from(held.present)];
        let mut best: f64 = 0.0;
        while rest != 0 {
            let e = effects[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            let fewer = held.without[usize::from(e.throw)];
            let value = if e.throw != 0 && e.next != ENDED && fewer != NONE {
                self.below[e.next as usize * self.width + usize::from(fewer)].value()
            } else if e.end == WIN {
                1.0
            } else {
                1.0 - self.values[e.end as usize]
            };
            // Values are never NaN: a plain comparison keeps the loop short.
            if value > best {
                best = value;
            }
        }
        best
    }

    /// Positions `from..` between two moves: their values for every multiset of the level
    /// into `cells`, and the turns that start there into `sums`.
    fn between_moves(&self, from: usize, cells: &mut [C], sums: &mut [f64]) {
        let width = self.sets.len();
        for (k, (row, sum)) in cells.chunks_mut(width).zip(sums).enumerate() {
            let moves = self.graph.of(from + k);
            let mut total = *sum;
            for (cell, held) in row.iter_mut().zip(self.sets) {
                let value = self.best(moves, held);
                *cell = C::from_value(value);
                total += held.probability * value;
            }
            *sum = total;
        }
    }

    /// Turn starts `from..` whose piece must move (K-15): their first move is theirs alone,
    /// the rest of the turn a position between two moves like any other.
    fn first_moves(&self, from: usize, sums: &mut [f64]) {
        for (k, sum) in sums.iter_mut().enumerate() {
            let moves = self.graph.of(from + k);
            let mut total = *sum;
            for held in self.sets.iter().filter(|h| h.probability > 0.0) {
                total += held.probability * self.best(moves, held);
            }
            *sum = total;
        }
    }
}

/// Everything a sweep reads besides the values, and the two levels of cells it keeps,
/// reused from sweep to sweep (a gigabyte with two pieces a side).
struct Turns {
    graph: TurnGraph,
    multisets: Multisets,
    /// Positions `0..between` are also the positions between two moves; the others are
    /// turn starts whose piece must move.
    between: usize,
    threads: usize,
    below: Vec<f32>,
    here: Vec<f32>,
}

impl Turns {
    fn new(space: &KendallEndgame, threads: usize) -> Result<Turns, EndgameError> {
        Ok(Turns {
            graph: TurnGraph::build(space, threads)?,
            multisets: Multisets::new(space.rules()),
            between: space.without_mine,
            threads: threads.max(1),
            below: Vec::new(),
            here: Vec::new(),
        })
    }

    /// 32-bit words of the graph of moves.
    fn words(&self) -> usize {
        self.graph.effects.len() * 3 + self.graph.masks.len() + self.graph.first.len()
    }

    /// One sweep: `next[s]` from `values` for every turn start `s`, the turns longer than
    /// the multisets kept counting `tail_value`.
    fn sweep(&mut self, values: &[f64], next: &mut [f64], tail_value: f64) {
        let (mut below, mut here) = (
            core::mem::take(&mut self.below),
            core::mem::take(&mut self.here),
        );
        self.sweep_with(values, next, tail_value, (&mut below, &mut here));
        (self.below, self.here) = (below, here);
    }

    /// [`sweep`](Self::sweep) with the levels of cells `below` and `here`.
    fn sweep_with<C: Cell>(
        &self,
        values: &[f64],
        next: &mut [f64],
        tail_value: f64,
        (below, here): (&mut Vec<C>, &mut Vec<C>),
    ) {
        let (between, threads) = (self.between, self.threads);
        next.fill(self.multisets.tail * tail_value);
        let mut width = 0;
        for sets in &self.multisets.levels {
            // Every cell of the level is written below.
            here.clear();
            here.resize(between * sets.len(), C::default());
            let level = Level {
                graph: &self.graph,
                sets,
                below,
                width,
                values,
            };
            let (plain, must) = next.split_at_mut(between);
            std::thread::scope(|scope| {
                let per = between.div_ceil(threads).max(1);
                for (t, (cells, sums)) in here
                    .chunks_mut(per * sets.len())
                    .zip(plain.chunks_mut(per))
                    .enumerate()
                {
                    scope.spawn(move || level.between_moves(t * per, cells, sums));
                }
                let per_must = must.len().div_ceil(threads).max(1);
                for (t, sums) in must.chunks_mut(per_must).enumerate() {
                    scope.spawn(move || level.first_moves(between + t * per_must, sums));
                }
            });
            core::mem::swap(below, here);
            width = sets.len();
        }
    }

    /// More than the rounding error of a sweep with `f64` cells: a cell is the largest of
    /// cells of the level below, exact, and of values `1 − v`, rounded once, so it is
    /// within one unit `u = 2⁻⁵³` of the exact cell of the same reads; a turn start adds
    /// `N` products of a probability and such a cell, rounding by at most `γ_N + u` on top
    /// of the probabilities' own rounding (none with Kendall's sticks, whose probabilities
    /// are sixteenths; at most 64 units each otherwise: a multinomial and three powers of at
    /// most 15 factors); and the cut turns' probability, `1` less the `N` probabilities, is
    /// rounded by `γ_N` more. The factor `1 + 2⁻²⁰` covers the rest.
    fn rounding_margin(&self) -> f64 {
        let unit = f64::EPSILON / 2.0;
        let terms: usize = self.multisets.levels.iter().map(Vec::len).sum();
        let n = terms as f64;
        let gamma = n * unit / (1.0 - n * unit);
        (2.0 * gamma + 68.0 * unit) * (1.0 + 1.0 / f64::from(1u32 << 20))
    }

    /// Proves bounds of the game's values (see the module documentation) from the bounds
    /// `[lower | upper]` a solve ended with: moved `start` apart, swept with `f64` cells,
    /// each lower bound moved down and each upper bound up by the rounding margin, until a
    /// sweep leaves no upper bound higher than before, which proves the bounds it gives;
    /// then swept on while they close by a tenth a sweep, at most [`TIGHTEN_MOST`] times.
    /// Brackets not proven in [`PROVE_ROUND`] sweeps start again sixteen times wider (from
    /// `0` and `1` the first sweep proves them). Returns the proven bounds and the sweeps.
    fn prove(&self, bounds: &[f64], start: f64) -> (Vec<f64>, u32) {
        let count = bounds.len() / 2;
        let margin = self.rounding_margin();
        let (mut below, mut here) = (Vec::<f64>::new(), Vec::<f64>::new());
        let mut sweeps = 0;
        let mut half = start;
        loop {
            let mut current: Vec<f64> = bounds[..count]
                .iter()
                .map(|&l| (l - half).max(0.0))
                .chain(bounds[count..].iter().map(|&u| (u + half).min(1.0)))
                .collect();
            let mut next = vec![0.0; 2 * count];
            let mut proven: Option<f64> = None;
            for round in 0.. {
                let (lower, upper) = next.split_at_mut(count);
                // A side's value is lowest when its own cut turns are lost and its
                // opponent's won; each bound reads the other, the upper one the new lower.
                self.sweep_with(&current[count..], lower, 0.0, (&mut below, &mut here));
                for l in lower.iter_mut() {
                    *l = (*l - margin).max(0.0);
                }
                self.sweep_with(lower, upper, 1.0, (&mut below, &mut here));
                for u in upper.iter_mut() {
                    *u = (*u + margin).min(1.0);
                }
                sweeps += 1;
                let monotone = upper
                    .iter()
                    .zip(&current[count..])
                    .all(|(new, old)| new <= old);
                if !monotone {
                    if proven.is_some() {
                        // A proven bracket's sweeps are monotone: keep the last proven one.
                        return (current, sweeps);
                    }
                    core::mem::swap(&mut current, &mut next);
                    if round + 1 >= PROVE_ROUND {
                        break;
                    }
                    continue;
                }
                let width = largest_difference(&next[..count], &next[count..]) / 2.0;
                core::mem::swap(&mut current, &mut next);
                let closing = proven.is_none_or(|before| width < 0.9 * before);
                if !closing || round + 1 >= PROVE_ROUND + TIGHTEN_MOST {
                    return (current, sweeps);
                }
                proven = Some(width);
            }
            half = (half * 16.0).min(1.0);
        }
    }

    /// The largest Bellman residual of `values`, the turns longer than the multisets kept
    /// counting as half won, as in the midpoint the table keeps.
    fn residual(&mut self, values: &[f64]) -> f64 {
        let mut next = vec![0.0; values.len()];
        self.sweep(values, &mut next, 0.5);
        largest_difference(values, &next)
    }
}

/// Solves the space (with stored throws) as the module documentation describes.
pub(crate) fn solve(
    space: &KendallEndgame,
    options: &SolveOptions,
    checkpoint: Option<&Checkpoint>,
) -> Result<(Vec<f64>, SolveStats), EndgameError> {
    let started = Instant::now();
    let count = space.state_count();
    check_options(space, options)?;
    let mut turns = Turns::new(space, options.thread_count())?;
    report(
        options,
        SolveEvent::Compiled {
            layer: 0,
            states: count,
            words: turns.words(),
            seconds: started.elapsed().as_secs_f64(),
        },
    );
    // Counted as values of f32 cells, a change below this is rounding.
    let tolerance = options.tolerance.max(F32_FLOOR);
    let mut stats = SolveStats {
        states: count,
        layers: 1,
        components: 1,
        largest_component: count,
        program_words: turns.words(),
        tolerance,
        ..SolveStats::default()
    };
    // Both bounds, `[lower | upper]`, are one layer of the checkpoint file.
    let mut keeper = checkpoint.map(|checkpoint| Keeper::new(checkpoint, space, options));
    let (mut bounds, round, solved) = resume(keeper.as_ref(), count, &mut stats)?;
    if !solved {
        let mut bounding = Bounding {
            turns: &mut turns,
            options,
            tolerance,
            started,
            stats: &mut stats,
        };
        bounds = bounding.iterate(bounds, round, keeper.as_mut())?;
        if let Some(keeper) = keeper.as_mut() {
            keeper.save(&stats, 1, &bounds, None)?;
        }
    }
    let (lower, upper) = bounds.split_at(count);
    stats.truncation = largest_difference(lower, upper) / 2.0;
    let (proven, bracket_sweeps) = turns.prove(&bounds, tolerance);
    stats.bracket_sweeps = bracket_sweeps;
    let (lower, upper) = proven.split_at(count);
    let values: Vec<f64> = lower
        .iter()
        .zip(upper)
        .map(|(l, u)| (l + u) / 2.0)
        .collect();
    // The middle is rounded once, the half width twice.
    stats.error_bound = largest_difference(lower, upper) / 2.0 + 2.0 * f64::EPSILON;
    stats.residual = turns.residual(&values);
    report(
        options,
        SolveEvent::Solved {
            layer: 0,
            // Each sweep evaluates both bounds.
            evaluations: u64::from(stats.sweeps) * 2 * (count as u64),
            most_sweeps: stats.max_component_sweeps,
            residual: stats.residual,
            error_bound: stats.error_bound,
            seconds: started.elapsed().as_secs_f64(),
        },
    );
    Ok((values, stats))
}

/// Refuses the options this solver cannot follow: another method than the compiled one
/// (the memory of the others is no guide to this one's, a kilobyte a position), or a
/// space larger than allowed.
fn check_options(space: &KendallEndgame, options: &SolveOptions) -> Result<(), EndgameError> {
    let count = space.state_count();
    if options.method != SolveMethod::Compiled {
        return Err(EndgameError::UnsupportedOptions {
            spec: space.rules().spec().to_string(),
            reason: "stored throws are solved in memory by a method of their own; \
                     the on-disk and lean methods do not apply"
                .to_string(),
        });
    }
    if count > options.max_states {
        return Err(EndgameError::TooLarge {
            states: count,
            limit: options.max_states,
        });
    }
    Ok(())
}

/// The bounds `[lower | upper]` to start from, the rounds already made and whether they are
/// final: from the checkpoint `keeper` holds if any (its figures into `stats`, the floor of
/// the tolerance kept), otherwise every value between 0 and 1.
fn resume(
    keeper: Option<&Keeper<'_>>,
    count: usize,
    stats: &mut SolveStats,
) -> Result<(Vec<f64>, u32, bool), EndgameError> {
    let saved = match keeper {
        Some(keeper) => keeper.load(&[0, 2 * count])?,
        None => None,
    };
    Ok(match (saved, keeper) {
        (Some(saved), Some(keeper)) => {
            // The floor of the tolerance is this build's.
            *stats = SolveStats {
                tolerance: stats.tolerance,
                ..saved.stats
            };
            match saved.in_layer {
                Some(pending) => {
                    let in_layer = keeper.layer_progress(pending)?;
                    (in_layer.local, in_layer.sweeps, false)
                }
                None => (saved.values, 0, true),
            }
        }
        _ => {
            let mut start = vec![0.0; 2 * count];
            start[count..].fill(1.0);
            (start, 0, false)
        }
    })
}

/// The sweeps of both bounds until they stand still.
struct Bounding<'a> {
    turns: &'a mut Turns,
    options: &'a SolveOptions,
    tolerance: f64,
    /// When the solve started, for the reports.
    started: Instant,
    stats: &'a mut SolveStats,
}

impl Bounding<'_> {
    /// Sweeps both `bounds` from round `round` on, accelerated, until no value changes by
    /// more than the tolerance, saving the progress by `keeper` now and then. Returns the
    /// bounds.
    fn iterate(
        &mut self,
        mut bounds: Vec<f64>,
        mut round: u32,
        mut keeper: Option<&mut Keeper<'_>>,
    ) -> Result<Vec<f64>, EndgameError> {
        let count = bounds.len() / 2;
        let mut next = vec![0.0; 2 * count];
        let mut anderson = Anderson::new(ANDERSON_DEPTH);
        loop {
            let upper = &bounds[count..];
            let (next_lower, next_upper) = next.split_at_mut(count);
            // A side's value is lowest when its own cut turns are lost and its opponent's won.
            // Each bound reads only the other, so the upper one reads the new lower one.
            self.turns.sweep(upper, next_lower, 0.0);
            self.turns.sweep(next_lower, next_upper, 1.0);
            let change = largest_difference(&bounds, &next);
            round += 1;
            self.stats.sweeps += 1;
            self.stats.max_component_sweeps = round;
            report(
                self.options,
                SolveEvent::Sweep {
                    layer: 0,
                    states: count,
                    sweep: self.stats.sweeps,
                    change,
                    hot: 0,
                    hot_sweeps: 0,
                    seconds: self.started.elapsed().as_secs_f64(),
                },
            );
            if change <= self.tolerance {
                return Ok(next);
            }
            if round >= self.options.max_sweeps {
                return Err(EndgameError::NotConverged {
                    sweeps: round,
                    change,
                });
            }
            if !round.is_multiple_of(ANDERSON_ROUNDS) {
                anderson.step(&mut bounds, &next, change);
                continue;
            }
            // A plain step with no history: where a checkpoint may be saved and resumed.
            core::mem::swap(&mut bounds, &mut next);
            anderson.restart();
            if let Some(keeper) = keeper.as_deref_mut().filter(|k| k.due()) {
                let in_layer = InLayer {
                    sweeps: round,
                    extrapolation: Extrapolation::resumed(Vec::new(), 0),
                    local: bounds.clone(),
                    changes: vec![0.0; 2 * count],
                };
                keeper.save(self.stats, 0, &[], Some(&in_layer))?;
                if keeper.time_is_up() {
                    return Err(keeper.stopped(0));
                }
            }
        }
    }
}

/// Sweeps of a bracket that is not proven before it starts again wider (see
/// [`Turns::prove`]).
const PROVE_ROUND: u32 = 8;
/// The most sweeps that tighten a proven bracket.
const TIGHTEN_MOST: u32 = 8;

/// Differences kept by the Anderson acceleration of the sweeps.
const ANDERSON_DEPTH: usize = 8;
/// The acceleration starts afresh every this many sweeps, with a plain sweep: a checkpoint
/// is saved only there, so that a resumed solve takes the steps of one never stopped.
const ANDERSON_ROUNDS: u32 = 16;

/// Changes below this are rounding. The cells between two moves are `f32` (6e-8 each), the
/// upper bound reads the lower one's rounding within the same sweep, and Anderson's steps
/// combine several sweeps: with two pieces a side the largest change settled between
/// 1.08e-7 and 1.21e-7 and went no lower.
const F32_FLOOR: f64 = 2e-7;

fn report(options: &SolveOptions, event: SolveEvent) {
    if let Some(progress) = options.progress {
        progress(&event);
    }
}

/// The largest Bellman residual of `values` for the space (with stored throws), the
/// longest turns counted as half won: what [`EndgameTable::bellman_residual`] reports
/// for such a space.
///
/// [`EndgameTable::bellman_residual`]: crate::EndgameTable::bellman_residual
pub(crate) fn residual(
    space: &KendallEndgame,
    values: &[f64],
    threads: usize,
) -> Result<f64, EndgameError> {
    Ok(Turns::new(space, threads)?.residual(values))
}
