//! Fixed action codes: every move of a ruleset configuration as a number that means the same
//! move in every position, for learners with a fixed-size policy output
//! (docs/action-codes.md).
//!
//! The legal-move list of a position ([`DynGame::legal_moves`](senet_core::DynGame::legal_moves))
//! changes from position to position, so its indices mean different moves each time. An
//! [`ActionCodes`] numbers moves instead by what they do: the place a piece leaves × the place
//! it reaches (× the throw the move spends, where a configuration holds several throws), plus
//! the passes and one code that ends a split move. The number of codes,
//! [`count`](ActionCodes::count), depends on the configuration only.
//!
//! A move of several steps (Piccione's split throws, `3-5,8-10`) is a sequence of step codes,
//! one per step, in order: [`legal_next`](ActionCodes::legal_next) marks the codes that can
//! come next after the codes chosen so far, and [`advance`](ActionCodes::advance) says
//! whether those codes make a whole legal move yet. Every other move is a single code.
//!
//! ```
//! use senet::action_codes::{ActionCodes, Next};
//! use senet::registry::AnyRuleset;
//! use senet::{AnyGame, Move, Phase, Throw};
//!
//! let rules = AnyRuleset::parse("regency").unwrap();
//! let codes = ActionCodes::new(&rules);
//! assert_eq!(codes.count(), 963);
//!
//! let mut game = AnyGame::new(rules);
//! game.throw(Throw::new(3).unwrap()).unwrap();
//! let legal = game.legal_moves();
//! let mut mask = vec![false; codes.count() as usize];
//! codes.legal_next(&legal, &[], &mut mask).unwrap();
//! // Every legal move has its own code, which decodes back to it.
//! for &mv in legal.iter() {
//!     let code = codes.code_of(mv).unwrap();
//!     assert!(mask[code as usize]);
//!     assert_eq!(codes.move_of(code).unwrap(), mv);
//!     assert_eq!(codes.advance(&legal, &[code]).unwrap(), Next::Move(mv));
//! }
//! // The same move has the same code in any position.
//! let mv: Move = "9-12".parse().unwrap();
//! assert_eq!(codes.code_of(mv).unwrap(), 1 + 9 * 31 + 11);
//! assert!(codes.move_of(codes.count()).is_err());
//! ```
//!
//! A whole game of Piccione, whose split moves take one code per step:
//!
//! ```
//! use senet::action_codes::{ActionCodes, Next};
//! use senet::registry::AnyRuleset;
//! use senet::{AnyGame, Phase};
//!
//! let rules = AnyRuleset::parse("piccione").unwrap();
//! let codes = ActionCodes::new(&rules);
//! let mut mask = vec![false; codes.count() as usize];
//! let mut game = AnyGame::new(rules);
//! let mut rng = senet::rng::seeded(1, 0);
//! let mut partial = Vec::new();
//! loop {
//!     match game.phase() {
//!         Phase::Over(_) => break,
//!         Phase::Throw(_) => {
//!             game.throw_random(&mut rng).unwrap();
//!         }
//!         Phase::Move(_) => {
//!             let legal = game.legal_moves();
//!             codes.legal_next(&legal, &partial, &mut mask).unwrap();
//!             // A policy picks among the marked codes; here, the last one.
//!             let code = mask.iter().rposition(|&m| m).unwrap() as u32;
//!             partial.push(code);
//!             if let Next::Move(mv) = codes.advance(&legal, &partial).unwrap() {
//!                 game.play(mv).unwrap();
//!                 partial.clear();
//!             }
//!         }
//!     }
//! }
//! ```

use core::fmt;
use core::ops::Deref;

use senet_core::{MAX_STEPS, Move, Place, Step, Throw};

use crate::registry::AnyRuleset;

/// Places a step can start from: hand (code 0) and squares 1..=30.
const FROM_PLACES: u32 = 31;
/// Places a step can reach: squares 1..=30 and off (code 31).
const TO_PLACES: u32 = 31;
/// Codes of one block of steps (one throw value, or all moves where no throw is named).
pub const STEP_BLOCK: u32 = FROM_PLACES * TO_PLACES;

