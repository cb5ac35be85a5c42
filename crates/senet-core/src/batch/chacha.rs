//! ChaCha8 for many lanes at once: the random words of a lock-step batch, each lane's exactly
//! those of its own `rand_chacha::ChaCha8Rng`, computed with vector instructions across lanes.
//!
//! `rand_chacha` 0.10 (the workspace's version) keeps the 16 state words of ChaCha as
//!
//! ```text
//! 0x61707865 0x3320646e 0x79622d32 0x6b206574   the constants "expand 32-byte k"
//! key0       key1       key2       key3         the 32 seed bytes, little-endian words
//! key4       key5       key6       key7
//! counter_lo counter_hi stream_lo  stream_hi    the 64-bit block counter and stream id
//! ```
//!
//! runs four double rounds (ChaCha8), adds the input and hands out the 16 words of a block in
//! order, block after block with the counter going up by one (carrying into its high word).
//! It computes four blocks at a time into a 64-word buffer, which changes nothing in the
//! words. `from_seed` starts at block 0 of stream 0, and `set_stream` on a generator that has
//! not drawn yet only sets the stream words (with words drawn, it keeps the word position),
//! so `from_seed(seed)` then `set_stream(s)` is block 0 of stream `s`: that is what
//! [`ChaCha8Lanes::start`] and [`ChaCha8Stream::new`] produce.
//!
//! [`chacha8_blocks`] is the block function over lanes kept structure-of-arrays (word `k` of
//! lane `l` is `x[k][l]`), one lane loop that the compiler turns into vector instructions,
//! each vector holding the same word of several lanes. [`ChaCha8Lanes`] buffers one block per
//! lane and hands out a word of every lane at a time. [`ChaCha8Stream`] is one stream on its
//! own (eight blocks at once, as lanes), a [`TryRng`] for the games played one by one.

use core::convert::Infallible;

use rand_core::{SeedableRng, TryRng};

use super::{Instructions, LaneKernel, run_kernel};

/// The words of a ChaCha block.
pub const BLOCK_WORDS: usize = 16;

/// "expand 32-byte k", the first four state words.
pub(super) const CONSTANTS: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// Word positions in a stream are 68 bits: a 64-bit block counter and 16 words a block.
const WORD_POS_MASK: u128 = (1 << 68) - 1;

/// One ChaCha quarter round on words `a`, `b`, `c`, `d` of the state `x`.
#[inline(always)]
fn quarter(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

/// A column round then a diagonal round.
#[inline(always)]
fn double_round(x: &mut [u32; 16]) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 1, 5, 9, 13);
    quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15);
    quarter(x, 0, 5, 10, 15);
    quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13);
    quarter(x, 3, 4, 9, 14);
}

/// The ChaCha8 block of each of `L` lanes: `input[k][l]` is state word `k` of lane `l`
/// (constants, key, counter and stream as in the module's table) and `out[k][l]` gets word
/// `k` of that lane's block.
///
/// The body of the lane loop is the whole block function of one lane, written out without
/// an inner loop, so that the compiler vectorises the loop across lanes: each vector holds
/// one state word of several lanes, and the rounds need no shuffles.
#[inline(always)]
pub fn chacha8_blocks<const L: usize>(input: &[[u32; L]; 16], out: &mut [[u32; L]; 16]) {
    for l in 0..L {
        let mut x: [u32; 16] = core::array::from_fn(|k| input[k][l]);
        // Eight rounds, spelt out: a loop here would keep the lane loop from vectorising.
        double_round(&mut x);
        double_round(&mut x);
        double_round(&mut x);
        double_round(&mut x);
        for k in 0..16 {
            out[k][l] = x[k].wrapping_add(input[k][l]);
        }
    }
}

