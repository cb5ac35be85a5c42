//! Computer players (`senet-ai`); the endgame solver's benches are in `senet-endgame`.
//!
//! - `expectiminimax/<configuration>/depth-<d>`: one move chosen by expectiminimax at depth d
//!   (`Player::choose`, which prunes at the root too) for each position of a fixed corpus of
//!   decision points from seeded random games (positions with a single legal move left out,
//!   since players return those without searching), for every configuration with committed weights. The throughput line gives
//!   moves per second; the time per move is its inverse. The bench first checks the nodes
//!   searched over the corpus and the moves chosen, and that the analysis of each position
//!   (every move valued) chooses the same move.
//! - `learned/<configuration>/depth-<d>`: the same for the learned player (expectiminimax
//!   over the committed network, whole turns where throws are stored), on the same corpus,
//!   so that its time per move compares with expectiminimax's in the same run
//!   (`docs/players.md`: learned:2 against expectiminimax:3).
//! - `expectiminimax/regency-endgame/depth-3` and `learned/regency-endgame/depth-2`: the
//!   same on 300 decision points where each side has at most four pieces on the board (one
//!   from each seeded random Regency game that has any), the positions of the endgame loss in
//!   `docs/players.md`, where the learned player's time target is hardest to meet.
//! - `analysis/regency/learned-2-400-actions`: the analysis of the first 400 actions of a
//!   seeded random Regency game with the default evaluator (learned:2) and the two-piece
//!   endgame tables (solved once, before timing), from a fresh analyser each time, so that
//!   nothing is remembered between runs. It first checks the points valued, the decisions with
//!   a choice and the labels given.

mod common;

use std::hint::black_box;

use common::{CORPUS_SEED, configurations, decision_corpus};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use senet::Ruleset;
use senet::registry::{Registered, RulesetVisitor};
use senet_ai::learned::{committed, learned_player};
use senet_ai::{Budget, Evaluator, Expectiminimax, Player};

/// Decision points per corpus (before dropping those with one legal move).
const POSITIONS: usize = 300;

/// Chooses a move in every position of `corpus` (what a move in play costs: the search
/// needs to find the best move, not to value every other one); returns the nodes visited
/// and a checksum of the moves chosen (the sum of their places in the move lists).
fn search_corpus<R: Ruleset, E: Evaluator<R>>(
    player: &mut Expectiminimax<R, E>,
    rules: &R,
    corpus: &[R::State],
) -> (u64, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut nodes = 0;
    let mut chosen = 0;
    for state in corpus {
        let mv = player
            .choose(rules, state, &mut rng)
            .expect("a decision point");
        nodes += player.last_search().nodes;
        chosen += rules
            .legal_moves(state)
            .iter()
            .position(|&m| m == mv)
            .expect("a legal move");
    }
    (nodes, chosen)
}

/// The checksum of [`search_corpus`] for the moves the analysis of every position chooses.
fn analysed_choices<R: Ruleset, E: Evaluator<R>>(
    player: &mut Expectiminimax<R, E>,
    rules: &R,
    corpus: &[R::State],
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    corpus
        .iter()
        .map(|state| {
            let analysis = player.analyse(rules, state, &mut rng);
            analysis.expect("a decision point").chosen_index()
        })
        .sum()
}

/// The corpus of `rules`: decision points with more than one legal move.
fn corpus_of<R: Ruleset>(rules: &R) -> Vec<R::State> {
    decision_corpus(rules, POSITIONS)
        .into_iter()
        .filter(|s| rules.legal_moves(s).len() > 1)
        .collect()
}

/// Benches `player` (named `name`) on `corpus` after checking the nodes it searches and the
/// moves it chooses there.
fn bench_player<R: Ruleset, E: Evaluator<R>>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: String,
    mut player: Expectiminimax<R, E>,
    rules: &R,
    corpus: &[R::State],
    expected: (u64, usize),
) {
    let (nodes, chosen) = search_corpus(&mut player, rules, corpus);
    assert_eq!(
        (nodes, chosen),
        expected,
        "{name}: {} positions now take {nodes} nodes and choose {chosen}",
        corpus.len()
    );
    assert_eq!(
        analysed_choices(&mut player, rules, corpus),
        chosen,
        "{name}: the analysis chooses other moves than choosing does"
    );
    group.bench_function(name, |b| {
        b.iter(|| search_corpus(&mut player, rules, black_box(corpus)))
    });
}

