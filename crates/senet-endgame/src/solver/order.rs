//! The sweep order of a layer: its states by decreasing progress, and the checks that each
//! index gives back a state that indexes to it.

use core::ops::Range;

use senet_core::{Phase, Ruleset, Side};

use super::super::SpaceState;
use super::super::{EndgameError, EndgameSpace};
use super::parallel::in_chunks;
use super::program::CHUNK;

/// How far play has got: the sum of every piece's square, pieces off counting 31. Forward
/// moves raise it; swaps keep it; returns to the start lower it.
pub(super) fn progress<R: Ruleset>(rules: &R, state: &R::State) -> u32 {
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

/// The progress of every state of `layer`, in index order, a chunk at a time (capped at
/// 2^16 − 1, far above any space's). Checks every index on the way.
pub(super) fn progress_keys<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
) -> Result<Vec<Vec<u16>>, EndgameError> {
    if u32::try_from(layer.end).is_err() {
        return Err(EndgameError::TooLarge {
            states: layer.end,
            limit: u32::MAX as usize,
        });
    }
    let starts: Vec<usize> = layer.clone().step_by(CHUNK).collect();
    in_chunks(&starts, threads, |start| {
        (start..(start + CHUNK).min(layer.end))
            .map(|index| {
                let (state, _) = checked_state(space, index)?;
                Ok(progress(space.rules(), &state).min(u32::from(u16::MAX)) as u16)
            })
            .collect::<Result<Vec<u16>, EndgameError>>()
    })
}

/// Where each progress starts in the sweep order (the most progress first), from the keys
/// of [`progress_keys`]: a counting sort, index order among equals.
pub(super) fn level_starts(keys: &[Vec<u16>]) -> Vec<usize> {
    let mut counts = vec![0usize; usize::from(u16::MAX) + 1];
    for &key in keys.iter().flatten() {
        counts[usize::from(key)] += 1;
    }
    let mut next = vec![0usize; counts.len()];
    let mut at = 0;
    for key in (0..counts.len()).rev() {
        next[key] = at;
        at += counts[key];
    }
    next
}

/// The places of `layer` (indices less its start) by decreasing progress, index order among
/// equals.
pub(super) fn sweep_order<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
) -> Result<Vec<u32>, EndgameError> {
    let keys = progress_keys(space, layer.clone(), threads)?;
    let mut next = level_starts(&keys);
    let mut order = vec![0u32; layer.len()];
    for (place, &key) in keys.iter().flatten().enumerate() {
        let slot = &mut next[usize::from(key)];
        order[*slot] = place as u32;
        *slot += 1;
    }
    Ok(order)
}

/// The sweep order of `layer` (most progress first, index order among equals): the index
/// at each place, and the place of each index (less the layer's start).
pub(super) fn places<S: EndgameSpace>(
    space: &S,
    layer: Range<usize>,
    threads: usize,
) -> Result<(Vec<u32>, Vec<u32>), EndgameError> {
    let mut order = sweep_order(space, layer.clone(), threads)?;
    let mut place_of = vec![0u32; layer.len()];
    for (place, index) in order.iter_mut().enumerate() {
        place_of[*index as usize] = place as u32;
        // Fits: so does the layer's end (`sweep_order`).
        *index += layer.start as u32;
    }
    Ok((order, place_of))
}

/// The state at `index`, checked to index back to it and to wait for a throw, with the side
/// to throw.
pub(super) fn checked_state<S: EndgameSpace>(
    space: &S,
    index: usize,
) -> Result<(SpaceState<S>, Side), EndgameError> {
    let rules = space.rules();
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
    Ok((state, side))
}

pub(super) fn state_at<S: EndgameSpace>(
    space: &S,
    index: usize,
) -> Result<SpaceState<S>, EndgameError> {
    space
        .state(index)
        .ok_or_else(|| EndgameError::Inconsistent {
            index,
            reason: "no state for this index".to_string(),
        })
}
