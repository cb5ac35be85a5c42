//! End-to-end tests of the `senet` command: good input for every registered ruleset, and
//! bad input of every kind, which must end with one line naming the problem and exit
//! status 2.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{board, parse_moves, pos, senet, senet_with_input};
use senet::registry::{AnyRuleset, RULESETS};
use senet::{AnyGame, Game, GameRecord, Phase};

/// A fresh file path under the test's temporary directory.
fn temp_file(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("senet-cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

// ------------------------------------------------------------------------ moves

/// For every throw of every ruleset, `senet moves` from the start lists exactly the
/// library's legal moves, each with the position the library reaches.
#[test]
fn moves_from_the_start_of_every_ruleset_match_the_library() {
    for info in RULESETS {
        let rules = AnyRuleset::parse(info.id).unwrap();
        for outcome in rules.throw_outcomes() {
            let value = outcome.value.to_string();
            let mut game = AnyGame::new(rules.clone());
            // A ruleset that collects throws may still want another one: keep throwing
            // the same value until a move is due, and give them all.
            let mut throws = Vec::new();
            while let Phase::Throw(_) = game.phase() {
                game.throw(outcome.value).unwrap();
                throws.push(value.clone());
                if throws.len() > 20 {
                    break;
                }
            }
            if throws.len() > 1 {
                // Asked with one throw, the command must say that more are needed.
                senet(&["moves", "--rules", info.id, "--throw", &value]).refused("throws again");
                continue;
            }
            let listed =
                parse_moves(&senet(&["moves", "--rules", info.id, "--throw", &value]).ok());
            let expected: Vec<(String, String)> = game
                .legal_moves()
                .iter()
                .map(|&mv| {
                    let mut after = game.clone();
                    after.play(mv).unwrap();
                    (mv.to_string(), after.position())
                })
                .collect();
            assert_eq!(listed, expected, "{} throw {value}", info.id);
            for (_, after) in &listed {
                AnyGame::from_position(rules.clone(), after).unwrap();
            }
        }
    }
}

#[test]
fn moves_lists_a_lone_pass_and_accepts_options_and_spacing() {
    // R-S6: a blockade leaves nothing but the pass, which ends the turn (I-4).
    let listed = parse_moves(
        &senet(&[
            "moves",
            "--rules",
            " regency( house_of_happiness=true ) ",
            "--position",
            &format!("  {}   b  ", board(&[13], &[14, 15, 16])),
            "--throw",
            "4",
        ])
        .ok(),
    );
    assert_eq!(
        listed,
        [("pass".to_string(), pos(&[13], &[14, 15, 16], "w"))]
    );
}

#[test]
fn moves_output_is_one_json_object_per_line() {
    let out = senet(&["moves", "--throw", "3"]).ok();
    assert_eq!(out.lines().count(), 4);
    for line in out.lines() {
        assert!(
            line.starts_with("{\"move\":\"") && line.ends_with("\"}"),
            "{line}"
        );
    }
}

// ------------------------------------------------------------------------ bad input

#[test]
fn bad_rulesets_are_refused_with_the_problem_named() {
    for (rules, needle) in [
        ("chess", "unknown ruleset \"chess\""),
        ("Regency", "lowercase"),
        ("regency(house_of_water=maybe)", "house_of_water=\"maybe\""),
        ("regency(water=true)", "no option \"water\""),
        ("regency(house_of_water", "closing parenthesis"),
        (
            "regency(exits_from_28_29_30=true,exit_beyond_30=true)",
            "cannot both be set",
        ),
        ("", "--rules"),
    ] {
        for command in ["moves", "play", "simulate", "rules"] {
            let args: Vec<&str> = if command == "rules" {
                vec![command, rules]
            } else {
                vec![command, "--rules", rules]
            };
            senet(&args).refused(needle);
        }
    }
}

#[test]
fn bad_positions_are_refused_with_the_problem_named() {
    let dots = ".".repeat(30);
    for (position, needle) in [
        ("", "board and a side"),
        ("WBWB b", "30 characters"),
        (&*dots, "board and a side"),
        (&*format!("{dots} x"), "\"x\" is not a side"),
        (&*format!("X{} b", &dots[1..]), "square 1"),
        (&*pos(&[1, 2, 3, 4, 5, 6], &[10], "b"), "6 pieces"),
        (&*pos(&[27], &[10], "b"), "square 27"),
        (&*pos(&[30], &[10], "b"), "square 30"),
        (&*pos(&[3], &[10], "b colour=red"), "field \"colour\""),
        (&*pos(&[3], &[10], "b throw"), "\"throw\" is not a field"),
        (&*pos(&[3], &[10], "b throw=5"), "throw=\"5\""),
        (&*pos(&[3], &[10], "b throw=1 throw=2"), "given twice"),
        (&*pos(&[3], &[10], "b white_opened=maybe"), "white_opened"),
        (&*pos(&[], &[], "b"), "both sides have borne off"),
    ] {
        senet(&["moves", "--position", position, "--throw", "2"]).refused(needle);
        senet(&["play", "--position", position]).refused(needle);
    }
    // A finished game has no moves.
    senet(&["moves", "--position", &pos(&[], &[10], "b"), "--throw", "2"]).refused("game is over");
}

#[test]
fn bad_throws_are_refused_with_the_problem_named() {
    for (throw, needle) in [
        ("5", "cannot throw 5"),
        ("0", "cannot throw 0"),
        ("x", "--throw \"x\""),
        ("", "--throw"),
        ("3,", "--throw"),
        ("-1", "--throw"),
        ("300", "--throw"),
        ("2,3", "must move before throwing again"),
    ] {
        senet(&["moves", &format!("--throw={throw}")]).refused(needle);
    }
    senet(&["moves"]).refused("must throw first");
    // A position that holds its throw takes no --throw: the command does not guess whether
    // a new one replaces it or comes in addition.
    senet(&[
        "moves",
        "--position",
        &pos(&[12], &[14, 15], "b throw=4"),
        "--throw",
        "4",
    ])
    .refused("already has a pending throw");
}

#[test]
fn usage_errors_from_clap_are_one_line_with_status_2() {
    for (args, needle) in [
        (&["moves", "--bogus"][..], "--bogus"),
        (&["moves", "--throw"], "--throw"),
        (&["dance"], "dance"),
        (&[], "no command"),
        (&["simulate", "--games", "-1"], "'-1'"),
        (&["simulate", "--games", "many"], "--games"),
        (&["simulate", "--seed", "1.5"], "--seed"),
        (&["simulate", "--threads", "x"], "--threads"),
        (&["replay"], "<RECORD>"),
        (
            &["play", "--resume", "x.txt", "--position", "start"],
            "--position",
        ),
        (&["rules", "regency", "kendall"], "kendall"),
        // Clap's suggestion for a typo stays on the one line.
        (&["simulat"], "did you mean 'simulate'?"),
        (&["simulate", "--gmes", "3"], "did you mean '--games'?"),
    ] {
        senet(args).refused(needle);
    }
}

#[test]
fn help_and_version_succeed() {
    assert!(senet(&["--help"]).ok().contains("moves"));
    assert!(senet(&["moves", "--help"]).ok().contains("--throw"));
    assert!(senet(&["--version"]).ok().starts_with("senet "));
}

// ------------------------------------------------------------------------ rules

/// `--ids` is the registry's list for scripts: every id once, in the registry's order, and
/// nothing else.
#[test]
fn rules_ids_print_the_registry_one_id_a_line() {
    let ids: Vec<String> = senet(&["rules", "--ids"])
        .ok()
        .lines()
        .map(str::to_string)
        .collect();
    let registered: Vec<&str> = RULESETS.iter().map(|info| info.id).collect();
    assert_eq!(ids, registered);
    senet(&["rules", "--ids", "regency"]).refused("cannot be used with");
}

#[test]
fn rules_lists_and_describes_every_registered_ruleset() {
    let list = senet(&["rules"]).ok();
    for info in RULESETS {
        assert!(list.contains(info.id), "{list}");
        let options = match info.options.len() {
            1 => "(1 option)".to_string(),
            n => format!("({n} options)"),
        };
        assert!(list.contains(&format!("{} {options}", info.name)), "{list}");
        let text = senet(&["rules", info.id]).ok();
        assert!(text.contains(info.name), "{text}");
        for option in info.options {
            assert!(
                text.contains(option.name) && text.contains(option.doc),
                "{text}"
            );
        }
        for field in info.field_info {
            assert!(
                text.contains(field.name) && text.contains(field.default),
                "{text}"
            );
        }
        let rules = AnyRuleset::parse(info.id).unwrap();
        let start = AnyGame::new(rules).position();
        assert!(text.contains(&format!("start position: {start}")), "{text}");
        assert!(
            text.contains(&format!("rules revision: {}", info.rules_revision)),
            "{text}"
        );
    }
}

// ------------------------------------------------------------------------ simulate

#[test]
fn simulate_results_do_not_depend_on_the_thread_count() {
    for info in RULESETS {
        let run = |threads: &str, seed: &str| {
            senet(&[
                "simulate",
                "--rules",
                info.id,
                "--games",
                "400",
                "--seed",
                seed,
                "--threads",
                threads,
                "--json",
            ])
            .ok()
        };
        let one = run("1", "5");
        assert_eq!(one, run("3", "5"), "{}", info.id);
        assert_ne!(one, run("1", "6"), "{}: another seed, other games", info.id);
        let summary: serde_json::Value = serde_json::from_str(&one).unwrap();
        assert_eq!(summary["games"], 400);
        assert_eq!(summary["rules"], info.id);
        let black = summary["black"]["wins"].as_u64().unwrap();
        let white = summary["white"]["wins"].as_u64().unwrap();
        let draws = summary["draws"].as_u64().unwrap();
        let capped = summary["stopped_at_turn_cap"].as_u64().unwrap();
        assert_eq!(black + white + draws + capped, 400);
        let players: u64 = (0..2)
            .map(|i| summary["players"][i]["wins"].as_u64().unwrap())
            .sum();
        assert_eq!(players, black + white);
        let [low, high] = [0, 1].map(|i| summary["black"]["ci95"][i].as_f64().unwrap());
        let rate = summary["black"]["rate"].as_f64().unwrap();
        assert!(low < rate && rate < high, "{one}");
        let histogram: u64 = summary["turns"]["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(histogram, 400);
    }
}

#[test]
fn simulate_prints_a_readable_summary() {
    let text = senet(&["simulate", "--games", "200", "--seed", "1"]).ok();
    for needle in [
        "ruleset: regency",
        "games: 200",
        "Black (moves first)",
        "95% CI",
        "first-mover advantage",
        "length in turns",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

#[test]
fn rate_puts_the_players_on_one_scale_from_the_first() {
    let text = senet(&["rate", "--players", "random,greedy,random", "--games", "60"]).ok();
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("% of 120 games"))
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(
        rows[0].starts_with("random") && rows[0].contains("(anchor)"),
        "{text}"
    );
    assert!(rows[1].starts_with("greedy"), "{text}");
    assert!(
        text.contains("Bradley-Terry fit of all 180 games"),
        "{text}"
    );
    let json = senet(&[
        "rate",
        "--players",
        "random,greedy",
        "--games",
        "40",
        "--json",
    ])
    .ok();
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["players"][0]["elo"], 0.0);
    let greedy = &report["players"][1];
    let [low, high] = [0, 1].map(|k| greedy["ci95"][k].as_f64().unwrap());
    assert!(low < greedy["elo"].as_f64().unwrap() && greedy["elo"].as_f64().unwrap() < high);
    let pair = &report["pairs"][0];
    let finished = ["a_wins", "b_wins", "draws", "stopped"].map(|k| pair[k].as_u64().unwrap());
    assert_eq!(finished.iter().sum::<u64>(), 40, "{json}");
}

#[test]
fn rate_refuses_bad_player_lists() {
    senet(&["rate", "--players", "greedy"]).refused("2 to 16 players");
    senet(&["rate", "--players", "random,human"]).refused("computer players");
    senet(&["rate", "--players", "random,robot"]).refused("unknown player `robot`");
    senet(&["rate", "--games", "0"]).refused("--games");
}

#[test]
fn simulate_refuses_bad_players_and_limits() {
    senet(&["simulate", "--players", "random"]).refused("two players");
    senet(&["simulate", "--players", "random,robot"]).refused("unknown player `robot`");
    senet(&["simulate", "--players", "human,random"]).refused("computer players");
    senet(&["simulate", "--turn-cap", "0"]).refused("--turn-cap");
    senet(&["simulate", "--threads", "100000"]).refused("--threads");
}

// ------------------------------------------------------------------------ play and replay

/// Computer-against-computer games of every ruleset finish, save a record that `replay`
/// reads back to the same result, and repeat exactly with the same seed.
#[test]
fn play_between_computers_saves_a_record_that_replays() {
    for info in RULESETS {
        let path = temp_file(&format!("{}-auto.txt", info.id));
        let path_text = path.to_str().unwrap();
        let args = [
            "play",
            "--rules",
            info.id,
            "--players",
            "random,random",
            "--seed",
            "11",
            "--save",
            path_text,
        ];
        let first = senet(&args).ok();
        assert_eq!(
            first,
            senet(&args).ok(),
            "the same seed plays the same game"
        );
        let result = first
            .lines()
            .rev()
            .find(|l| l.contains("wins") || l.contains("draw"))
            .unwrap_or_else(|| panic!("{first}"))
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(record.seed, Some(11));
        let replayed = senet(&["replay", path_text]).ok();
        assert!(
            replayed.lines().last().unwrap().contains(&result),
            "{replayed}"
        );
        // The rules, revision, seed and start lines, one line per action, and the result.
        assert_eq!(
            replayed.lines().count(),
            record.actions.len() + 5,
            "{replayed}"
        );
    }
}

#[test]
fn a_person_can_play_undo_save_and_resume() {
    let path = temp_file("person.txt");
    let path_text = path.to_str().unwrap();
    // Seed 5: Black throws 2 and may play 8-10 or 11-13.
    let script = "9-12\n7\n2\nundo\nposition\n1\nsave\nquit\n";
    let out = senet_with_input(
        &[
            "play",
            "--seed",
            "5",
            "--players",
            "human,random",
            "--save",
            path_text,
        ],
        script,
    )
    .ok();
    assert!(out.contains("9-12 is not a legal move"), "{out}");
    assert!(out.contains("there is no move number 7"), "{out}");
    assert!(out.contains("taken back"), "{out}");
    // After the undo the position is the one before Black's move, with its throw.
    let before_move = pos(
        &[2, 4, 6, 8, 11],
        &[1, 3, 5, 7, 9],
        "b throw=2 white_opened=false",
    );
    let after_undo = out
        .split("taken back")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        after_undo.contains(&format!("Black> {before_move}\n")),
        "{out}"
    );
    assert!(out.contains("game saved to"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = Game::<senet::Regency>::from_record_text(&text).unwrap();
    // Black's 8-10 stands in the record; the taken-back 11-13 does not.
    let moves: Vec<String> = game
        .history()
        .iter()
        .filter_map(|a| match a {
            senet::Action::Move(m) => Some(m.to_string()),
            senet::Action::Throw(_) => None,
        })
        .collect();
    assert_eq!(moves.first().map(String::as_str), Some("8-10"), "{text}");
    assert!(!moves.contains(&"11-13".to_string()), "{text}");

    // Resuming continues from the saved position.
    let resumed = senet_with_input(
        &["play", "--resume", path_text, "--seed", "1"],
        "position\nquit\n",
    )
    .ok();
    assert!(resumed.contains(&game.position()), "{resumed}");
}

#[test]
fn typed_throws_are_checked() {
    let out = senet_with_input(
        &["play", "--manual-throws", "--players", "human,human"],
        "5\nx\n2\n2\nundo\nposition\nundo\nposition\nquit\n",
    )
    .ok();
    assert!(out.contains("cannot show 5"), "{out}");
    assert!(out.contains("\"x\" is not a throw"), "{out}");
    // Black threw 2 and played 11-13; undo takes back the move, and a second undo the
    // typed throw.
    let start = pos(&[2, 4, 6, 8, 11], &[1, 3, 5, 7, 9], "b");
    let after_first = out
        .split("taken back")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        after_first.contains(&format!("Black> {start} throw=2 white_opened=false\n")),
        "{out}"
    );
    let after_second = out
        .split("taken back")
        .nth(2)
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        after_second.contains(&format!("> {start} white_opened=false\n")),
        "{out}"
    );
}

#[test]
fn play_refuses_bad_arguments() {
    senet(&["play", "--players", "human"]).refused("two players");
    senet(&["play", "--players", "human,wizard"]).refused("`wizard`");
    senet(&["play", "--resume", "/no/such/record.txt"]).refused("cannot read the record");
}

#[test]
fn replay_shows_the_rules_revision_and_refuses_another() {
    let revision = senet::registry::info("regency").unwrap().rules_revision;
    let good = temp_file("revision.txt");
    std::fs::write(
        &good,
        format!("rules regency\nrevision {revision}\nthrow 3\n"),
    )
    .unwrap();
    let out = senet(&["replay", good.to_str().unwrap()]).ok();
    assert_eq!(
        out.lines().nth(1),
        Some(format!("revision {revision}").as_str()),
        "{out}"
    );
    let newer = temp_file("newer.txt");
    std::fs::write(
        &newer,
        format!("rules regency\nrevision {}\nthrow 3\n", revision + 1),
    )
    .unwrap();
    senet(&["replay", newer.to_str().unwrap()]).refused(&format!(
        "line 2: the record was written under revision {} of the regency rules",
        revision + 1
    ));
}

#[test]
fn replay_prints_every_position_and_refuses_bad_records_by_line() {
    let good = temp_file("good.txt");
    std::fs::write(
        &good,
        "# a short game\nrules regency\nseed 3\nthrow 3\nmove 11-14\nthrow 2\n",
    )
    .unwrap();
    let out = senet(&["replay", good.to_str().unwrap()]).ok();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "rules regency");
    assert_eq!(lines[1], "seed 3");
    assert!(lines[3].contains("Black throws 3"), "{out}");
    assert!(
        lines[4].contains("Black plays 11-14")
            && lines[4].ends_with(&pos(
                &[2, 4, 6, 8, 14],
                &[1, 3, 5, 7, 9],
                "w white_opened=false"
            )),
        "{out}"
    );
    assert!(lines[5].contains("White throws 2"), "{out}");
    assert!(
        out.ends_with("not finished: White to move after 3 actions, 2 turns\n"),
        "{out}"
    );
    // --boards draws the board after each move.
    let boards = senet(&["replay", "--boards", good.to_str().unwrap()]).ok();
    assert!(boards.contains("|20 |19 |"), "{boards}");

    // The same record as JSON, on standard input.
    let json =
        r#"{"rules":"regency","seed":3,"actions":[{"throw":3},{"move":"11-14"},{"throw":2}]}"#;
    assert_eq!(senet_with_input(&["replay", "-"], json).ok(), out);

    for (text, needle) in [
        (
            "rules regency\nthrow 3\nmove 9-12\n",
            "line 3: action 2 (move 9-12) does not replay",
        ),
        (
            "rules regency\n\nthrow 5\n",
            "line 3: action 1 (throw 5) does not replay",
        ),
        ("rules regency\nmove 11-14\n", "line 2: action 1"),
        ("rules regency\nthrow 3\nthrow 3\n", "line 3"),
        ("rules chess\n", "line 1: unknown ruleset"),
        (
            "rules regency(water=true)\n",
            "line 1: ruleset regency has no option",
        ),
        ("throw 3\n", "line 1: the record must name its ruleset"),
        ("", "does not name its ruleset"),
        (
            "rules regency\nstart nonsense b\n",
            "line 2: start position",
        ),
        (
            &format!("rules regency\nstart {}\n", pos(&[27], &[1], "b")),
            "line 2: start position",
        ),
        (
            "rules regency\nthrow 3\nseed 4\n",
            "line 3: `seed` belongs in the header",
        ),
        (
            "rules regency\njump 4\n",
            "line 2: \"jump\" is not a record line",
        ),
        ("rules regency\nthrow 3\nmove 11-\n", "line 3"),
        (
            "{\"rules\": \"regency\", \"actions\": [{\"throw\": 9}]}",
            "action 1 (throw 9)",
        ),
        ("{\"rules\": \"regency\"", "EOF"),
    ] {
        let path = temp_file("bad.txt");
        std::fs::write(&path, text).unwrap();
        let line = senet(&["replay", path.to_str().unwrap()]).refused(needle);
        assert!(line.contains("bad.txt"), "{line}");
        senet(&["play", "--resume", path.to_str().unwrap()]).refused(needle);
    }
    senet(&["replay", "/no/such/record.txt"]).refused("cannot read the record");
}

#[test]
fn replayed_records_end_in_the_positions_the_library_reaches() {
    // Records written by the library for every ruleset replay through the command to the
    // same final position.
    use senet::rng::SeedableRng;
    for info in RULESETS {
        let mut rng = senet::rng::ChaCha8Rng::seed_from_u64(21);
        let mut game = AnyGame::new(AnyRuleset::parse(info.id).unwrap());
        game.play_random(&mut rng, senet::DEFAULT_TURN_CAP);
        let path = temp_file(&format!("{}-lib.txt", info.id));
        std::fs::write(&path, game.record_text()).unwrap();
        let out = senet(&["replay", path.to_str().unwrap()]).ok();
        let positions: BTreeSet<&str> = out.lines().collect();
        let last_action = out.lines().rev().nth(1).unwrap();
        assert!(last_action.ends_with(&game.position()), "{last_action}");
        assert!(positions.len() > game.history().len());
    }
}

/// `senet rules <id>` ends with the rules in prose; `senet play` marks the special squares,
/// narrates what happened, and answers `hint` and `rules`.
#[test]
fn the_terminal_game_explains_the_rules_the_board_and_the_odds() {
    let out = senet(&["rules", "kendall"]).ok();
    assert!(out.contains("## The rules"), "{out}");
    assert!(out.contains("K-12 An attack from 26"), "{out}");

    // Seed 5: Black throws 2; Black asks for a hint and the rules, then plays 11-13.
    let out = senet_with_input(&["play", "--seed", "5"], "hint\nrules\n2\nquit\n").ok();
    assert!(out.contains("|26*|27~|28*|29*|30*|"), "{out}");
    assert!(
        out.contains("* safe from attack (R-10): 26 28 29 30"),
        "{out}"
    );
    assert!(
        out.contains("expectiminimax:2: the values are an estimated chance"),
        "{out}"
    );
    assert!(out.contains("% to win"), "{out}");
    assert!(out.contains("- R-12 A piece that lands on 27"), "{out}");
    assert!(out.contains("Black throws 2"), "{out}");
    assert!(out.contains("Black moves 11 → 13"), "{out}");
}
