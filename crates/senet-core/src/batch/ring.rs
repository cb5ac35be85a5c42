//! Random words for lanes that draw different numbers of words in a step: each lane keeps a
//! ring of its next words and reads at a position of its own, and a kernel may look at the
//! throws the words ahead would give (bit-sliced) and take several at once.

use core::convert::Infallible;

use rand_core::{Rng, TryRng};

use super::chacha::{BLOCK_WORDS, LaneStates, chacha8_blocks, first_draws};
use crate::throw::uniform_below_from;

/// Words a lane's ring holds: two blocks, one being read while the next waits.
pub(super) const RING_WORDS: usize = 2 * BLOCK_WORDS;

/// The fewest words [`Ring::fill_ahead`] leaves ahead of a lane that asks. Refilling only
/// below it rather than below a whole block lets most refills serve many lanes at once (a
/// lane takes a block only when it has room for it), and a lane that throws finds its 2 or 3
/// within eight throws but for (6/16)^8 = 0.04% of its turns.
pub(super) const AHEAD: u32 = 8;

/// The top four bits of the next words of each lane, bit-sliced: bit `i` of `planes[b][l]`
/// is bit `28 + b` of the `i`-th word lane `l` would draw next (the four sticks of a throw,
/// [`sticks`](super::sticks)), for the first `available[l]` words.
pub struct WordsAhead<const L: usize> {
    /// One bit of the top four of each word ahead, word `i` in bit `i`.
    pub planes: [[u32; L]; 4],
    /// How many words ahead the planes hold (at least one for a lane that asked, at most
    /// 32).
    pub available: [u32; L],
}

/// Where a ring gets the blocks of its lanes.
pub(super) trait BlockSource<const L: usize> {
    /// Writes the next block of words of each lane with `room[l]` all ones into
    /// `block[k][l]`, and moves those lanes past it; the other lanes' entries are ignored.
    fn next_blocks(&mut self, room: &[u32; L], block: &mut [[u32; L]; BLOCK_WORDS]);
}

/// The words of `L` lanes, each read at its own position from a ring of two blocks that
/// `S` refills: a lane draws exactly its source's words in order, whichever lanes draw
/// alongside it. A draw gathers a word a lane. When a lane that draws has nothing left, each
/// lane with room for a block (no more than one block unread) gets its next one.
pub(super) struct Ring<S, const L: usize> {
    pub(super) source: S,
    /// `words[k][l]` is word `k` of lane `l`'s ring.
    words: [[u32; L]; RING_WORDS],
    /// The top four bits of the ring's words, bit-sliced as in [`WordsAhead`] but by ring
    /// position.
    planes: [[u32; L]; 4],
    /// Where each lane reads next.
    read: [u32; L],
    /// How many words each lane has left to read.
    held: [u32; L],
}

impl<S: BlockSource<L>, const L: usize> Ring<S, L> {
    /// Empty rings over `source`.
    pub(super) fn new(source: S) -> Ring<S, L> {
        Ring {
            source,
            words: [[0; L]; RING_WORDS],
            planes: [[0; L]; 4],
            read: [0; L],
            held: [0; L],
        }
    }

    /// Empties lane `l`'s ring, for a lane whose source starts afresh.
    pub(super) fn clear(&mut self, l: usize) {
        self.read[l] = 0;
        self.held[l] = 0;
    }

    /// Gives each lane with room in its ring its next block (inlined, so that it gets the
    /// kernel's vector instructions).
    #[inline(always)]
    fn refill(&mut self) {
        let room = self
            .held
            .map(|held| 0u32.wrapping_sub(u32::from(held <= BLOCK_WORDS as u32)));
        let mut block = [[0; L]; BLOCK_WORDS];
        self.source.next_blocks(&room, &mut block);
        // The top bits of the block's words, bit-sliced, in vector instructions.
        let mut bits = [[0u32; L]; 4];
        for (k, block) in block.iter().enumerate() {
            for l in 0..L {
                let top = block[l] >> 28;
                bits[0][l] |= (top & 1) << k;
                bits[1][l] |= (top >> 1 & 1) << k;
                bits[2][l] |= (top >> 2 & 1) << k;
                bits[3][l] |= (top >> 3) << k;
            }
        }
        // The unread words of a lane end at a block boundary of its ring, where the new block
        // goes. Lane by lane: in vector instructions, keeping the words of the lanes without
        // room would take masked stores, which are slow on some CPUs.
        for l in 0..L {
            if room[l] == 0 {
                continue;
            }
            let at = (self.read[l] + self.held[l]) as usize % RING_WORDS;
            let (front, back) = self.words.split_at_mut(BLOCK_WORDS);
            let half = if at == 0 { front } else { back };
            for (row, block) in half.iter_mut().zip(&block) {
                row[l] = block[l];
            }
            let shift = at as u32;
            for (plane, bits) in self.planes.iter_mut().zip(&bits) {
                plane[l] = plane[l] & !(0xFFFF << shift) | bits[l] << shift;
            }
            self.held[l] += BLOCK_WORDS as u32;
        }
    }

