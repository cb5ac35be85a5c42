//! The choices of one decision kept as the positions they lead to, which is all a random
//! move needs: the batch kernel's lists and [`Piccione`](crate::Piccione)'s
//! `play_random_move` build no [`Move`](senet_core::Move) and keep no table of positions.

use senet_core::rand_core::Rng;
use senet_core::uniform_below;

use super::{Choices, Node, Sink, search};

/// The choice that passes (P-7, P-8), beside the keys of [`Node`]s (bits 0..56).
pub(crate) const PASS: u64 = 1 << 62;
/// The choice that enters a piece onto square 1 (P-3).
pub(crate) const ENTER: u64 = 1 << 63;

/// The choices of one decision in the order of the move list, at most `N`, each as the
/// position it leads to (the key of its [`Node`]), or [`PASS`] or [`ENTER`].
pub(crate) struct Outcomes<const N: usize> {
    pub(crate) keys: [u64; N],
    pub(crate) len: usize,
    /// One bit for each key the search offered, at a hash of the key: a key whose bit is
    /// still clear is new without a look through the list.
    pub(crate) seen: u64,
    /// Whether a choice found no room: the list holds only the first `N`.
    pub(crate) full: bool,
}

impl<const N: usize> Outcomes<N> {
    pub(crate) const EMPTY: Outcomes<N> = Outcomes {
        keys: [0; N],
        len: 0,
        seen: 0,
        full: false,
    };

    /// The choice at [`uniform_below`]`(rng, len)`, the one draw a random move makes; a pass
    /// if the list is empty (it never is after [`list_choices`](crate::list_choices)).
    #[inline(always)]
    pub(crate) fn pick<G: Rng + ?Sized>(&self, rng: &mut G) -> u64 {
        let pick = uniform_below(rng, self.len as u32) as usize;
        self.keys[..self.len].get(pick).copied().unwrap_or(PASS)
    }

    /// Appends `key`, or notes that the list is full.
    #[inline(always)]
    fn push(&mut self, key: u64) {
        if let Some(slot) = self.keys.get_mut(self.len) {
            *slot = key;
            self.len += 1;
        } else {
            self.full = true;
        }
    }
}

impl<const N: usize> Sink for Outcomes<N> {
    type Way = ();

    #[inline(always)]
    fn offer(&mut self, node: Node, (): ()) {
        let key = node.key();
        let bit = 1u64 << (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        if self.seen & bit != 0 && self.keys[..self.len].contains(&key) {
            return;
        }
        self.seen |= bit;
        self.push(key);
    }
}

impl<const N: usize> Choices for Outcomes<N> {
    type Way = ();

    #[inline(always)]
    fn pass(&mut self) {
        self.push(PASS);
    }

    #[inline(always)]
    fn enter(&mut self) {
        self.push(ENTER);
    }

    #[inline(always)]
    fn distinct(&mut self, node: Node, (): ()) {
        self.push(node.key());
    }

    #[inline(always)]
    fn split(&mut self, root: Node, opp: u32, forward: bool, must_move_one: bool, t: u8) {
        search(root, opp, forward, must_move_one, t, self);
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}
