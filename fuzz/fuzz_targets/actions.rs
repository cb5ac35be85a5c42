//! The turn machine driven by bytes: each pair of bytes is a throw of any value, a legal
//! move by index, a move between two places, or an unchecked throw or move on a copy of the
//! state. No panic; a refused action changes nothing; every state reached validates and
//! round-trips through the notation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use senet::registry::RulesetVisitor;
use senet::{Game, Move, Place, Ruleset, Step, Throw};
use senet_testkit::conformance::check_state;

mod common;

struct Drive<'a>(&'a [u8]);

impl RulesetVisitor for Drive<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self, rules: &R) {
        let mut game = Game::new(rules.clone());
        let mut scratch = rules.initial_state();
        for pair in self.0.chunks_exact(2) {
            let (kind, value) = (pair[0], pair[1]);
            let before = game.clone();
            let result = match kind % 5 {
                0 => match Throw::new(value) {
                    Some(throw) => game.throw(throw),
                    None => Ok(()),
                },
                1 => {
                    let moves = game.legal_moves();
                    let mv = moves.get(usize::from(value) % moves.len().max(1)).copied();
                    game.play(mv.unwrap_or(Move::PASS))
                }
                2 => {
                    let step = Place::from_code(kind / 5 % 32)
                        .zip(Place::from_code(value % 32))
                        .map(|(from, to)| Step { from, to });
                    let mv = step
                        .and_then(|s| Move::from_steps(&[s]).ok())
                        .unwrap_or(Move::PASS);
                    let mv = match Throw::new(value / 32) {
                        Some(throw) => mv.with_throw(throw),
                        None => mv,
                    };
                    game.play(mv)
                }
                3 => {
                    if let Some(throw) = Throw::new(value) {
                        rules.throw_unchecked(&mut scratch, throw);
                    }
                    Ok(())
                }
                _ => {
                    rules.play_unchecked(&mut scratch, Move::from_codes_unchecked(kind, value));
                    let _ = rules.legal_moves(&scratch);
                    let _ = rules.position_string(&scratch);
                    Ok(())
                }
            };
            match result {
                Ok(()) => check_state(rules, game.state()).unwrap(),
                Err(_) => assert!(game == before),
            }
        }
        let record = game.record();
        assert!(Game::<R>::from_record(&record).unwrap() == game);
    }
}

fuzz_target!(|data: &[u8]| {
    for rules in common::configurations() {
        rules.visit(Drive(data));
    }
});