    /// Makes sure that each lane with `needs[l]` has at least [`AHEAD`] words ahead.
    #[inline(always)]
    pub(super) fn fill_ahead(&mut self, needs: &[bool; L]) {
        let mut short = false;
        for (&needs, &held) in needs.iter().zip(&self.held) {
            short |= needs & (held < AHEAD);
        }
        if short {
            self.refill();
        }
    }

    /// The top bits of every lane's words ahead ([`WordsAhead`]).
    #[inline(always)]
    pub(super) fn ahead(&self) -> WordsAhead<L> {
        let mut ahead = WordsAhead {
            planes: [[0; L]; 4],
            available: self.held,
        };
        for (ahead, plane) in ahead.planes.iter_mut().zip(&self.planes) {
            for l in 0..L {
                ahead[l] = plane[l].rotate_right(self.read[l]);
            }
        }
        ahead
    }

    /// Moves each lane past its next `taken[l]` words (no more than it holds).
    #[inline(always)]
    pub(super) fn advance(&mut self, taken: &[u32; L]) {
        let lanes = self.read.iter_mut().zip(&mut self.held).zip(taken);
        for ((read, held), &taken) in lanes {
            *read = (*read + taken) % RING_WORDS as u32;
            *held -= taken;
        }
    }

    /// The next word of each lane with `draws[l]` into `words[l]`; the other lanes keep
    /// their position (and their entry of `words` is left undefined).
    #[inline(always)]
    pub(super) fn next_words_where(&mut self, draws: &[bool; L], words: &mut [u32; L]) {
        let mut short = false;
        for (&draws, &held) in draws.iter().zip(&self.held) {
            short |= draws & (held == 0);
        }
        if short {
            self.refill();
        }
        let at = self.read;
        let mut taken = [0; L];
        for l in 0..L {
            taken[l] = u32::from(draws[l]);
        }
        self.advance(&taken);
        for l in 0..L {
            words[l] = self.words[at[l] as usize % RING_WORDS][l];
        }
    }

    /// The next word of lane `l` alone.
    fn next_word_of(&mut self, l: usize) -> u32 {
        if self.held[l] == 0 {
            self.refill();
        }
        let at = self.read[l] as usize % RING_WORDS;
        self.read[l] = (self.read[l] + 1) % RING_WORDS as u32;
        self.held[l] -= 1;
        self.words[at][l]
    }

    /// A draw of [`uniform_below`](crate::uniform_below) for each lane: `picks[l]` is
    /// `uniform_below(rng, n[l].max(1))` on lane `l`'s words, which takes one word, and more
    /// when it rejects one. The first word of every lane is drawn and multiplied into place
    /// together; a lane whose word may be rejected (low half of the product below `n`) then
    /// finishes its draw alone.
    #[inline(always)]
    pub(super) fn uniform_below(&mut self, n: &[u32; L], picks: &mut [u32; L]) {
        let mut words = [0; L];
        self.next_words_where(&[true; L], &mut words);
        if first_draws(&words, n, picks) {
            self.uniform_below_rare(n, &words, picks);
        }
    }

    /// Finishes the draws whose first word may be rejected.
    #[cold]
    #[inline(never)]
    fn uniform_below_rare(&mut self, n: &[u32; L], words: &[u32; L], picks: &mut [u32; L]) {
        for l in 0..L {
            let n = n[l].max(1);
            if (u64::from(words[l]) * u64::from(n)) as u32 >= n {
                continue;
            }
            let mut lane = RingLane { ring: self, l };
            picks[l] = uniform_below_from(words[l], &mut lane, n);
        }
    }
}

/// One lane of a [`Ring`] as a generator, for the draws a lane finishes alone.
struct RingLane<'a, S, const L: usize> {
    ring: &'a mut Ring<S, L>,
    l: usize,
}

impl<S: BlockSource<L>, const L: usize> TryRng for RingLane<'_, S, L> {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.ring.next_word_of(self.l))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let low = self.ring.next_word_of(self.l);
        Ok(u64::from(self.ring.next_word_of(self.l)) << 32 | u64::from(low))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let bytes = self.ring.next_word_of(self.l).to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

