//! Value iteration over an [`EndgameSpace`].
//!
//! For a state `s` waiting for a throw, with `p(t)` the device's exact probability of the
//! throw `t`, the value `V(s)` (the chance that the side to act wins under perfect play)
//! satisfies the Bellman equation
//!
//! ```text
//! V(s) = Σ_t p(t) · W(s after the throw t)
//! W(x) = 1, ½ or 0                       when the game is over (win, draw, loss)
//!        V(x) or 1 − V(x)                when x waits for a throw (same side, other side)
//!        max or min over the moves m of W(x after m)   when x waits for a move
//!                                        (max when the side of s decides, min otherwise)
//! ```
//!
//! The solver works layer by layer (see [`EndgameSpace::layers`]); earlier layers are final
//! when a layer starts. For each layer it:
//!
//! 1. sorts the states by decreasing *progress* (the sum of every piece's square, pieces off
//!    counting 31). Forward moves raise it, swaps and passes keep it, returns to the start
//!    lower it, so most successors of a state come before it in this order.
//! 2. *compiles* every state: runs the turn machine once through every throw and move and
//!    records the right-hand side as a short program of 32-bit words (successors, max/min
//!    nodes, terminal values). Successors in the layer are named by their place in the
//!    sorted order, so the values being iterated sit in memory in sweep order and a sweep
//!    reads them from a sliding window rather than from all over the table.
//! 3. sweeps the layer in that order again and again, replacing each value by its
//!    right-hand side in place (Gauss–Seidel: each new value is used at once), until no
//!    value changes by more than the tolerance in a sweep. Successors further on are then
//!    already up to date; what takes many sweeps is the cycles through positions further
//!    back (a piece sent from 27 to the start), whose influence travels one round per sweep.
//! 4. measures the Bellman residual `max |V(s) − right-hand side(s)|` of the layer in one
//!    more pass without writing. After a sweep whose changes were all within the tolerance
//!    the residual is within it too: each update made its own equation hold exactly, and
//!    the right-hand side never magnifies the later changes of other values.
//!
//! With the `rayon` feature, compilation (the expensive part) runs on every core; the sweeps
//! stay sequential, so the values are the same bit for bit with and without it.

use core::ops::Range;

use senet_core::{Board, MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::{EndgameError, EndgameSpace, EndgameTable, MAX_MOVE_CHAIN};
use crate::player::outcome_value;

/// How precisely to solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// Value iteration stops once no value changes by more than this in a sweep. The
    /// Bellman residual of the result is then at most this too.
    pub tolerance: f64,
    /// The most sweeps of one layer before giving up with
    /// [`EndgameError::NotConverged`].
    pub max_sweeps: u32,
    /// The most positions to take on; a larger space is refused with
    /// [`EndgameError::TooLarge`] before any memory is spent. The solver needs about 70 bytes
    /// per position (Regency with 3 pieces a side: 9.8 million positions, 700 MB).
    pub max_states: usize,
}

impl Default for SolveOptions {
    /// Tolerance 1e-9, at most 100,000 sweeps per layer, at most 2^26 (67 million)
    /// positions.
    fn default() -> Self {
        SolveOptions {
            tolerance: 1e-9,
            max_sweeps: 100_000,
            max_states: 1 << 26,
        }
    }
}

/// What solving took and how precise the result is.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveStats {
    /// Positions solved.
    pub states: usize,
    /// Layers solved one after the other.
    pub layers: usize,
    /// Sweeps over whole layers, summed over the layers.
    pub sweeps: u32,
    /// The most sweeps one layer needed.
    pub max_layer_sweeps: u32,
    /// 32-bit words of compiled successor programs (the largest layer's).
    pub program_words: usize,
    /// The tolerance asked for.
    pub tolerance: f64,
    /// The largest Bellman residual `|V(s) − right-hand side(s)|` over all positions,
    /// measured after convergence.
    pub residual: f64,
}

const TAG_SHIFT: u32 = 29;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
/// A successor in the layer being solved, by its place in the sweep order.
const LOCAL_SAME: u32 = 0;
const LOCAL_FLIP: u32 = 1 << TAG_SHIFT;
/// A successor in an earlier (solved) layer, by its index.
const FINAL_SAME: u32 = 2 << TAG_SHIFT;
const FINAL_FLIP: u32 = 3 << TAG_SHIFT;
/// A decision: the next `payload` expressions are its moves.
const MAXIMUM: u32 = 4 << TAG_SHIFT;
const MINIMUM: u32 = 5 << TAG_SHIFT;
/// A finished game: payload 0 loss, 1 draw, 2 win.
const TERMINAL: u32 = 6 << TAG_SHIFT;
const TERMINAL_VALUES: [f64; 3] = [0.0, 0.5, 1.0];