/// Why a move, a code or a sequence of codes has no meaning here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodeError {
    /// The code is not below the configuration's [`count`](ActionCodes::count).
    #[error("action code {code} is out of range: this configuration has codes 0..{count}")]
    OutOfRange {
        /// The code given.
        code: u32,
        /// The configuration's number of codes.
        count: u32,
    },
    /// The move names a throw in a configuration whose moves never do, or names none in
    /// one whose moves always do, or names a throw the device cannot show.
    #[error(
        "move {0} does not fit this configuration's throws (a move names its throw, as `9-12/3`, exactly where a player holds several throws)"
    )]
    Throw(Move),
    /// A step that starts off the board or reaches hand (never generated).
    #[error("move {0} has a step that cannot be encoded")]
    BadStep(Move),
    /// The move has several steps and so is a sequence of codes
    /// ([`encode`](ActionCodes::encode)), not one code.
    #[error("move {0} has several steps: it is a sequence of codes, one per step")]
    SeveralSteps(Move),
    /// A sequence of codes that is not a move: empty, more than [`MAX_STEPS`] steps, a pass
    /// or the end code among steps, or steps naming different throws.
    #[error("the action codes {0} do not make a move")]
    NotAMove(CodeList),
    /// The codes chosen so far begin no legal move.
    #[error("the action codes {0} begin no legal move now")]
    Illegal(CodeList),
    /// A mask whose length is not the configuration's number of codes.
    #[error("the mask has {len} entries; this configuration has {count} codes")]
    MaskLength {
        /// The mask's length.
        len: usize,
        /// The configuration's number of codes.
        count: u32,
    },
}

/// What one code stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// A pass, giving up the throw named (or the whole throw, or turn, when none is).
    Pass(Option<Throw>),
    /// One step of a move, spending the throw named where moves name one.
    Step {
        /// Where the piece goes from and to.
        step: Step,
        /// The throw the move spends, where the configuration's moves name one.
        throw: Option<Throw>,
    },
    /// Ends a split move whose steps so far are already a legal move that could go on.
    End,
}

/// A short list of codes on the stack: the codes of one move (at most [`MAX_STEPS`] + 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CodeList {
    codes: [u32; MAX_STEPS + 1],
    len: u8,
}

impl CodeList {
    /// An empty list.
    pub const fn new() -> CodeList {
        CodeList {
            codes: [0; MAX_STEPS + 1],
            len: 0,
        }
    }

    /// The list of the first (at most [`MAX_STEPS`] + 1) codes of `codes`.
    pub fn from_slice(codes: &[u32]) -> CodeList {
        let mut list = CodeList::new();
        for &c in codes.iter().take(MAX_STEPS + 1) {
            list.push(c);
        }
        list
    }

    /// Appends a code; a full list stays as it is.
    pub fn push(&mut self, code: u32) {
        if usize::from(self.len) < MAX_STEPS + 1 {
            self.codes[usize::from(self.len)] = code;
            self.len += 1;
        }
    }
}

impl Default for CodeList {
    fn default() -> CodeList {
        CodeList::new()
    }
}

impl Deref for CodeList {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.codes[..usize::from(self.len)]
    }
}

impl fmt::Debug for CodeList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl fmt::Display for CodeList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// What the codes chosen so far amount to ([`ActionCodes::advance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A whole legal move: play it.
    Move(Move),
    /// The beginning of a split move: more codes are needed.
    More,
}

/// The fixed action codes of one ruleset configuration.
///
/// Layout, for a configuration whose device shows values up to `M`:
///
/// | codes | meaning |
/// |---|---|
/// | 0 | `pass` |
/// | 1..=M | `pass/v` (only where moves name their throw) |
/// | then blocks of 961 | a step `from-to`: `from` 0 (hand) or 1..=30, `to` 1..=30 or 31 (off); code `base + block × 961 + from × 31 + (to − 1)`; one block, or one per throw value `v` (block `v − 1`) where moves name their throw |
/// | last | end of a split move |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionCodes {
    /// The device's highest value where moves name their throw, 0 otherwise.
    tags: u8,
}