/// ChaCha8 streams computed across lanes, each lane with its own key, stream id and block
/// counter: lane `l` gets exactly the words of `ChaCha8Rng::from_seed(seed)` after
/// `set_stream(stream)` for the `seed` and `stream` it was last started with. One call of
/// [`chacha8_blocks`] computes the next block of every lane; the lanes without room throw
/// theirs away and compute it again later.
pub(super) struct ChaCha8Blocks<const L: usize> {
    /// The ChaCha input of each lane's next block.
    state: LaneStates<L>,
}

impl<const L: usize> ChaCha8Blocks<L> {
    /// Lanes all on stream 0 of the all-zero seed.
    pub(super) fn new() -> ChaCha8Blocks<L> {
        ChaCha8Blocks {
            state: LaneStates::new(),
        }
    }

    /// Puts lane `l` at the first block of stream `stream` of the 32-byte `seed`.
    pub(super) fn start(&mut self, l: usize, seed: &[u8; 32], stream: u64) {
        self.state.start(l, seed, stream);
    }
}

impl<const L: usize> BlockSource<L> for ChaCha8Blocks<L> {
    #[inline(always)]
    fn next_blocks(&mut self, room: &[u32; L], block: &mut [[u32; L]; BLOCK_WORDS]) {
        chacha8_blocks(&self.state.words, block);
        let mut carries = false;
        for (low, &room) in self.state.words[12].iter_mut().zip(room) {
            *low = low.wrapping_add(room & 1);
            carries |= (room != 0) & (*low == 0);
        }
        if carries {
            self.carry(room);
        }
    }
}

impl<const L: usize> ChaCha8Blocks<L> {
    /// Carries into the high word of the block counter of the lanes that moved on and whose
    /// low word wrapped to 0: apart from the step, whose vector instructions would otherwise
    /// keep the other lanes' high words with masked stores.
    #[cold]
    #[inline(never)]
    fn carry(&mut self, room: &[u32; L]) {
        let (low, high) = self.state.words.split_at_mut(13);
        for ((high, &low), &room) in high[0].iter_mut().zip(&low[12]).zip(room) {
            if room != 0 && low == 0 {
                *high = high.wrapping_add(1);
            }
        }
    }
}

/// A generator of each lane's own: a lane with room draws its next block word by word.
pub(super) struct GeneratorBlocks<G, const L: usize> {
    pub(super) rng: [G; L],
}