/// Solves every position of `space` (see the [module documentation](self)).
///
/// ```
/// use senet_ai::endgame::{RegencyEndgame, SolveOptions, solve};
/// use senet_regency::Regency;
/// let table = solve(RegencyEndgame::new(Regency::default(), 1).unwrap(), &SolveOptions::default())
///     .unwrap();
/// assert_eq!(table.stats().states, 756);
/// ```
pub fn solve<S: EndgameSpace>(
    space: S,
    options: &SolveOptions,
) -> Result<EndgameTable<S>, EndgameError> {
    let count = space.state_count();
    let limit = options.max_states.min(PAYLOAD as usize + 1);
    if count > limit {
        return Err(EndgameError::TooLarge {
            states: count,
            limit,
        });
    }
    let layers = space.layers();
    check_layers(&layers, count)?;
    let device = space.rules().device();
    let denominator = f64::from(device.denominator());
    let probabilities: Vec<f64> = device
        .outcomes()
        .iter()
        .map(|o| f64::from(o.weight) / denominator)
        .collect();

    let mut values = vec![0.5; count];
    let mut stats = SolveStats {
        states: count,
        layers: layers.len(),
        tolerance: options.tolerance,
        ..SolveStats::default()
    };
    for layer in layers {
        let program = compile_layer(&space, layer)?;
        stats.program_words = stats.program_words.max(program.words());
        let mut local = vec![0.5; program.order.len()];
        let mut sweeps = 0;
        loop {
            let change = program.pass(&probabilities, &mut local, &values, true);
            sweeps += 1;
            if change <= options.tolerance {
                break;
            }
            if sweeps >= options.max_sweeps {
                return Err(EndgameError::NotConverged { sweeps, change });
            }
        }
        stats.sweeps += sweeps;
        stats.max_layer_sweeps = stats.max_layer_sweeps.max(sweeps);
        // Later layers never change this one, so its residual is final now.
        let residual = program.pass(&probabilities, &mut local, &values, false);
        stats.residual = stats.residual.max(residual);
        for (&index, &value) in program.order.iter().zip(&local) {
            values[index as usize] = value;
        }
    }
    Ok(EndgameTable::from_parts(space, values, stats))
}

fn check_layers(layers: &[Range<usize>], count: usize) -> Result<(), EndgameError> {
    let mut next = 0;
    for layer in layers {
        if layer.start != next || layer.end < layer.start {
            return Err(EndgameError::Inconsistent {
                index: layer.start,
                reason: format!("layer {layer:?} does not follow on from index {next}"),
            });
        }
        next = layer.end;
    }
    if next != count {
        return Err(EndgameError::Inconsistent {
            index: next,
            reason: format!("the layers end at {next}, not at the state count {count}"),
        });
    }
    Ok(())
}

/// States per compiled chunk: small enough to spread over cores, large enough that the
/// per-chunk overhead does not matter. Every chunk but the last has exactly this many.
const CHUNK: usize = 1 << 14;

/// The compiled right-hand sides of one layer, in sweep order.
struct LayerProgram {
    /// The index of the state at each place of the sweep order.
    order: Vec<u32>,
    /// The compiled states in sweep order, [`CHUNK`] to a chunk (the last may be shorter).
    chunks: Vec<Vec<u32>>,
}

