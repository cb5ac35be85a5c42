//! The compiled right-hand sides of a layer, and their evaluation.

use super::equations::{Computed, Known};

pub(super) const TAG_SHIFT: u32 = 29;
pub(super) const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
/// A successor in the layer being solved, by its place in the sweep order.
pub(super) const LOCAL_SAME: u32 = 0;
pub(super) const LOCAL_FLIP: u32 = 1 << TAG_SHIFT;
/// A successor in an earlier (solved) layer, by its index.
pub(super) const FINAL_SAME: u32 = 2 << TAG_SHIFT;
pub(super) const FINAL_FLIP: u32 = 3 << TAG_SHIFT;
/// A decision: the next `payload` expressions are its moves.
pub(super) const MAXIMUM: u32 = 4 << TAG_SHIFT;
pub(super) const MINIMUM: u32 = 5 << TAG_SHIFT;
/// A finished game: payload 0 loss, 1 draw, 2 win.
pub(super) const TERMINAL: u32 = 6 << TAG_SHIFT;
/// A state compiled in place ([`passes_through`](crate::EndgameSpace::passes_through)):
/// the next expressions are its throws, one per outcome of the device, in the device's order.
pub(super) const CHANCE: u32 = 7 << TAG_SHIFT;
pub(super) const TERMINAL_VALUES: [f64; 3] = [0.0, 0.5, 1.0];

/// States per compiled chunk: small enough to spread over cores, large enough that the
/// per-chunk overhead does not matter. Every chunk but the last has exactly this many.
pub(super) const CHUNK: usize = 1 << 14;

/// The compiled right-hand sides of one layer, in sweep order.
pub(super) struct LayerProgram {
    /// The index of the state at each place of the sweep order.
    pub(super) order: Vec<u32>,
    /// The compiled states in sweep order, [`CHUNK`] to a chunk (the last may be shorter).
    pub(super) chunks: Vec<Vec<u32>>,
    /// Where each place's program starts in its chunk.
    pub(super) offsets: Vec<u32>,
}

impl LayerProgram {
    /// A program from its chunks, finding where each place's program starts (`throws`
    /// expressions a state).
    #[cfg(test)]
    pub(super) fn new(order: Vec<u32>, chunks: Vec<Vec<u32>>, throws: usize) -> LayerProgram {
        let offsets = chunks
            .iter()
            .enumerate()
            .flat_map(|(chunk, words)| {
                let places = (order.len() - chunk * CHUNK).min(CHUNK);
                program_offsets(words, places, throws)
            })
            .collect();
        LayerProgram {
            order,
            chunks,
            offsets,
        }
    }

    pub(super) fn words(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// The words of the program at `place` (and the rest of its chunk after it).
    #[inline]
    pub(super) fn program(&self, place: usize) -> (&[u32], usize) {
        (&self.chunks[place / CHUNK], self.offsets[place] as usize)
    }

    /// Where the program of `place` ends in its chunk.
    pub(super) fn program_end(&self, place: usize) -> usize {
        let next = place + 1;
        if next.is_multiple_of(CHUNK) || next == self.offsets.len() {
            self.chunks[place / CHUNK].len()
        } else {
            self.offsets[next] as usize
        }
    }

    /// Whether the right-hand side of `place` reads its own value.
    pub(super) fn leads_to_itself(&self, place: usize) -> bool {
        let (words, start) = self.program(place);
        reads_itself(&words[start..self.program_end(place)], place)
    }
}

/// The right-hand side of the state whose program starts at `words[*at]`: its throws,
/// weighted. Moves `at` past it.
#[inline]
pub(super) fn right_hand_side(
    words: &[u32],
    at: &mut usize,
    Known {
        probabilities,
        solved,
    }: Known<'_>,
    local: &[f64],
) -> f64 {
    let mut total = 0.0;
    for &p in probabilities {
        total += p * evaluate(words, at, probabilities, local, solved);
    }
    total
}

/// A lower and an upper bound of the right-hand side of the state whose program starts at
/// `words[*at]`, from bounds of the values it reads: `pairs` for the layer's, each earlier
/// layer's value within `inherited` of the game's (see [`bracket`](super::bracket)), in
/// floating point. Moves `at` past it. Every operation of a right-hand side is monotone, so
/// the lower bound reads the lower bound of a value for the same side and one minus the
/// upper bound of a value for the other side, and the other way round.
#[inline]
pub(super) fn bracket_right_hand_side(
    words: &[u32],
    at: &mut usize,
    known: Known<'_>,
    inherited: f64,
    pairs: &[[f64; 2]],
) -> Computed {
    let reads = BracketReads {
        words,
        known,
        inherited,
        pairs,
    };
    let mut levels = 1;
    let bounds = reads.sum(at, 1, &mut levels);
    Computed { bounds, levels }
}

/// What the bounds of a right-hand side read (see [`bracket_right_hand_side`]).
#[derive(Clone, Copy)]
struct BracketReads<'a> {
    words: &'a [u32],
    known: Known<'a>,
    inherited: f64,
    pairs: &'a [[f64; 2]],
}