impl<G: Rng, const L: usize> BlockSource<L> for GeneratorBlocks<G, L> {
    #[inline(always)]
    fn next_blocks(&mut self, room: &[u32; L], block: &mut [[u32; L]; BLOCK_WORDS]) {
        for (l, rng) in self.rng.iter_mut().enumerate() {
            if room[l] != 0 {
                for words in block.iter_mut() {
                    words[l] = rng.next_u32();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::chacha::tests::{mix, reference};
    use super::*;
    use crate::uniform_below;
    use rand_chacha::ChaCha8Rng;

    /// Steps of the long test (each draws a few words a lane).
    const STEPS: usize = if cfg!(miri) { 60 } else { 2000 };

    fn start<const L: usize>(
        ring: &mut Ring<ChaCha8Blocks<L>, L>,
        l: usize,
        seed: [u8; 32],
        s: u64,
    ) {
        ring.source.start(l, &seed, s);
        ring.clear(l);
    }

    /// Checks the words ahead of each lane against clones of the reference generators.
    fn check_ahead<const L: usize>(ahead: &WordsAhead<L>, theirs: &[ChaCha8Rng; L], step: usize) {
        for (l, theirs) in theirs.iter().enumerate() {
            let mut rng = theirs.clone();
            for i in 0..ahead.available[l] {
                let top = rng.next_u32() >> 28;
                for b in 0..4 {
                    let bit = ahead.planes[b][l] >> i & 1;
                    assert_eq!(bit, top >> b & 1, "lane {l} word {i} plane {b} step {step}");
                }
            }
        }
    }

    /// Lanes drawing different numbers of words (some lanes not at all, several at once
    /// after a look ahead, rejections, words of one lane) and restarted on new streams,
    /// against `ChaCha8Rng` word for word.
    fn lanes_apart<const L: usize>() {
        let seeds: [[u8; 32]; 3] = [
            [0; 32],
            [7; 32],
            core::array::from_fn(|i| (i as u8).wrapping_mul(37)),
        ];
        let mut ring = Ring::<_, L>::new(ChaCha8Blocks::new());
        let mut theirs: [ChaCha8Rng; L] =
            core::array::from_fn(|l| reference(seeds[l % 3], l as u64));
        for l in 0..L {
            start(&mut ring, l, seeds[l % 3], l as u64);
        }
        let mut next_stream = u64::from(u32::MAX) - 3;
        let (mut words, mut picks) = ([0; L], [0; L]);
        for i in 0..STEPS {
            match i % 5 {
                0 | 1 => {
                    // Some lanes draw, most of them several times in a row.
                    let draws: [bool; L] = core::array::from_fn(|l| !mix(i, l).is_multiple_of(3));
                    for _ in 0..1 + i % 3 {
                        ring.next_words_where(&draws, &mut words);
                        for l in (0..L).filter(|&l| draws[l]) {
                            assert_eq!(words[l], theirs[l].next_u32(), "lane {l} step {i}");
                        }
                    }
                }
                2 => {
                    let n: [u32; L] = core::array::from_fn(|l| match mix(i, l) % 5 {
                        // Rejects about half of the words.
                        0 => (1 << 31) + 1,
                        1 => 0,
                        2 => u32::MAX,
                        m => m,
                    });
                    ring.uniform_below(&n, &mut picks);
                    for l in 0..L {
                        let pick = uniform_below(&mut theirs[l], n[l].max(1));
                        assert_eq!(picks[l], pick, "lane {l} step {i}");
                    }
                }
                3 => {
                    let needs: [bool; L] = core::array::from_fn(|l| !mix(i, l).is_multiple_of(4));
                    ring.fill_ahead(&needs);
                    let ahead = ring.ahead();
                    check_ahead(&ahead, &theirs, i);
                    let taken: [u32; L] = core::array::from_fn(|l| {
                        let available = ahead.available[l];
                        assert!(!needs[l] || available >= AHEAD, "lane {l}");
                        mix(i, l + 7) % (available + 1)
                    });
                    ring.advance(&taken);
                    for l in 0..L {
                        for _ in 0..taken[l] {
                            theirs[l].next_u32();
                        }
                    }
                }
                _ => {
                    let l = mix(i, 0) as usize % L;
                    if mix(i, 1).is_multiple_of(2) {
                        assert_eq!(ring.next_word_of(l), theirs[l].next_u32());
                    } else {
                        // High stream words and a fresh lane among lanes mid-ring.
                        let seed = seeds[mix(i, 2) as usize % 3];
                        start(&mut ring, l, seed, next_stream << 20);
                        theirs[l] = reference(seed, next_stream << 20);
                        next_stream += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn lanes_apart_draw_the_words_of_chacha8rng() {
        lanes_apart::<1>();
        lanes_apart::<3>();
        lanes_apart::<16>();
    }

    #[test]
    fn the_block_counter_carries_into_its_high_word() {
        let seed = [9; 32];
        let mut ring = Ring::<_, 2>::new(ChaCha8Blocks::new());
        let mut theirs: [ChaCha8Rng; 2] = core::array::from_fn(|l| reference(seed, l as u64));
        for (l, rng) in theirs.iter_mut().enumerate() {
            start(&mut ring, l, seed, l as u64);
            let block = u32::MAX - l as u32;
            ring.source.state.words[12][l] = block;
            rng.set_word_pos(u128::from(block) * 16);
        }
        let mut words = [0; 2];
        for i in 0..80 {
            let draws = [true, i % 3 != 0];
            ring.next_words_where(&draws, &mut words);
            for l in (0..2).filter(|&l| draws[l]) {
                assert_eq!(words[l], theirs[l].next_u32());
            }
        }
    }

    #[test]
    fn generator_lanes_draw_their_own_words() {
        let mut ring = Ring::<_, 3>::new(GeneratorBlocks {
            rng: core::array::from_fn(|l| reference([3; 32], l as u64)),
        });
        let mut theirs: [ChaCha8Rng; 3] = core::array::from_fn(|l| reference([3; 32], l as u64));
        let mut words = [0; 3];
        for i in 0..200 {
            let draws = [true, i % 2 == 0, i % 7 == 0];
            ring.next_words_where(&draws, &mut words);
            for l in (0..3).filter(|&l| draws[l]) {
                assert_eq!(words[l], theirs[l].next_u32(), "lane {l} draw {i}");
            }
            if i % 11 == 0 {
                ring.fill_ahead(&[true; 3]);
                check_ahead(&ring.ahead(), &theirs, i);
            }
        }
    }
}