/// A search benched: its depth, then the nodes it visits over the corpus and the checksum of
/// the moves it chooses there (see [`search_corpus`]).
type Pin = (u32, u64, usize);

/// What each configuration's corpus is searched with: expectiminimax at each depth, then the
/// learned player at each depth, each pinned.
struct Searches {
    configuration: &'static str,
    expectiminimax: &'static [Pin],
    learned: &'static [Pin],
}

/// The searches of every configuration with committed weights. Regency also times the
/// shallower depths; elsewhere the pair the issue compares: expectiminimax:3 and learned:2.
const SEARCHES: &[Searches] = &[
    Searches {
        configuration: "regency",
        expectiminimax: &[(2, 17_667, 213), (3, 260_501, 241)],
        learned: &[(1, 870, 414), (2, 17_998, 410)],
    },
    Searches {
        configuration: "botermans",
        expectiminimax: &[(3, 263_190, 248)],
        learned: &[(2, 18_177, 394)],
    },
    Searches {
        configuration: "cemea",
        expectiminimax: &[(3, 388_238, 247)],
        learned: &[(2, 21_368, 347)],
    },
    Searches {
        configuration: "kendall",
        expectiminimax: &[(3, 8_418_499, 279)],
        learned: &[(2, 440_517, 326)],
    },
    Searches {
        configuration: "bell",
        expectiminimax: &[(3, 288_502, 388)],
        learned: &[(2, 15_049, 170)],
    },
    Searches {
        configuration: "jequier",
        expectiminimax: &[(3, 291_525, 363)],
        learned: &[(2, 20_254, 404)],
    },
    Searches {
        configuration: "piccione",
        expectiminimax: &[(3, 3_958_087, 662)],
        learned: &[(2, 80_051, 870)],
    },
    Searches {
        configuration: "kendall(throw_timing=immediate)",
        expectiminimax: &[(3, 308_304, 234)],
        learned: &[(2, 17_826, 311)],
    },
];

/// Benches the searches of one configuration on its corpus.
struct BenchSearches<'a> {
    criterion: &'a mut Criterion,
    searches: &'a Searches,
}

impl RulesetVisitor for BenchSearches<'_> {
    type Output = ();

    fn visit<R: Registered>(self, rules: &R) {
        let corpus = corpus_of(rules);
        bench_searches(self.criterion, self.searches, rules, &corpus);
    }
}

/// Benches `searches` on `corpus`: expectiminimax over the race evaluation, then the learned
/// player over the committed network.
fn bench_searches<R: Ruleset>(
    criterion: &mut Criterion,
    searches: &Searches,
    rules: &R,
    corpus: &[R::State],
) {
    let Searches {
        configuration: name,
        expectiminimax,
        learned,
    } = searches;
    let elements = Throughput::Elements(corpus.len() as u64);
    let mut group = criterion.benchmark_group("expectiminimax");
    // A depth-3 search of the corpus takes from about 10 ms to seconds.
    group.sample_size(10).throughput(elements.clone());
    for &(depth, nodes, chosen) in *expectiminimax {
        let player = Expectiminimax::new(Budget::Depth(depth));
        let bench = format!("{name}/depth-{depth}");
        bench_player(&mut group, bench, player, rules, corpus, (nodes, chosen));
    }
    group.finish();
    let mut group = criterion.benchmark_group("learned");
    group.sample_size(10).throughput(elements);
    let weights = committed(rules).expect("weights come with the crate");
    for &(depth, nodes, chosen) in *learned {
        let player = learned_player(rules, &weights, depth).expect("weights for the rules");
        let bench = format!("{name}/depth-{depth}");
        bench_player(&mut group, bench, player, rules, corpus, (nodes, chosen));
    }
    group.finish();
}

fn players(c: &mut Criterion) {
    for committed in senet_ai::learned::committed_rulesets() {
        assert!(
            SEARCHES.iter().any(|s| s.configuration == committed),
            "{committed} has weights but no searches to bench"
        );
    }
    let benched = configurations();
    for searches in SEARCHES {
        let Some(configuration) = benched
            .iter()
            .find(|configuration| configuration.name == searches.configuration)
        else {
            panic!(
                "{} is not a configuration of this build",
                searches.configuration
            );
        };
        configuration.rules.visit(BenchSearches {
            criterion: c,
            searches,
        });
    }
}