/// The first word of a [`uniform_below`](crate::uniform_below) draw in every lane, multiplied
/// into place in vector instructions: `picks[l]` is the draw among `n[l]` if `words[l]` is
/// not rejected (0 when `n[l]` is 0). Returns whether some lane must finish its draw apart:
/// its word may be rejected (the low half of the product below `n`, about one draw in
/// `2^32 / n`), or its `n` is 0.
#[inline(always)]
pub(super) fn first_draws<const L: usize>(
    words: &[u32; L],
    n: &[u32; L],
    picks: &mut [u32; L],
) -> bool {
    let mut rare = false;
    for ((pick, &word), &n) in picks.iter_mut().zip(words).zip(n) {
        let product = u64::from(word) * u64::from(n);
        *pick = (product >> 32) as u32;
        rare |= ((product as u32) < n) | (n == 0);
    }
    rare
}

/// The eight key words of a 32-byte seed, read little-endian as `rand_chacha` does.
pub(super) fn key_words(seed: &[u8; 32]) -> [u32; 8] {
    core::array::from_fn(|i| {
        u32::from_le_bytes([
            seed[4 * i],
            seed[4 * i + 1],
            seed[4 * i + 2],
            seed[4 * i + 3],
        ])
    })
}

/// The blocks computed at a time by [`ChaCha8Stream`], as lanes: a 256-bit vector of words.
const STREAM_BLOCKS: usize = 8;

/// The blocks of a [`ChaCha8Stream`] refill, as a [`LaneKernel`] so that [`run_kernel`]
/// computes them with the widest vectors the CPU has.
struct StreamBlocks<'a> {
    input: &'a [[u32; STREAM_BLOCKS]; BLOCK_WORDS],
    out: &'a mut [[u32; STREAM_BLOCKS]; BLOCK_WORDS],
}

impl LaneKernel for StreamBlocks<'_> {
    #[inline(always)]
    fn run(&mut self) {
        chacha8_blocks(self.input, self.out);
    }
}

/// One ChaCha8 stream: the words of `rand_chacha::ChaCha8Rng::from_seed(seed)` after
/// `set_stream(stream)`, as a [`TryRng`]. It computes eight consecutive blocks at a time as
/// eight lanes of [`chacha8_blocks`], with AVX2 when the CPU has it, as `rand_chacha` computes
/// four with the vectors it finds.
///
/// ```
/// use rand_core::Rng;
/// use senet_core::batch::ChaCha8Stream;
/// let mut rng = ChaCha8Stream::new(&[7; 32], 3);
/// let first = rng.next_u32();
/// assert_eq!(ChaCha8Stream::new(&[7; 32], 3).next_u32(), first);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaCha8Stream {
    key: [u32; 8],
    stream: u64,
    /// The counter of the first block not yet in `buffer`.
    block: u64,
    /// The words of the buffered blocks, in stream order.
    buffer: [u32; STREAM_BLOCKS * BLOCK_WORDS],
    /// The next word of the buffer, in stream order; the whole buffer when it is used up.
    index: usize,
}

impl ChaCha8Stream {
    /// The stream `stream` of the 32-byte `seed`, at its first word.
    pub fn new(seed: &[u8; 32], stream: u64) -> ChaCha8Stream {
        ChaCha8Stream::from_words(key_words(seed), stream)
    }

    fn from_words(key: [u32; 8], stream: u64) -> ChaCha8Stream {
        ChaCha8Stream {
            key,
            stream,
            block: 0,
            buffer: [0; STREAM_BLOCKS * BLOCK_WORDS],
            index: STREAM_BLOCKS * BLOCK_WORDS,
        }
    }

    /// The 32-byte seed.
    pub fn seed(&self) -> [u8; 32] {
        let mut seed = [0; 32];
        for (bytes, word) in seed.chunks_exact_mut(4).zip(self.key) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        seed
    }

    /// The stream id.
    pub fn stream(&self) -> u64 {
        self.stream
    }

    /// The position of the next word from the start of the stream, in words (68 bits, as
    /// `ChaCha8Rng::get_word_pos`).
    pub fn word_pos(&self) -> u128 {
        let buffered = (STREAM_BLOCKS * BLOCK_WORDS - self.index) as u128;
        (u128::from(self.block) * BLOCK_WORDS as u128).wrapping_sub(buffered) & WORD_POS_MASK
    }

