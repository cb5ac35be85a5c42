//! Determinism, for every registered configuration (`common::configurations`):
//!
//! - the same seed gives the same game, through `Game::play_random`, `random_playout` and a
//!   step-by-step player drawing from the RNG the same way;
//! - games played on several threads (game *i* on ChaCha8 stream *i*) are the same whatever
//!   the number of threads, and so is their merged summary;
//! - a record replays to the same final position (from the `GameRecord`, its text form and
//!   JSON);
//! - a game saved in the middle (text and JSON) and resumed with the same RNG finishes
//!   exactly as the game that was never interrupted.
//!
//! That the same seed gives the same game on every run (and every machine) is what the
//! checked-in golden playthroughs (`tests/golden.rs`) pin down.

mod common;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rayon::prelude::*;
use senet::registry::{AnyRuleset, Registered, RulesetVisitor};
use senet::stats::SimulationSummary;
use senet::{
    AnyGame, DEFAULT_TURN_CAP, Game, GameRecord, MoveList, Phase, PlayoutEnd, Ruleset,
    random_playout, uniform_below,
};

/// Makes one action the way `Game::play_random` does (a device throw, or a uniformly chosen
/// legal move, from `rng`); false once the game is over.
fn step<G: Rng + ?Sized>(game: &mut AnyGame, rng: &mut G) -> bool {
    match game.phase() {
        Phase::Over(_) => false,
        Phase::Throw(_) => {
            game.throw_random(rng).expect("a device throw is accepted");
            true
        }
        Phase::Move(_) => {
            let moves = game.legal_moves();
            let pick = uniform_below(rng, moves.len() as u32) as usize;
            game.play(moves[pick]).expect("a generated move is legal");
            true
        }
    }
}

struct SameSeedSameGame {
    rules: AnyRuleset,
    seeds: u64,
}

impl RulesetVisitor for SameSeedSameGame {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        // Games that rarely end are cut early: determinism shows just as well in 300 turns.
        let spec = rules.spec().to_string();
        let cap = if common::RANDOM_GAMES_MAY_NOT_END.contains(&spec.as_str()) {
            300
        } else {
            DEFAULT_TURN_CAP
        };
        for seed in 0..self.seeds {
            let play = || {
                let mut game = Game::new(rules.clone());
                game.set_seed(Some(seed));
                let end = game.play_random(&mut ChaCha8Rng::seed_from_u64(seed), cap);
                (game, end)
            };
            let (first, end) = play();
            let (second, _) = play();
            assert_eq!(
                first.record(),
                second.record(),
                "{} seed {seed}",
                rules.spec()
            );
            // Whether the game finished or stopped at the cap, both runs agree on it; the
            // termination tests check that games end.
            assert_eq!(
                second.outcome().is_some(),
                matches!(end, PlayoutEnd::Finished(_))
            );

            // The allocation-free playout and a step-by-step player agree with it.
            let mut state = rules.initial_state();
            let playout = random_playout(
                rules,
                &mut state,
                &mut ChaCha8Rng::seed_from_u64(seed),
                &mut MoveList::new(),
                cap,
            );
            assert_eq!(&state, first.state(), "{} seed {seed}", rules.spec());
            assert_eq!(playout.end, end);
            assert_eq!(playout.decisions, first.decisions());
            assert_eq!(playout.turns, first.turns());
            if let PlayoutEnd::Finished(_) = end {
                // Stepping has no cap, so it is compared on finished games.
                let mut stepped = AnyGame::new(self.rules.clone());
                stepped.set_seed(Some(seed));
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while step(&mut stepped, &mut rng) {}
                assert_eq!(
                    stepped.record(),
                    first.record(),
                    "{} seed {seed}",
                    rules.spec()
                );
            }

            // Replays: the record, its text form and JSON give back the final position.
            let record = first.record();
            let replayed = Game::<R>::from_record(&record).unwrap();
            assert_eq!(replayed.state(), first.state());
            assert_eq!(replayed.outcome(), first.outcome());
            let text = Game::<R>::from_record_text(&record.to_string()).unwrap();
            assert_eq!(text, first);
            let json: Game<R> = serde_json::from_str(&serde_json::to_string(&first).unwrap())
                .expect("the JSON record loads");
            assert_eq!(json, first);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game_and_records_replay_it() {
    for rules in common::configurations() {
        rules.visit(SameSeedSameGame {
            rules: rules.clone(),
            seeds: 3,
        });
    }
}

/// What one simulated game leaves behind, compared across thread counts.
#[derive(Debug, PartialEq, Eq)]
struct Played {
    position: String,
    actions: usize,
    end: PlayoutEnd,
}

struct ThreadCounts {
    games: u64,
    seed: u64,
}

impl ThreadCounts {
    fn simulate<R: Ruleset>(&self, rules: &R, threads: usize) -> (Vec<Played>, SimulationSummary) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        pool.install(|| {
            let played: Vec<(Played, u32, u32)> = (0..self.games)
                .into_par_iter()
                .map(|i| {
                    let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                    rng.set_stream(i);
                    let mut game = Game::new(rules.clone());
                    let end = game.play_random(&mut rng, DEFAULT_TURN_CAP);
                    let played = Played {
                        position: game.position(),
                        actions: game.history().len(),
                        end,
                    };
                    (played, game.decisions(), game.turns())
                })
                .collect();
            // Summaries of batches merge into the summary of all, in any grouping.
            let summary = played
                .par_iter()
                .fold(
                    SimulationSummary::default,
                    |mut s, (p, decisions, turns)| {
                        s.add(&p.end, *decisions, *turns);
                        s
                    },
                )
                .sum::<SimulationSummary>();
            (played.into_iter().map(|(p, _, _)| p).collect(), summary)
        })
    }
}

impl RulesetVisitor for ThreadCounts {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let (one, summary_one) = self.simulate(rules, 1);
        assert_eq!(one.len() as u64, self.games);
        for threads in [2, 3, 4] {
            let (many, summary_many) = self.simulate(rules, threads);
            assert_eq!(many, one, "{} on {threads} threads", rules.spec());
            assert_eq!(
                summary_many,
                summary_one,
                "{} on {threads} threads",
                rules.spec()
            );
        }
        // Game i is stream i of the seed, whatever ran before it.
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(self.games - 1);
        let mut last = Game::new(rules.clone());
        last.play_random(&mut rng, DEFAULT_TURN_CAP);
        assert_eq!(one.last().map(|p| &p.position), Some(&last.position()));
    }
}