/// The most pieces a side has on the board in a position of the endgame corpus.
const ENDGAME_PIECES: u8 = 4;

/// [`POSITIONS`] decision points with a choice of moves and at most [`ENDGAME_PIECES`]
/// pieces a side on the board, one from each random Regency game that has any (game `i` on
/// ChaCha8 stream `i` of the corpus seed, the position picked uniformly among the game's):
/// about half the games end before both sides are down to four.
fn endgame_corpus(rules: &senet::Regency) -> Vec<<senet::Regency as Ruleset>::State> {
    use senet::{Phase, Side};
    let few = |state: &<senet::Regency as Ruleset>::State| {
        let board = rules.board(state);
        [Side::Black, Side::White]
            .into_iter()
            .all(|side| board.pieces_of(side).len() <= ENDGAME_PIECES)
    };
    let mut corpus = Vec::with_capacity(POSITIONS);
    for game in 0.. {
        if corpus.len() == POSITIONS {
            break;
        }
        assert!(
            game < 10 * POSITIONS as u64,
            "too few endgames in random games"
        );
        let mut rng = ChaCha8Rng::seed_from_u64(CORPUS_SEED);
        rng.set_stream(game);
        let mut found = Vec::new();
        senet_testkit::conformance::walk_random_game(
            rules,
            &mut rng,
            senet::DEFAULT_TURN_CAP,
            |state| {
                if matches!(rules.phase(state), Phase::Move(_))
                    && few(state)
                    && rules.legal_moves(state).len() > 1
                {
                    found.push(*state);
                }
                true
            },
        );
        if !found.is_empty() {
            let pick = senet::uniform_below(&mut rng, found.len() as u32);
            corpus.push(found[pick as usize]);
        }
    }
    corpus
}

/// The searches of the endgame corpus: the pair the time target compares, and the learned
/// player one level deeper, which loses less in endgames (`docs/players.md`).
const ENDGAME_SEARCHES: Searches = Searches {
    configuration: "regency-endgame",
    expectiminimax: &[(3, 101_712, 171)],
    learned: &[(2, 10_825, 283), (3, 103_971, 282)],
};

fn endgames(c: &mut Criterion) {
    let rules = senet::Regency::default();
    let corpus = endgame_corpus(&rules);
    bench_searches(c, &ENDGAME_SEARCHES, &rules, &corpus);
}

/// Actions of the analysed game.
const ANALYSED_ACTIONS: usize = 400;

fn analysis(c: &mut Criterion) {
    use senet::Game;
    use senet_ai::PlayerSpec;
    use senet_ai::analysis::Analyser;
    use senet_ai::endgame::{Endgames, SolveOptions};

    let rules = senet::Regency::default();
    let mut game = Game::new(rules);
    game.play_random(&mut ChaCha8Rng::seed_from_u64(4), senet::DEFAULT_TURN_CAP);
    assert!(game.history().len() >= ANALYSED_ACTIONS);
    let actions = &game.history()[..ANALYSED_ACTIONS];
    let tables = rules.solve_oracle(2, &SolveOptions::default()).unwrap();
    let spec = PlayerSpec::Learned(senet_ai::learned::DEFAULT_LEARNED_DEPTH);
    let analyse = || {
        let mut analyser = Analyser::new(&rules, &spec, Some(tables.clone())).unwrap();
        analyser
            .analyse(
                game.start(),
                black_box(actions),
                &mut ChaCha8Rng::seed_from_u64(0),
            )
            .unwrap()
    };
    let done = analyse();
    let decisions = done.sides.iter().map(|(_, s)| s.decisions).sum::<u32>();
    let labelled = done.moves().iter().filter(|m| m.label.is_some()).count();
    assert_eq!(
        (done.points.len(), decisions, labelled),
        (ANALYSED_ACTIONS + 1, 189, 18),
        "the analysed game changed"
    );
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ANALYSED_ACTIONS as u64));
    group.bench_function("regency/learned-2-400-actions", |b| b.iter(analyse));
    group.finish();
}

criterion_group!(benches, players, endgames, analysis);
criterion_main!(benches);