    /// Moves to word `pos` of the stream (the upper 60 bits are ignored, as by
    /// `ChaCha8Rng::set_word_pos`).
    pub fn set_word_pos(&mut self, pos: u128) {
        let pos = pos & WORD_POS_MASK;
        self.block = (pos / BLOCK_WORDS as u128) as u64;
        let skip = (pos % BLOCK_WORDS as u128) as usize;
        self.index = STREAM_BLOCKS * BLOCK_WORDS;
        if skip > 0 {
            self.refill();
            self.index = skip;
        }
    }

    /// Computes the next eight blocks into the buffer (out of line: the draws that inline
    /// `next_word` stay small).
    #[inline(never)]
    fn refill(&mut self) {
        let mut input = [[0; STREAM_BLOCKS]; BLOCK_WORDS];
        for (j, block) in
            (0..STREAM_BLOCKS as u64).map(|j| (j as usize, self.block.wrapping_add(j)))
        {
            for k in 0..4 {
                input[k][j] = CONSTANTS[k];
            }
            for k in 0..8 {
                input[4 + k][j] = self.key[k];
            }
            input[12][j] = block as u32;
            input[13][j] = (block >> 32) as u32;
            input[14][j] = self.stream as u32;
            input[15][j] = (self.stream >> 32) as u32;
        }
        let mut blocks = [[0; STREAM_BLOCKS]; BLOCK_WORDS];
        let mut kernel = StreamBlocks {
            input: &input,
            out: &mut blocks,
        };
        run_kernel(&mut kernel, Instructions::Detect);
        // In stream order once, rather than an index computation at every word.
        for (k, words) in blocks.iter().enumerate() {
            for (j, &word) in words.iter().enumerate() {
                self.buffer[j * BLOCK_WORDS + k] = word;
            }
        }
        self.block = self.block.wrapping_add(STREAM_BLOCKS as u64);
        self.index = 0;
    }

    /// The next word.
    #[inline]
    fn next_word(&mut self) -> u32 {
        if self.index >= STREAM_BLOCKS * BLOCK_WORDS {
            self.refill();
        }
        let word = self.buffer[self.index];
        self.index += 1;
        word
    }
}

impl TryRng for ChaCha8Stream {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next_word())
    }

    /// Two words, the first the low half (as `ChaCha8Rng`).
    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let low = self.next_word();
        Ok(u64::from(self.next_word()) << 32 | u64::from(low))
    }

    /// Words in little-endian order; a last partial word uses a whole word (as `ChaCha8Rng`).
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let bytes = self.next_word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

impl SeedableRng for ChaCha8Stream {
    type Seed = [u8; 32];

    /// Stream 0 of `seed`, as `ChaCha8Rng::from_seed` (so `seed_from_u64` expands a `u64`
    /// into the same 32 bytes as `ChaCha8Rng::seed_from_u64`).
    fn from_seed(seed: [u8; 32]) -> ChaCha8Stream {
        ChaCha8Stream::new(&seed, 0)
    }
}

/// The ChaCha inputs of `L` lanes kept structure-of-arrays (`words[k][l]` is state word `k`
/// of lane `l`): the constants, then each lane's key, block counter and stream id.
#[derive(Clone, Debug)]
pub(super) struct LaneStates<const L: usize> {
    pub(super) words: [[u32; L]; BLOCK_WORDS],
}

impl<const L: usize> LaneStates<L> {
    /// Every lane on stream 0 of the all-zero seed, at block 0.
    pub(super) fn new() -> LaneStates<L> {
        let mut words = [[0; L]; BLOCK_WORDS];
        for (row, constant) in words.iter_mut().zip(CONSTANTS) {
            *row = [constant; L];
        }
        LaneStates { words }
    }

    /// Puts lane `l` at block 0 of stream `stream` of the 32-byte `seed`; returns the key.
    pub(super) fn start(&mut self, l: usize, seed: &[u8; 32], stream: u64) -> [u32; 8] {
        let key = key_words(seed);
        for (k, word) in key.into_iter().enumerate() {
            self.words[4 + k][l] = word;
        }
        self.words[12][l] = 0;
        self.words[13][l] = 0;
        self.words[14][l] = stream as u32;
        self.words[15][l] = (stream >> 32) as u32;
        key
    }
}