impl ActionCodes {
    /// The codes of `rules`.
    ///
    /// ```
    /// use senet::action_codes::ActionCodes;
    /// use senet::registry::AnyRuleset;
    /// let count = |spec| ActionCodes::new(&AnyRuleset::parse(spec).unwrap()).count();
    /// assert_eq!(count("regency"), 963);
    /// assert_eq!(count("kendall"), 4812); // moves name one of the throws held, 1..=5
    /// assert_eq!(count("regency(collect_throws=true)"), 5774);
    /// ```
    pub fn new(rules: &AnyRuleset) -> ActionCodes {
        let tags = if names_throws(rules) {
            rules
                .throw_outcomes()
                .iter()
                .map(|o| o.value.get())
                .max()
                .unwrap_or(0)
        } else {
            0
        };
        ActionCodes { tags }
    }

    /// Whether moves name the throw they spend (`9-12/3`): the configuration holds several
    /// throws at once.
    pub const fn names_throws(&self) -> bool {
        self.tags > 0
    }

    const fn step_base(&self) -> u32 {
        1 + self.tags as u32
    }

    const fn blocks(&self) -> u32 {
        if self.tags > 0 { self.tags as u32 } else { 1 }
    }

    /// The number of codes: codes run from 0 to `count() - 1` in every position.
    pub const fn count(&self) -> u32 {
        self.step_base() + self.blocks() * STEP_BLOCK + 1
    }

    /// The code of a plain `pass`: 0.
    pub const PASS: u32 = 0;

    /// The code that ends a split move early: the last one.
    pub const fn end(&self) -> u32 {
        self.count() - 1
    }

    /// The codes of `mv`: one for a pass or a single step, one per step for a split move.
    /// Never allocates.
    pub fn encode(&self, mv: Move) -> Result<CodeList, CodeError> {
        let block = self.block_of(mv)?;
        let mut list = CodeList::new();
        if mv.is_pass() {
            list.push(match mv.throw() {
                None => Self::PASS,
                Some(t) => u32::from(t.get()),
            });
            return Ok(list);
        }
        for i in 0..mv.step_count() {
            let [from, to] = mv.step_codes(i);
            if u32::from(from) >= FROM_PLACES || to == 0 || u32::from(to) > TO_PLACES {
                return Err(CodeError::BadStep(mv));
            }
            list.push(
                self.step_base()
                    + block * STEP_BLOCK
                    + u32::from(from) * TO_PLACES
                    + u32::from(to - 1),
            );
        }
        Ok(list)
    }

    /// The block of a move's steps, checking its throw against the configuration.
    fn block_of(&self, mv: Move) -> Result<u32, CodeError> {
        match (mv.throw(), self.tags) {
            (None, 0) => Ok(0),
            (None, _) if mv.is_pass() => Ok(0),
            (Some(t), tags) if tags > 0 && t.get() <= tags => Ok(u32::from(t.get() - 1)),
            _ => Err(CodeError::Throw(mv)),
        }
    }

    /// The one code of a move that is a pass or a single step.
    pub fn code_of(&self, mv: Move) -> Result<u32, CodeError> {
        let list = self.encode(mv)?;
        match *list {
            [code] => Ok(code),
            _ => Err(CodeError::SeveralSteps(mv)),
        }
    }

    /// What `code` stands for.
    pub fn meaning(&self, code: u32) -> Result<Meaning, CodeError> {
        let count = self.count();
        if code >= count {
            return Err(CodeError::OutOfRange { code, count });
        }
        if code == self.end() {
            return Ok(Meaning::End);
        }
        if code < self.step_base() {
            let throw = if code == 0 {
                None
            } else {
                Throw::new(code as u8)
            };
            return Ok(Meaning::Pass(throw));
        }
        let rest = code - self.step_base();
        let (block, within) = (rest / STEP_BLOCK, rest % STEP_BLOCK);
        let (from, to) = (within / TO_PLACES, within % TO_PLACES + 1);
        let throw = if self.tags > 0 {
            Throw::new(block as u8 + 1)
        } else {
            None
        };
        // Both places are in range by construction; `from == to` is no step.
        match (Place::from_code(from as u8), Place::from_code(to as u8)) {
            (Some(from), Some(to)) if from != to => Ok(Meaning::Step {
                step: Step { from, to },
                throw,
            }),
            _ => Err(CodeError::NotAMove(CodeList::from_slice(&[code]))),
        }
    }

