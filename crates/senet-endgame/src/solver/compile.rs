//! Compiling a layer: each state's right-hand side as a program.

use core::ops::Range;

use senet_core::{MoveList, Phase, Ruleset, Side, ThrowingDevice};

use super::super::SpaceState;
use super::super::{EndgameError, EndgameSpace, MAX_MOVE_CHAIN};
use super::order::{checked_state, places};
use super::parallel::in_chunks;
use super::program::{
    CHANCE, CHUNK, FINAL_FLIP, FINAL_SAME, LOCAL_FLIP, LOCAL_SAME, LayerProgram, MAXIMUM, MINIMUM,
    TERMINAL,
};

pub(super) fn compile_layer<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
) -> Result<LayerProgram, EndgameError> {
    let mut offsets = Vec::with_capacity(layer.len());
    let mut chunks = Vec::with_capacity(layer.len().div_ceil(CHUNK));
    let order = compile_in_order(space, layer, threads, usize::MAX, |_, (words, starts)| {
        offsets.extend_from_slice(&starts);
        chunks.push(words);
        Ok(())
    })?;
    Ok(LayerProgram {
        order,
        chunks,
        offsets,
    })
}

/// Compiles `layer` in its sweep order, `batch` chunks at a time over the threads, and
/// hands each chunk in turn to `take(its first place, its programs)`. Returns the index at
/// each place.
pub(super) fn compile_in_order<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
    batch: usize,
    mut take: impl FnMut(usize, Compiled) -> Result<(), EndgameError>,
) -> Result<Vec<u32>, EndgameError> {
    let (order, place_of) = places(space, layer.clone(), threads)?;
    let context = Context {
        space,
        layer,
        place_of: Some(&place_of),
        order: &order,
    };
    let firsts: Vec<usize> = (0..order.len()).step_by(CHUNK).collect();
    for batch in firsts.chunks(batch.max(1)) {
        let compiled = in_chunks(batch, threads, |first| compile_chunk(&context, first))?;
        for (&first, chunk) in batch.iter().zip(compiled) {
            take(first, chunk)?;
        }
    }
    Ok(order)
}

/// What compiling a state needs to know about its layer.
struct Context<'a, S> {
    pub(super) space: &'a S,
    pub(super) layer: Range<usize>,
    /// The place in the sweep order of each index of the layer (offset by the layer start);
    /// without it, successors in the layer are named by their index less the layer's start.
    pub(super) place_of: Option<&'a [u32]>,
    /// The index at each place.
    pub(super) order: &'a [u32],
}

/// A chunk's words, and where each of its states' programs starts among them.
type Compiled = (Vec<u32>, Vec<u32>);

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
    let mut offsets = Vec::with_capacity(places.len());
    let mut compiler = Compiler {
        context,
        words: &mut words,
        moves: Vec::new(),
    };
    for &index in &context.order[places] {
        offsets.push(compiler.words.len() as u32);
        let index = index as usize;
        let (state, side) = checked_state(space, index)?;
        for outcome in device.outcomes() {
            let mut next = state;
            rules.throw_unchecked(&mut next, outcome.value);
            compiler.expression(&next, side, index, 0)?;
        }
    }
    Ok((words, offsets))
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
        state: &SpaceState<S>,
        side: Side,
        from: usize,
        depth: usize,
    ) -> Result<(), EndgameError> {
        let space = self.context.space;
        let rules = space.rules();
        match rules.phase(state) {
            Phase::Over(outcome) => {
                let value = outcome.value_for(side);
                self.words.push(TERMINAL | (value * 2.0) as u32);
            }
            Phase::Throw(to_act) => {
                let Some(index) = space.index(state) else {
                    if !space.passes_through(state) {
                        return Err(EndgameError::NotClosed {
                            position: rules.position_string(state),
                        });
                    }
                    if depth >= MAX_MOVE_CHAIN {
                        return Err(EndgameError::TooManyMoves(
                            MAX_MOVE_CHAIN,
                            rules.position_string(state),
                        ));
                    }
                    // Compiled in place: a chance node over the device's outcomes.
                    self.words
                        .push(CHANCE | rules.device().outcomes().len() as u32);
                    for outcome in rules.device().outcomes() {
                        let mut next = *state;
                        rules.throw_unchecked(&mut next, outcome.value);
                        self.expression(&next, side, from, depth + 1)?;
                    }
                    return Ok(());
                };
                let layer = &self.context.layer;
                let flip = to_act != side;
                let word = if index >= layer.end {
                    return Err(EndgameError::LayerOrder { from, to: index });
                } else if index >= layer.start {
                    let place = match self.context.place_of {
                        Some(place_of) => place_of[index - layer.start],
                        None => (index - layer.start) as u32,
                    };
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
                while self.moves.len() <= depth {
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