impl BracketReads<'_> {
    /// The bounds of the throws of a chance node at `words[*at]`, weighted, `depth` weighted
    /// sums deep, the deepest noted in `levels`.
    #[inline]
    fn sum(self, at: &mut usize, depth: u32, levels: &mut u32) -> [f64; 2] {
        let mut total = [0.0, 0.0];
        for &p in self.known.probabilities {
            let [lo, hi] = self.expression(at, depth, levels);
            total[0] += p * lo;
            total[1] += p * hi;
        }
        total
    }

    /// The bounds of the expression at `words[*at]`: leaves here, inline, as in
    /// [`evaluate`]; decisions and chance nodes in [`node`](Self::node).
    #[inline(always)]
    fn expression(self, at: &mut usize, depth: u32, levels: &mut u32) -> [f64; 2] {
        let word = self.words[*at];
        *at += 1;
        let payload = (word & PAYLOAD) as usize;
        let tag = word >> TAG_SHIFT;
        if tag <= 3 {
            // A successor: the bounds of a value of this layer or an earlier one (the
            // game's values are within 0..=1), for this side or the other.
            let [lo, hi] = if tag <= 1 {
                self.pairs[payload]
            } else {
                let v = self.known.solved[payload];
                [(v - self.inherited).max(0.0), (v + self.inherited).min(1.0)]
            };
            return if tag & 1 == 0 {
                [lo, hi]
            } else {
                [1.0 - hi, 1.0 - lo]
            };
        }
        if tag == 6 {
            let v = TERMINAL_VALUES[payload.min(2)];
            return [v, v];
        }
        self.node(tag, payload, at, depth, levels)
    }

    /// A decision (`tag` 4 or 5, `payload` moves) or a chance node (`tag` 7).
    #[inline(never)]
    fn node(
        self,
        tag: u32,
        payload: usize,
        at: &mut usize,
        depth: u32,
        levels: &mut u32,
    ) -> [f64; 2] {
        if tag == 7 {
            *levels = (*levels).max(depth + 1);
            return self.sum(at, depth + 1, levels);
        }
        let mut best = self.expression(at, depth, levels);
        for _ in 1..payload {
            let [lo, hi] = self.expression(at, depth, levels);
            best = if tag == 4 {
                [best[0].max(lo), best[1].max(hi)]
            } else {
                [best[0].min(lo), best[1].min(hi)]
            };
        }
        best
    }
}

/// Whether `program`, the program of `place`, reads the value of `place`.
pub(super) fn reads_itself(program: &[u32], place: usize) -> bool {
    program
        .iter()
        .any(|&word| word >> TAG_SHIFT <= 1 && (word & PAYLOAD) as usize == place)
}

/// Where each of the first `places` programs of `words` starts (`throws` expressions a
/// program).
#[cfg(test)]
fn program_offsets(words: &[u32], places: usize, throws: usize) -> Vec<u32> {
    let mut at = 0;
    (0..places)
        .map(|_| {
            let start = at as u32;
            for _ in 0..throws {
                skip(words, &mut at);
            }
            start
        })
        .collect()
}