    /// The move a sequence of codes stands for: one pass code, or one to [`MAX_STEPS`]
    /// step codes naming the same throw. Whether it is legal now is another question
    /// ([`advance`](ActionCodes::advance)).
    pub fn decode(&self, codes: &[u32]) -> Result<Move, CodeError> {
        let not_a_move = || CodeError::NotAMove(CodeList::from_slice(codes));
        if codes.is_empty() || codes.len() > MAX_STEPS {
            return Err(not_a_move());
        }
        let mut mv = Move::PASS;
        let mut named: Option<Option<Throw>> = None;
        for &code in codes {
            match self.meaning(code)? {
                Meaning::Pass(throw) if codes.len() == 1 => {
                    return Ok(match throw {
                        Some(t) => Move::PASS.with_throw(t),
                        None => Move::PASS,
                    });
                }
                Meaning::Step { step, throw } => {
                    if named.is_some_and(|n| n != throw) {
                        return Err(not_a_move());
                    }
                    named = Some(throw);
                    mv = mv.then_codes_unchecked(step.from.code(), step.to.code());
                }
                _ => return Err(not_a_move()),
            }
        }
        Ok(match named.flatten() {
            Some(t) => mv.with_throw(t),
            None => mv,
        })
    }

    /// The move of a single code (a pass or a one-step move).
    pub fn move_of(&self, code: u32) -> Result<Move, CodeError> {
        self.decode(&[code])
    }

    /// Marks in `mask` (one entry per code) the codes that may follow `prefix`, the codes
    /// chosen so far of a move among `legal` (empty at the start of a decision), and returns
    /// how many there are. The end code is marked when `prefix` is itself a legal move that
    /// some legal move extends. Never allocates.
    pub fn legal_next<T: Copy + From<bool> + PartialEq>(
        &self,
        legal: &[Move],
        prefix: &[u32],
        mask: &mut [T],
    ) -> Result<usize, CodeError> {
        if mask.len() != self.count() as usize {
            return Err(CodeError::MaskLength {
                len: mask.len(),
                count: self.count(),
            });
        }
        mask.fill(T::from(false));
        let mut marked = 0;
        let mut complete = false;
        let mut extended = false;
        for &mv in legal {
            let codes = self.encode(mv)?;
            if codes.len() < prefix.len() || codes[..prefix.len()] != *prefix {
                continue;
            }
            match codes.get(prefix.len()) {
                Some(&next) => {
                    extended = true;
                    let slot = &mut mask[next as usize];
                    if *slot != T::from(true) {
                        marked += 1;
                        *slot = T::from(true);
                    }
                }
                None => complete = true,
            }
        }
        if complete && extended {
            marked += 1;
            mask[self.end() as usize] = T::from(true);
        }
        Ok(marked)
    }

    /// What the codes chosen so far (`codes`, the last possibly the end code) make among the
    /// `legal` moves: a whole move, the beginning of one, or nothing legal.
    ///
    /// A sequence that is a legal move is that move unless a longer legal move begins with
    /// it; then the end code finishes it.
    pub fn advance(&self, legal: &[Move], codes: &[u32]) -> Result<Next, CodeError> {
        let illegal = || CodeError::Illegal(CodeList::from_slice(codes));
        if let Some((&last, steps)) = codes.split_last()
            && last == self.end()
        {
            let mv = self.decode(steps)?;
            return if legal.contains(&mv) {
                Ok(Next::Move(mv))
            } else {
                Err(illegal())
            };
        }
        let mut complete = None;
        let mut extended = false;
        for &mv in legal {
            let encoded = self.encode(mv)?;
            if encoded.len() < codes.len() || encoded[..codes.len()] != *codes {
                continue;
            }
            if encoded.len() == codes.len() {
                complete = Some(mv);
            } else {
                extended = true;
            }
        }
        match (complete, extended) {
            (_, true) => Ok(Next::More),
            (Some(mv), false) => Ok(Next::Move(mv)),
            (None, false) => Err(illegal()),
        }
    }
}