impl LayerProgram {
    fn words(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// One pass over the layer in sweep order; returns the largest difference between a
    /// value and its right-hand side. With `write`, each value is replaced as it is computed
    /// (a Gauss–Seidel sweep); without, the result is the Bellman residual.
    fn pass(&self, probabilities: &[f64], local: &mut [f64], solved: &[f64], write: bool) -> f64 {
        let mut largest: f64 = 0.0;
        for (chunk, words) in self.chunks.iter().enumerate() {
            let mut at = 0;
            let first = chunk * CHUNK;
            let places = first..(first + CHUNK).min(local.len());
            for place in places {
                let mut total = 0.0;
                for &p in probabilities {
                    total += p * evaluate(words, &mut at, local, solved);
                }
                largest = largest.max((total - local[place]).abs());
                if write {
                    local[place] = total;
                }
            }
        }
        largest
    }
}

/// Evaluates the expression starting at `words[*at]`, moving `at` past it.
#[inline]
fn evaluate(words: &[u32], at: &mut usize, local: &[f64], solved: &[f64]) -> f64 {
    let word = words[*at];
    *at += 1;
    let payload = (word & PAYLOAD) as usize;
    match word >> TAG_SHIFT {
        0 => local[payload],
        1 => 1.0 - local[payload],
        2 => solved[payload],
        3 => 1.0 - solved[payload],
        tag @ (4 | 5) => {
            let mut best = evaluate(words, at, local, solved);
            for _ in 1..payload {
                let v = evaluate(words, at, local, solved);
                best = if tag == 5 { best.min(v) } else { best.max(v) };
            }
            best
        }
        _ => TERMINAL_VALUES[payload.min(2)],
    }
}

/// How far play has got: the sum of every piece's square, pieces off counting 31. Forward
/// moves raise it; swaps keep it; returns to the start lower it.
fn progress<R: Ruleset>(rules: &R, state: &R::State) -> u32 {
    let board = rules.board(state);
    Side::BOTH
        .iter()
        .map(|&side| {
            let squares: u32 = board
                .pieces(side)
                .iter()
                .map(|sq| u32::from(sq.get()))
                .sum();
            squares + 31 * u32::from(board.off(side))
        })
        .sum()
}

fn compile_layer<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
) -> Result<LayerProgram, EndgameError> {
    // Sweep order: most progress first, index order among equals.
    let mut keyed: Vec<(u32, u32)> = Vec::with_capacity(layer.len());
    for index in layer.clone() {
        let state = state_at(space, index)?;
        keyed.push((u32::MAX - progress(space.rules(), &state), index as u32));
    }
    keyed.sort_unstable();
    let mut place_of = vec![0u32; layer.len()];
    for (place, &(_, index)) in keyed.iter().enumerate() {
        place_of[index as usize - layer.start] = place as u32;
    }
    let order: Vec<u32> = keyed.into_iter().map(|(_, index)| index).collect();
    let context = Context {
        space,
        layer,
        place_of: &place_of,
        order: &order,
    };
    let chunks = compile_chunks(&context)?;
    Ok(LayerProgram { order, chunks })
}

/// What compiling a state needs to know about its layer.
struct Context<'a, S> {
    space: &'a S,
    layer: Range<usize>,
    /// The place in the sweep order of each index of the layer (offset by the layer start).
    place_of: &'a [u32],
    /// The index at each place.
    order: &'a [u32],
}

type Compiled = Vec<u32>;

#[cfg(not(feature = "rayon"))]
fn compile_chunks<S: EndgameSpace>(
    context: &Context<'_, S>,
) -> Result<Vec<Compiled>, EndgameError> {
    (0..context.order.len())
        .step_by(CHUNK)
        .map(|first| compile_chunk(context, first))
        .collect()
}

#[cfg(feature = "rayon")]
fn compile_chunks<S: EndgameSpace>(
    context: &Context<'_, S>,
) -> Result<Vec<Compiled>, EndgameError> {
    use rayon::prelude::*;
    let firsts: Vec<usize> = (0..context.order.len()).step_by(CHUNK).collect();
    firsts
        .into_par_iter()
        .map(|first| compile_chunk(context, first))
        .collect()
}

/// Compiles the states at places `first..first + CHUNK`.
fn compile_chunk<S: EndgameSpace>(
    context: &Context<'_, S>,
    first: usize,
) -> Result<Compiled, EndgameError> {
    let space = context.space;
    let rules = space.rules();
    let device = rules.device();
    let places = first..(first + CHUNK).min(context.order.len());
    let mut words = Vec::with_capacity(places.len() * 12);
    let mut compiler = Compiler {
        context,
        words: &mut words,
        moves: Vec::new(),
    };
    for &index in &context.order[places] {
        let index = index as usize;
        let state = state_at(space, index)?;
        if space.index(&state) != Some(index) {
            return Err(EndgameError::Inconsistent {
                index,
                reason: format!(
                    "the state {} indexes as {:?}",
                    rules.position_string(&state),
                    space.index(&state)
                ),
            });
        }
        let Phase::Throw(side) = rules.phase(&state) else {
            return Err(EndgameError::Inconsistent {
                index,
                reason: format!(
                    "the state {} does not wait for a throw",
                    rules.position_string(&state)
                ),
            });
        };
        for outcome in device.outcomes() {
            let mut next = state;
            rules.throw_unchecked(&mut next, outcome.value);
            compiler.expression(&next, side, index, 0)?;
        }
    }
    Ok(words)
}