/// Moves `at` past the expression starting at `words[*at]` without evaluating it.
pub(super) fn skip(words: &[u32], at: &mut usize) {
    let word = words[*at];
    *at += 1;
    if matches!(word >> TAG_SHIFT, 4 | 5 | 7) {
        for _ in 0..word & PAYLOAD {
            skip(words, at);
        }
    }
}

/// Evaluates the expression starting at `words[*at]`, moving `at` past it.
///
/// Leaves (successors and finished games) are read here, inline; decisions and chance nodes
/// go to [`evaluate_node`], which calls back for their children.
#[inline(always)]
pub(super) fn evaluate(
    words: &[u32],
    at: &mut usize,
    probabilities: &[f64],
    local: &[f64],
    solved: &[f64],
) -> f64 {
    let word = words[*at];
    *at += 1;
    let payload = (word & PAYLOAD) as usize;
    let tag = word >> TAG_SHIFT;
    if tag <= 3 {
        // A successor: in this layer or an earlier one, for this side or the other. Chosen
        // by selects rather than a jump, which the kinds of successors, mixed at random,
        // would keep mispredicting.
        let values = if tag <= 1 { local } else { solved };
        let value = values[payload];
        return if tag & 1 == 0 { value } else { 1.0 - value };
    }
    match tag {
        6 => TERMINAL_VALUES[payload.min(2)],
        tag => evaluate_node(tag, payload, words, at, probabilities, local, solved),
    }
}

/// A decision (`tag` 4 or 5, `payload` moves) or a chance node (`tag` 7).
#[inline(never)]
fn evaluate_node(
    tag: u32,
    payload: usize,
    words: &[u32],
    at: &mut usize,
    probabilities: &[f64],
    local: &[f64],
    solved: &[f64],
) -> f64 {
    match tag {
        4 => {
            let mut best = evaluate(words, at, probabilities, local, solved);
            for _ in 1..payload {
                best = best.max(evaluate(words, at, probabilities, local, solved));
            }
            best
        }
        5 => {
            let mut best = evaluate(words, at, probabilities, local, solved);
            for _ in 1..payload {
                best = best.min(evaluate(words, at, probabilities, local, solved));
            }
            best
        }
        // A chance node weighs its throws as a whole right-hand side does.
        _ => {
            let known = Known {
                probabilities,
                solved,
            };
            right_hand_side(words, at, known, local)
        }
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
        let p = [0.25, 0.75];
        let mut at = 0;
        assert_eq!(evaluate(&words, &mut at, &p, &local, &solved), 0.6);
        assert_eq!(at, 5);
        assert_eq!(evaluate(&words, &mut at, &p, &local, &solved), 0.5);
        let mut at = 0;
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &p, &local, &solved),
            0.75
        );
        assert_eq!(
            evaluate(&[LOCAL_FLIP, FINAL_SAME], &mut at, &p, &local, &solved),
            0.9
        );
    }

    #[test]
    fn chance_nodes_weigh_their_outcomes() {
        // A state compiled in place: ¼ · win + ¾ · (1 − local 0), then a loss.
        let words = [CHANCE | 2, TERMINAL | 2, LOCAL_FLIP, TERMINAL];
        let mut at = 0;
        let value = evaluate(&words, &mut at, &[0.25, 0.75], &[0.6], &[]);
        assert!((value - (0.25 + 0.75 * 0.4)).abs() < 1e-15);
        assert_eq!(at, 3);
        assert_eq!(evaluate(&words, &mut at, &[0.25, 0.75], &[0.6], &[]), 0.0);
    }

    #[test]
    fn skipping_an_expression_lands_where_evaluating_it_does() {
        let words = [
            MAXIMUM | 2,
            CHANCE | 2,
            LOCAL_SAME,
            TERMINAL,
            MINIMUM | 3,
            FINAL_FLIP,
            LOCAL_FLIP,
            TERMINAL | 1,
            TERMINAL | 2,
        ];
        let (mut a, mut b) = (0, 0);
        evaluate(&words, &mut a, &[0.5, 0.5], &[0.3], &[0.2]);
        skip(&words, &mut b);
        assert_eq!((a, b), (8, 8));
        skip(&words, &mut b);
        assert_eq!(b, 9);
    }
}