/// Whether the configuration's moves name the throw they spend: Kendall's stored throws and
/// Regency's `collect_throws` option.
fn names_throws(rules: &AnyRuleset) -> bool {
    match rules.id() {
        "kendall" => true,
        "regency" => rules.spec().option("collect_throws") == Some("true"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{RULESETS, Registered, RulesetVisitor};
    use crate::rng::{Rng, seeded};
    use crate::{AnyGame, Phase};
    use std::collections::HashSet;

    struct Combinations;
    impl RulesetVisitor for Combinations {
        type Output = Vec<AnyRuleset>;
        fn visit<R: Registered>(self, _rules: &R) -> Vec<AnyRuleset> {
            senet_core::option_combinations::<R>()
                .expect("the declared options combine")
                .into_iter()
                .map(|r| AnyRuleset::from_spec(&senet_core::Ruleset::spec(&r)).unwrap())
                .collect()
        }
    }

    /// Every configuration of every registered ruleset.
    fn configurations() -> Vec<AnyRuleset> {
        RULESETS
            .iter()
            .flat_map(|info| AnyRuleset::parse(info.id).unwrap().visit(Combinations))
            .collect()
    }

    /// Checks every legal move of one decision: a code list of its own, decoding back to
    /// it, reachable code by code through `legal_next` and `advance`.
    fn check_decision(codes: &ActionCodes, game: &AnyGame, mask: &mut [bool]) {
        let legal = game.legal_moves();
        let mut seen = HashSet::new();
        for &mv in legal.iter() {
            let list = codes
                .encode(mv)
                .unwrap_or_else(|e| panic!("{}: {e}", game.position()));
            assert!(
                seen.insert(list),
                "{}: {mv} shares its codes",
                game.position()
            );
            assert!(list.iter().all(|&c| c < codes.count() && c != codes.end()));
            assert_eq!(codes.decode(&list).unwrap(), mv);
            for i in 0..list.len() {
                codes.legal_next(&legal, &list[..i], mask).unwrap();
                assert!(mask[list[i] as usize], "{}: {mv} step {i}", game.position());
                let expected = if i + 1 == list.len() {
                    Next::Move(mv)
                } else {
                    Next::More
                };
                let got = codes.advance(&legal, &list[..=i]).unwrap();
                if got != expected {
                    // A legal move that a longer one extends is finished by the end code.
                    assert_eq!(got, Next::More);
                    let mut ended = CodeList::from_slice(&list);
                    ended.push(codes.end());
                    assert_eq!(codes.advance(&legal, &ended).unwrap(), Next::Move(mv));
                }
            }
        }
        // The mask at the start marks exactly the first codes of the legal moves.
        let n = codes.legal_next(&legal, &[], mask).unwrap();
        let firsts: HashSet<u32> = legal.iter().map(|&m| codes.encode(m).unwrap()[0]).collect();
        assert_eq!(n, firsts.len());
        assert_eq!(mask.iter().filter(|&&m| m).count(), firsts.len());
    }

    #[test]
    fn every_legal_move_of_random_games_has_distinct_codes_that_decode_back() {
        let mut decisions = 0u64;
        for rules in configurations() {
            let codes = ActionCodes::new(&rules);
            // The count is the configuration's, whatever the position.
            assert_eq!(codes.count(), ActionCodes::new(&rules.clone()).count());
            let mut mask = vec![false; codes.count() as usize];
            // Each ruleset's default configuration at length, every other one briefly.
            let games = if rules.spec().options().is_empty() {
                10
            } else {
                2
            };
            for g in 0..games {
                let mut rng = seeded(g, 3);
                let mut game = AnyGame::new(rules.clone());
                for _ in 0..2000 {
                    match game.phase() {
                        Phase::Over(_) => break,
                        Phase::Throw(_) => {
                            game.throw_random(&mut rng).unwrap();
                        }
                        Phase::Move(_) => {
                            check_decision(&codes, &game, &mut mask);
                            decisions += 1;
                            let legal = game.legal_moves();
                            let mv = legal[(rng.next_u32() as usize) % legal.len()];
                            game.play(mv).unwrap();
                        }
                    }
                }
            }
        }
        assert!(decisions > 5_000, "{decisions} decisions");
    }

    #[test]
    fn counts_per_ruleset() {
        let count = |spec: &str| ActionCodes::new(&AnyRuleset::parse(spec).unwrap()).count();
        for info in RULESETS {
            let expected = match info.id {
                "kendall" => 1 + 5 + 5 * 961 + 1,
                _ => 1 + 961 + 1,
            };
            assert_eq!(count(info.id), expected, "{}", info.id);
        }
        assert_eq!(count("regency(collect_throws=true)"), 1 + 6 + 6 * 961 + 1);
    }

    #[test]
    fn every_code_decodes_to_a_move_that_encodes_back_or_is_refused() {
        for rules in configurations() {
            let codes = ActionCodes::new(&rules);
            for code in 0..codes.count() {
                match codes.meaning(code) {
                    Ok(Meaning::End) => assert_eq!(code, codes.end()),
                    Ok(_) => {
                        let mv = codes.move_of(code).unwrap();
                        assert_eq!(codes.code_of(mv), Ok(code), "{rules:?} {code}");
                    }
                    Err(CodeError::NotAMove(_)) => {}
                    Err(e) => panic!("{code}: {e}"),
                }
            }
            let count = codes.count();
            assert_eq!(
                codes.meaning(count),
                Err(CodeError::OutOfRange { code: count, count })
            );
            assert!(codes.move_of(codes.end()).is_err());
        }
    }

    #[test]
    fn bad_input_is_refused() {
        let regency = ActionCodes::new(&AnyRuleset::parse("regency").unwrap());
        let kendall = ActionCodes::new(&AnyRuleset::parse("kendall").unwrap());
        let tagged: Move = "9-12/3".parse().unwrap();
        let plain: Move = "9-12".parse().unwrap();
        assert_eq!(regency.encode(tagged), Err(CodeError::Throw(tagged)));
        assert_eq!(kendall.encode(plain), Err(CodeError::Throw(plain)));
        assert_eq!(kendall.code_of(Move::PASS), Ok(0));
        assert_eq!(kendall.code_of("pass/4".parse().unwrap()), Ok(4));
        let split: Move = "3-5,8-10".parse().unwrap();
        assert_eq!(regency.code_of(split), Err(CodeError::SeveralSteps(split)));
        assert_eq!(regency.decode(&regency.encode(split).unwrap()), Ok(split));
        assert!(matches!(regency.decode(&[]), Err(CodeError::NotAMove(_))));
        assert!(matches!(
            regency.decode(&[0, 0]),
            Err(CodeError::NotAMove(_))
        ));
        // Steps of one move name one throw.
        let a = kendall.code_of("9-12/3".parse().unwrap()).unwrap();
        let b = kendall.code_of("3-5/2".parse().unwrap()).unwrap();
        assert!(matches!(
            kendall.decode(&[a, b]),
            Err(CodeError::NotAMove(_))
        ));
        let mut short = [false; 3];
        assert_eq!(
            regency.legal_next(&[Move::PASS], &[], &mut short),
            Err(CodeError::MaskLength { len: 3, count: 963 })
        );
        assert!(matches!(
            regency.advance(&[Move::PASS], &[5]),
            Err(CodeError::Illegal(_))
        ));
        let e = regency.move_of(10_000).unwrap_err().to_string();
        assert!(e.contains("10000") && e.contains("0..963"), "{e}");
    }

    #[test]
    fn encoding_and_masks_do_not_allocate() {
        let rules = AnyRuleset::parse("piccione").unwrap();
        let codes = ActionCodes::new(&rules);
        let mut game = AnyGame::new(rules);
        let mut rng = seeded(1, 0);
        let mut mask = vec![0i8; codes.count() as usize];
        for _ in 0..200 {
            match game.phase() {
                Phase::Over(_) => break,
                Phase::Throw(_) => {
                    game.throw_random(&mut rng).unwrap();
                }
                Phase::Move(_) => {
                    let legal = game.legal_moves();
                    let mv = legal[0];
                    let info = allocation_counter::measure(|| {
                        let list = codes.encode(mv).unwrap();
                        codes.legal_next(&legal, &list[..1], &mut mask).unwrap();
                        let _ = codes.advance(&legal, &list).unwrap();
                        let _ = codes.decode(&list).unwrap();
                    });
                    assert_eq!(info.count_total, 0);
                    game.play(mv).unwrap();
                }
            }
        }
    }
}