fn state_at<S: EndgameSpace>(
    space: &S,
    index: usize,
) -> Result<<S::Rules as Ruleset>::State, EndgameError> {
    space
        .state(index)
        .ok_or_else(|| EndgameError::Inconsistent {
            index,
            reason: "no state for this index".to_string(),
        })
}

struct Compiler<'a, 'c, S: EndgameSpace> {
    context: &'a Context<'c, S>,
    words: &'a mut Vec<u32>,
    /// One move list per level of moves in a row, reused from state to state.
    moves: Vec<MoveList>,
}

impl<S: EndgameSpace> Compiler<'_, '_, S> {
    /// Appends the expression for the value of `state` to `side`.
    fn expression(
        &mut self,
        state: &<S::Rules as Ruleset>::State,
        side: Side,
        from: usize,
        depth: usize,
    ) -> Result<(), EndgameError> {
        let space = self.context.space;
        let rules = space.rules();
        match rules.phase(state) {
            Phase::Over(outcome) => {
                let value = outcome_value(&outcome, side);
                self.words.push(TERMINAL | (value * 2.0) as u32);
            }
            Phase::Throw(to_act) => {
                let index = space.index(state).ok_or_else(|| EndgameError::NotClosed {
                    position: rules.position_string(state),
                })?;
                let layer = &self.context.layer;
                let flip = to_act != side;
                let word = if index >= layer.end {
                    return Err(EndgameError::LayerOrder { from, to: index });
                } else if index >= layer.start {
                    let place = self.context.place_of[index - layer.start];
                    (if flip { LOCAL_FLIP } else { LOCAL_SAME }) | place
                } else {
                    (if flip { FINAL_FLIP } else { FINAL_SAME }) | index as u32
                };
                self.words.push(word);
            }
            Phase::Move(mover) => {
                if depth >= MAX_MOVE_CHAIN {
                    return Err(EndgameError::TooManyMoves(
                        MAX_MOVE_CHAIN,
                        rules.position_string(state),
                    ));
                }
                if self.moves.len() <= depth {
                    self.moves.push(MoveList::new());
                }
                rules.generate_moves(state, &mut self.moves[depth]);
                let count = self.moves[depth].len();
                if count == 0 {
                    return Err(EndgameError::Inconsistent {
                        index: from,
                        reason: format!(
                            "no legal move, not even a pass, in {}",
                            rules.position_string(state)
                        ),
                    });
                }
                if count > 1 {
                    let tag = if mover == side { MAXIMUM } else { MINIMUM };
                    self.words.push(tag | count as u32);
                }
                for i in 0..count {
                    let mv = self.moves[depth][i];
                    let mut next = *state;
                    rules.play_unchecked(&mut next, mv);
                    self.expression(&next, side, from, depth + 1)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_evaluate_in_prefix_order() {
        // max(local 0, min(1 − solved 1, win)) and a draw.
        let words = [
            MAXIMUM | 2,
            LOCAL_SAME,
            MINIMUM | 2,
            FINAL_FLIP | 1,
            TERMINAL | 2,
            TERMINAL | 1,
        ];
        let local = [0.25];
        let solved = [0.9, 0.4];
        let mut at = 0;
        assert_eq!(evaluate(&words, &mut at, &local, &solved), 0.6);
        assert_eq!(at, 5);
        assert_eq!(evaluate(&words, &mut at, &local, &solved), 0.5);
        let mut at = 0;
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &local, &solved),
            0.75
        );
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &local, &solved),
            0.9
        );
    }

    #[test]
    fn a_sweep_uses_new_values_at_once() {
        // Place 0 wins at once; place 1 passes the turn to place 0 (the other side).
        let program = LayerProgram {
            order: vec![7, 8],
            chunks: vec![vec![TERMINAL | 2, LOCAL_FLIP]],
        };
        let mut local = vec![0.5, 0.5];
        assert_eq!(program.pass(&[1.0], &mut local, &[], true), 0.5);
        assert_eq!(local, [1.0, 0.0]);
        assert_eq!(program.pass(&[1.0], &mut local, &[], false), 0.0);
    }

    #[test]
    fn layers_must_tile_the_indices() {
        assert!(check_layers(&[0..3, 3..5], 5).is_ok());
        assert!(check_layers(&[0..3, 4..5], 5).is_err());
        assert!(check_layers(&[0..2, 2..3], 5).is_err());
    }
}