#[test]
fn games_do_not_depend_on_the_number_of_threads() {
    for rules in common::configurations() {
        rules.visit(ThreadCounts {
            games: 12,
            seed: 2024,
        });
    }
}

fn resume_mid_game(rules: &AnyRuleset, seed: u64) {
    let mut whole = AnyGame::new(rules.clone());
    whole.set_seed(Some(seed));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while step(&mut whole, &mut rng) {}
    let total = whole.history().len();
    for cut in [1, total / 3, total / 2, total - 1] {
        for form in ["text", "json"] {
            let mut game = AnyGame::new(rules.clone());
            game.set_seed(Some(seed));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..cut {
                step(&mut game, &mut rng);
            }
            // Save, drop the game, load it back: only the RNG carries over.
            let saved = match form {
                "text" => game.record_text(),
                _ => serde_json::to_string(&game).unwrap(),
            };
            drop(game);
            let mut resumed = match form {
                "text" => AnyGame::from_record_text(&saved).unwrap(),
                _ => serde_json::from_str(&saved).unwrap(),
            };
            assert_eq!(resumed.history().len(), cut);
            while step(&mut resumed, &mut rng) {}
            assert_eq!(resumed, whole, "{rules} cut at {cut} of {total} ({form})");
        }
    }

    // A game resumed from the position alone (a `start` line) goes on identically too.
    let cut = total / 2;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut first_half = AnyGame::new(rules.clone());
    for _ in 0..cut {
        step(&mut first_half, &mut rng);
    }
    let mut second_half = AnyGame::from_position(rules.clone(), &first_half.position()).unwrap();
    while step(&mut second_half, &mut rng) {}
    assert_eq!(second_half.position(), whole.position());
    let record: GameRecord = second_half.record_text().parse().unwrap();
    assert!(record.start.is_some());
    assert_eq!(
        AnyGame::from_record(&record).unwrap().position(),
        whole.position()
    );
}

#[test]
fn a_game_saved_in_the_middle_resumes_identically() {
    for rules in common::configurations() {
        resume_mid_game(&rules, 77);
    }
}