/// `L` ChaCha8 streams, each lane with its own key, stream id and block counter, handing out
/// a word of every lane at a time: lane `l` gets exactly the words of
/// `ChaCha8Rng::from_seed(seed)` after `set_stream(stream)` for the `seed` and `stream` it was
/// last [`start`](ChaCha8Lanes::start)ed with.
///
/// # Refill strategy
///
/// The lanes share one read position in a buffer of one block per lane (`buffer[k][l]` is
/// word `k` of lane `l`'s current block): a draw is one row, a vector load, and when the rows
/// run out a single call of [`chacha8_blocks`] computes the next block of every lane. No lane
/// ever wastes a block, and nothing is gathered or scattered lane by lane. That needs the
/// lanes in step, so a lane that falls out of step is served apart by a [`ChaCha8Stream`] at
/// its exact position until it is started again at a block boundary: one that draws a word
/// on its own ([`next_word_of`](ChaCha8Lanes::next_word_of), the rare rejections of
/// [`uniform_below`](ChaCha8Lanes::uniform_below)), skips one (`uniform_below` of 0), or
/// starts a stream while the others are in the middle of a block. A lock-step batch starts a
/// lane's next game only at a block boundary ([`starts_in_step`](ChaCha8Lanes::starts_in_step))
/// and leaves the lane idle until then: at most seven steps of two words, against 1,109
/// decisions in an average game of Regency, so about 0.3% of the lane steps.
///
/// The other ways cost more for every word: a read position per lane makes each draw a
/// gather (one scalar load per lane on the baseline target, and on CPUs where vector gathers
/// are slow), and refilling every lane whenever one runs dry computes blocks that most lanes
/// throw away, since lanes at different positions run dry on different steps. Measured on
/// Regency (`examples/simulate`, 2,000 games on one thread, callgrind), the batch went from
/// 155 million instructions with a `ChaCha8Rng` a lane to 103 million with these lanes.
/// Kernels whose lanes draw different numbers of words in a step read a ring of words each
/// instead (`batch::ring`), and pay for the gathers.
#[derive(Clone, Debug)]
pub struct ChaCha8Lanes<const L: usize> {
    /// The ChaCha input of each lane's next block.
    state: LaneStates<L>,
    /// Each lane's current block.
    buffer: [[u32; L]; BLOCK_WORDS],
    /// The next row of `buffer`; `BLOCK_WORDS` when the lanes are at a block boundary.
    row: usize,
    /// Lanes out of step, drawing from `apart`.
    out_of_step: [bool; L],
    /// Whether any lane is out of step.
    any_out_of_step: bool,
    /// The generators of the lanes out of step.
    apart: [ChaCha8Stream; L],
}

impl<const L: usize> Default for ChaCha8Lanes<L> {
    fn default() -> Self {
        ChaCha8Lanes::new()
    }
}

impl<const L: usize> ChaCha8Lanes<L> {
    /// Lanes all on stream 0 of the all-zero seed, at a block boundary.
    pub fn new() -> ChaCha8Lanes<L> {
        ChaCha8Lanes {
            state: LaneStates::new(),
            buffer: [[0; L]; BLOCK_WORDS],
            row: BLOCK_WORDS,
            out_of_step: [false; L],
            any_out_of_step: false,
            apart: core::array::from_fn(|_| ChaCha8Stream::new(&[0; 32], 0)),
        }
    }

    /// Whether a lane [`start`](Self::start)ed now stays in step with the others: the lanes
    /// are at a block boundary (every word of their current blocks drawn).
    #[inline(always)]
    pub fn starts_in_step(&self) -> bool {
        self.row == BLOCK_WORDS
    }

    /// Puts lane `l` at the first word of stream `stream` of the 32-byte `seed`. At a block
    /// boundary ([`starts_in_step`](Self::starts_in_step)) the lane stays in step; elsewhere
    /// it is served apart until started again at a boundary.
    pub fn start(&mut self, l: usize, seed: &[u8; 32], stream: u64) {
        let key = self.state.start(l, seed, stream);
        let apart = !self.starts_in_step();
        if apart {
            self.apart[l] = ChaCha8Stream::from_words(key, stream);
        }
        self.out_of_step[l] = apart;
        self.any_out_of_step = self.out_of_step.contains(&true);
    }

    /// Computes the next block of every lane.
    #[inline(always)]
    fn refill(&mut self) {
        chacha8_blocks(&self.state.words, &mut self.buffer);
        for l in 0..L {
            let low = self.state.words[12][l].wrapping_add(1);
            let high = self.state.words[13][l].wrapping_add(u32::from(low == 0));
            self.state.words[13][l] = high;
            self.state.words[12][l] = low;
        }
        self.row = 0;
    }

    /// The next word of every lane.
    #[inline(always)]
    pub fn next_words(&mut self, words: &mut [u32; L]) {
        if self.row == BLOCK_WORDS {
            self.refill();
        }
        *words = self.buffer[self.row];
        self.row += 1;
        if self.any_out_of_step {
            self.draw_apart(words);
        }
    }

    /// Replaces the words of the lanes out of step with their own.
    #[cold]
    #[inline(never)]
    fn draw_apart(&mut self, words: &mut [u32; L]) {
        let lanes = words.iter_mut().zip(&mut self.apart).zip(self.out_of_step);
        for ((word, apart), out_of_step) in lanes {
            if out_of_step {
                *word = apart.next_word();
            }
        }
    }

    /// The next word of lane `l` alone (the lane leaves the step).
    pub fn next_word_of(&mut self, l: usize) -> u32 {
        self.leave_step(l);
        self.apart[l].next_word()
    }

    /// Serves lane `l` apart from now on, from its next word.
    fn leave_step(&mut self, l: usize) {
        if self.out_of_step[l] {
            return;
        }
        let state = &self.state.words;
        let key = core::array::from_fn(|k| state[4 + k][l]);
        let stream = u64::from(state[15][l]) << 32 | u64::from(state[14][l]);
        let next_block = u64::from(state[13][l]) << 32 | u64::from(state[12][l]);
        // The buffer holds the block before `next_block`; its rows from `row` are undrawn.
        let pos = (u128::from(next_block) * BLOCK_WORDS as u128)
            .wrapping_sub((BLOCK_WORDS - self.row) as u128);
        let mut apart = ChaCha8Stream::from_words(key, stream);
        apart.set_word_pos(pos);
        self.apart[l] = apart;
        self.out_of_step[l] = true;
        self.any_out_of_step = true;
    }

    /// A draw of [`uniform_below`](crate::uniform_below) for each lane: `picks[l]` is
    /// `uniform_below(rng, n[l])` on lane `l`'s stream, which takes one word, more when it
    /// rejects one, and none when `n[l]` is 0.
    ///
    /// Every lane takes one word and multiplies it into place in vector instructions; only
    /// when some lane's word falls where a rejection is possible (low half of the product
    /// below `n`, about one draw in `2^32 / n`) or has `n` 0 does a lane go through the rule
    /// on its own.
    #[inline(always)]
    pub fn uniform_below(&mut self, n: &[u32; L], picks: &mut [u32; L]) {
        let mut words = [0; L];
        self.next_words(&mut words);
        if first_draws(&words, n, picks) {
            self.uniform_below_rare(n, &words, picks);
        }
    }

    /// Finishes a draw for lanes with `n` 0 (which should not have drawn) and lanes whose
    /// word may be rejected.
    #[cold]
    #[inline(never)]
    fn uniform_below_rare(&mut self, n: &[u32; L], words: &[u32; L], picks: &mut [u32; L]) {
        for l in 0..L {
            let n = n[l];
            if n == 0 {
                // Give the word back: the lane's next draw must see it again.
                self.leave_step(l);
                let apart = &mut self.apart[l];
                apart.set_word_pos(apart.word_pos().wrapping_sub(1));
                picks[l] = 0;
                continue;
            }
            let mut product = u64::from(words[l]) * u64::from(n);
            if (product as u32) < n {
                let threshold = n.wrapping_neg() % n;
                while (product as u32) < threshold {
                    product = u64::from(self.next_word_of(l)) * u64::from(n);
                }
                picks[l] = (product >> 32) as u32;
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::uniform_below;
    use rand_chacha::ChaCha8Rng;
    use rand_core::Rng;

    /// Words drawn by the long tests (across the 64-word buffers of `ChaCha8Rng` and the
    /// 128-word ones of `ChaCha8Stream`).
    const WORDS: usize = if cfg!(miri) { 140 } else { 3000 };

    /// `ChaCha8Rng` on stream `stream` of `seed`, the words a lane must draw.
    pub(in crate::batch) fn reference(seed: [u8; 32], stream: u64) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::from_seed(seed);
        rng.set_stream(stream);
        rng
    }

    fn seeds() -> [[u8; 32]; 4] {
        let mut counting = [0; 32];
        for (i, byte) in counting.iter_mut().enumerate() {
            *byte = (i as u8).wrapping_mul(37).wrapping_add(1);
        }
        [
            [0; 32],
            [0xFF; 32],
            counting,
            ChaCha8Rng::seed_from_u64(31).get_seed(),
        ]
    }

    const STREAMS: [u64; 5] = [0, 1, 5, 1 << 32, u64::MAX];

    #[test]
    fn the_rfc_test_vector_of_chacha8() {
        // ChaCha8 keystream block 0 for the all-zero key and nonce (the "TC1" vector of the
        // ChaCha test vectors draft): the block function on its own.
        let mut rng = ChaCha8Stream::new(&[0; 32], 0);
        let mut bytes = [0; 8];
        rng.fill_bytes(&mut bytes);
        assert_eq!(bytes, [0x3e, 0x00, 0xef, 0x2f, 0x89, 0x5f, 0x40, 0xd6]);
    }

    #[test]
    fn one_stream_draws_the_words_of_chacha8rng() {
        for seed in seeds() {
            for stream in STREAMS {
                let mut ours = ChaCha8Stream::new(&seed, stream);
                let mut theirs = reference(seed, stream);
                for i in 0..WORDS {
                    match i % 7 {
                        0 => assert_eq!(ours.next_u64(), theirs.next_u64()),
                        1 => {
                            let (mut a, mut b) = ([0; 7], [0; 7]);
                            ours.fill_bytes(&mut a);
                            theirs.fill_bytes(&mut b);
                            assert_eq!(a, b);
                        }
                        _ => assert_eq!(ours.next_u32(), theirs.next_u32(), "word {i}"),
                    }
                    assert_eq!(ours.word_pos(), theirs.get_word_pos());
                }
                assert_eq!(ours.seed(), seed);
                assert_eq!(ours.stream(), stream);
            }
        }
    }

    #[test]
    fn seeding_from_a_u64_matches() {
        let ours = ChaCha8Stream::seed_from_u64(31);
        assert_eq!(ours.seed(), ChaCha8Rng::seed_from_u64(31).get_seed());
    }

    #[test]
    fn word_positions_match_across_the_counter_halves() {
        let seed = seeds()[2];
        // Just before block 2^32 (the counter's low word wraps) and before the end of the
        // 68-bit word positions.
        for pos in [(1u128 << 36) - 37, (1u128 << 68) - 20, 12345] {
            let mut ours = ChaCha8Stream::new(&seed, 9);
            let mut theirs = reference(seed, 9);
            ours.set_word_pos(pos);
            theirs.set_word_pos(pos);
            for _ in 0..100 {
                assert_eq!(ours.next_u32(), theirs.next_u32());
            }
            assert_eq!(ours.word_pos(), theirs.get_word_pos());
        }
    }

    /// Lanes of different seeds and streams, drawn together.
    fn lanes_in_step<const L: usize>() {
        let mut lanes = ChaCha8Lanes::<L>::new();
        let mut theirs: [ChaCha8Rng; L] = core::array::from_fn(|l| {
            let seed = seeds()[l % 4];
            let stream = STREAMS[l % 5].wrapping_add(l as u64 / 5);
            lanes.start(l, &seed, stream);
            reference(seed, stream)
        });
        let mut words = [0; L];
        for i in 0..WORDS {
            lanes.next_words(&mut words);
            for l in 0..L {
                assert_eq!(words[l], theirs[l].next_u32(), "lane {l} word {i}");
            }
        }
        assert!(!lanes.any_out_of_step);
    }

    #[test]
    fn lanes_in_step_draw_the_words_of_chacha8rng() {
        lanes_in_step::<1>();
        lanes_in_step::<5>();
        lanes_in_step::<16>();
    }

    #[test]
    fn the_block_counter_carries_into_its_high_word() {
        let seed = seeds()[3];
        let mut lanes = ChaCha8Lanes::<3>::new();
        let mut theirs: [ChaCha8Rng; 3] = core::array::from_fn(|l| {
            lanes.start(l, &seed, l as u64);
            reference(seed, l as u64)
        });
        for (l, rng) in theirs.iter_mut().enumerate() {
            let block = u32::MAX - l as u32;
            lanes.state.words[12][l] = block;
            rng.set_word_pos(u128::from(block) * 16);
        }
        let mut words = [0; 3];
        for _ in 0..80 {
            lanes.next_words(&mut words);
            for l in 0..3 {
                assert_eq!(words[l], theirs[l].next_u32());
            }
        }
    }

    /// A small deterministic sequence for the choices of the mixed tests.
    pub(in crate::batch) fn mix(i: usize, l: usize) -> u32 {
        (i.wrapping_mul(2654435761) ^ l.wrapping_mul(40503)) as u32 >> 7
    }

    /// Lanes drawing different numbers of words (rejections, `n` of 0, words of one lane)
    /// and restarted on new streams at and between block boundaries.
    fn lanes_apart<const L: usize>() {
        let seeds = seeds();
        let mut lanes = ChaCha8Lanes::<L>::new();
        let mut theirs: [ChaCha8Rng; L] = core::array::from_fn(|l| {
            lanes.start(l, &seeds[l % 4], 1000 + l as u64);
            reference(seeds[l % 4], 1000 + l as u64)
        });
        let mut next_stream = 5000;
        let (mut n, mut picks, mut words) = ([0; L], [0; L], [0; L]);
        for i in 0..WORDS / 2 {
            match i % 5 {
                0 | 2 => {
                    lanes.next_words(&mut words);
                    for l in 0..L {
                        assert_eq!(words[l], theirs[l].next_u32(), "lane {l} step {i}");
                    }
                }
                1 | 3 => {
                    for (l, n) in n.iter_mut().enumerate() {
                        *n = match mix(i, l) % 9 {
                            // Rejects about half of the words.
                            0 => (1 << 31) + 1,
                            1 => 0,
                            2 => u32::MAX,
                            m => m,
                        };
                    }
                    lanes.uniform_below(&n, &mut picks);
                    for l in 0..L {
                        assert_eq!(picks[l], uniform_below(&mut theirs[l], n[l]), "lane {l}");
                    }
                }
                _ => {
                    let l = mix(i, 0) as usize % L;
                    match mix(i, 1) % 3 {
                        0 => assert_eq!(lanes.next_word_of(l), theirs[l].next_u32()),
                        1 => {
                            let seed = seeds[mix(i, 2) as usize % 4];
                            lanes.start(l, &seed, next_stream);
                            theirs[l] = reference(seed, next_stream);
                            next_stream += 1;
                        }
                        _ => {
                            // Run the lanes to a block boundary and restart every lane there,
                            // which brings them back in step.
                            while !lanes.starts_in_step() {
                                lanes.next_words(&mut words);
                                for l in 0..L {
                                    assert_eq!(words[l], theirs[l].next_u32());
                                }
                            }
                            for (l, rng) in theirs.iter_mut().enumerate() {
                                let seed = seeds[(l + i) % 4];
                                lanes.start(l, &seed, u64::MAX - next_stream);
                                *rng = reference(seed, u64::MAX - next_stream);
                                next_stream += 1;
                            }
                            assert!(!lanes.any_out_of_step);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lanes_out_of_step_draw_the_words_of_chacha8rng() {
        lanes_apart::<1>();
        lanes_apart::<3>();
        lanes_apart::<16>();
    }
}
