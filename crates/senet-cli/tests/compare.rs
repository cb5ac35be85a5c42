//! End-to-end tests of `senet compare`: a small comparison writes the report and its plots,
//! the same files on one thread as on two, with figures that agree with `senet simulate`; the
//! learned player plays where senet has weights for it and is left out, with a note, where
//! not; bad arguments end with one line naming the problem and exit status 2.

mod common;

use std::path::{Path, PathBuf};

use common::senet;

/// A fresh, empty directory under the test's temporary directory.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("senet-compare-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file of `dir`, sorted by name, with its contents.
fn files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

const SMALL: &[&str] = &[
    "compare",
    "--games",
    "120",
    "--skill-games",
    "3",
    "--seed",
    "7",
    "--rules",
    "regency",
    "--rules",
    "bell( compulsory_capture=true )",
    "--rules",
    "kendall",
    "--skill-rules",
    "regency",
    "--ladder",
    "random,greedy",
];

fn small_run(name: &str, threads: &str) -> (String, Vec<(String, String)>) {
    run_in(name, SMALL, threads)
}

/// Runs `senet compare` with `args` on `threads` threads, writing to a fresh directory;
/// returns its output and the files written.
fn run_in(name: &str, args: &[&str], threads: &str) -> (String, Vec<(String, String)>) {
    let dir = fresh_dir(name);
    let out = dir.to_str().unwrap().to_string();
    let mut args: Vec<&str> = args.to_vec();
    args.extend(["--threads", threads, "--out", &out]);
    let stdout = senet(&args).ok();
    (stdout, files(&dir))
}

#[test]
fn a_small_comparison_writes_the_report_and_plots_identically_on_any_number_of_threads() {
    let (stdout, one) = small_run("one-thread", "1");
    assert!(stdout.contains("on 1 thread"), "{stdout}");
    assert!(stdout.contains("ruleset-comparison.md"), "{stdout}");
    let names: Vec<&str> = one.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "comparison-first-mover.svg",
            "comparison-length-decisions.svg",
            "comparison-length-ranges.svg",
            "comparison-length-turns.svg",
            "comparison-skill.svg",
            "ruleset-comparison.md",
        ]
    );
    for (name, contents) in &one {
        if name.ends_with(".svg") {
            assert!(contents.starts_with("<svg"), "{name}");
            assert!(contents.trim_end().ends_with("</svg>"), "{name}");
        }
    }
    let report = &one.last().unwrap().1;
    // The exact command that reproduces it, with the configurations in canonical form.
    assert!(
        report.contains(
            "senet compare --games 120 --skill-games 3 --seed 7 --turn-cap 10000 --ladder \
             random,greedy --rules 'regency' --rules 'bell(compulsory_capture=true)' --rules \
             'kendall' --skill-rules 'regency'"
        ),
        "{report}"
    );
    // Only the default run says it is one.
    assert!(!report.contains("These are the command's defaults"));
    for needle in [
        "| regency | 120 |",
        "| kendall | 120 |",
        "### bell",
        "| compulsory_capture=true |",
        "| regency | greedy | random |",
        "## Definitions",
        "](comparison-skill.svg)",
    ] {
        assert!(report.contains(needle), "{needle:?} missing from\n{report}");
    }

    let (stdout, two) = small_run("two-threads", "2");
    assert!(stdout.contains("on 2 threads"), "{stdout}");
    assert_eq!(one.len(), two.len());
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}

/// A small run with the default ladder, `learned` at its top: it plays on Bell, which senet has
/// weights for, and plays itself there; on Bell with compulsory capture, which has none, it
/// is left out and the report says so. The same files on one thread as on two. Needs the
/// weights that come with senet (`senet_ai::learned::committed_rulesets`).
#[test]
fn the_learned_player_plays_where_senet_has_weights_and_is_left_out_elsewhere() {
    let args: &[&str] = &[
        "compare",
        "--games",
        "40",
        "--skill-games",
        "2",
        "--seed",
        "3",
        "--rules",
        "bell",
        "--skill-rules",
        "bell",
        "--skill-rules",
        "bell(compulsory_capture=true)",
    ];
    let (stdout, one) = run_in("learned-one-thread", args, "1");
    assert!(
        stdout.contains("36 skill-trace games and 4 strong-against-strong games"),
        "{stdout}"
    );
    let report = &one.last().unwrap().1;
    assert!(
        report.contains("--ladder random,greedy,expectiminimax:2,learned:2 --rules 'bell'"),
        "{report}"
    );
    for needle in [
        "| bell | learned:2 | expectiminimax:2 |",
        "| bell | learned:2 | greedy |",
        "| bell | learned:2 | random |",
        "| bell(compulsory_capture=true) | expectiminimax:2 | greedy |",
        "| bell(compulsory_capture=true) | greedy | random |",
        " `learned:2` is left out of the trace on the configurations no weights come with senet \
         for: bell(compulsory_capture=true).\n",
        "- **Strong against strong**: on each configuration",
        "ChaCha8 stream 2<sup>63</sup> + *k* of the seed",
        "## Strong against strong\n",
        "- **The strongest against the next.** ",
        "bell: learned:2 over expectiminimax:2 ",
        "bell(compulsory_capture=true): expectiminimax:2 over greedy ",
        "- **The seat under strong play** (`learned:2` against itself).",
        " `learned:D` searches like `expectiminimax:D`",
    ] {
        assert!(report.contains(needle), "{needle:?} missing from\n{report}");
    }
    assert!(!report.contains("| bell(compulsory_capture=true) | learned"));
    // One row of strong against strong, with random play's figure from the first table.
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("| bell | learned:2 | 4 |"))
        .collect();
    assert_eq!(rows.len(), 1, "{report}");
    let random_row = report
        .lines()
        .find(|l| l.starts_with("| bell | 40 |"))
        .unwrap();
    let random_share = random_row.split(" | ").nth(2).unwrap();
    assert!(
        rows[0].ends_with(&format!("| {random_share} |")),
        "{} against {random_share}",
        rows[0]
    );

    let (_, two) = run_in("learned-two-threads", args, "2");
    assert_eq!(one.len(), two.len());
    for ((name, a), (_, b)) in one.iter().zip(&two) {
        assert!(a == b, "{name} differs between 1 and 2 threads");
    }
}

/// `senet compare` plays the very games `senet simulate` plays with two random players.
#[test]
fn random_play_agrees_with_simulate() {
    let (_, files) = small_run("against-simulate", "2");
    let report = &files.last().unwrap().1;
    let json = senet(&[
        "simulate", "--rules", "kendall", "--games", "120", "--seed", "7", "--json",
    ])
    .ok();
    let summary: serde_json::Value = serde_json::from_str(&json).unwrap();
    let share = summary["first_mover"]["black_share_of_decided"]
        .as_f64()
        .unwrap();
    let mean_turns = summary["turns"]["mean"].as_f64().unwrap();
    let row = report
        .lines()
        .find(|l| l.starts_with("| kendall | 120 |"))
        .unwrap();
    assert!(
        row.contains(&format!("| {:.1}% [", 100.0 * share)),
        "{row} against {share}"
    );
    assert!(
        row.contains(&format!("| {mean_turns:.1} |")),
        "{row} against {mean_turns}"
    );
}

#[test]
fn no_skill_games_means_no_skill_trace() {
    let dir = fresh_dir("no-skill");
    senet(&[
        "compare",
        "--games",
        "20",
        "--skill-games",
        "0",
        "--rules",
        "piccione",
        "--out",
        dir.to_str().unwrap(),
    ])
    .ok();
    let files = files(&dir);
    assert!(files.iter().all(|(n, _)| !n.contains("skill")));
    let report = &files.last().unwrap().1;
    assert!(!report.contains("## Skill trace"));
    // Without option combinations there is no per-option section either.
    assert!(!report.contains("## Every configuration"));
}

#[test]
fn bad_arguments_are_refused_in_one_line_with_status_2() {
    let dir = fresh_dir("refused");
    let out = dir.to_str().unwrap();
    let file = fresh_dir("a-file");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "not a directory").unwrap();
    let file = file.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--games", "0"], "--games must be at least 1"),
        (&["--games", "-3"], "-3"),
        (&["--games", "many"], "--games"),
        (&["--turn-cap", "0"], "--turn-cap must be at least 1"),
        (&["--threads", "5000"], "--threads 5000"),
        (&["--rules", "chess"], "--rules"),
        (&["--rules", "regency(water=true)"], "water"),
        (&["--rules", "regency(house_of_water=maybe)"], "maybe"),
        (
            &[
                "--rules",
                "regency(exits_from_28_29_30=true,exit_beyond_30=true)",
            ],
            "--rules",
        ),
        (
            &[
                "--rules",
                "regency",
                "--rules",
                "regency(house_of_water=false)",
            ],
            "given twice",
        ),
        (&["--skill-rules", "kendall(pieces=6)"], "--skill-rules"),
        (&["--ladder", "random"], "at least two players"),
        (&["--ladder", "random,robot"], "robot"),
        (&["--ladder", "greedy,greedy"], "named twice"),
        (&["--ladder", "random,mcts:0"], "mcts"),
        // No weights for any configuration of the trace: refused, naming how to train some.
        (
            &[
                "--ladder",
                "random,learned",
                "--skill-rules",
                "bell(compulsory_capture=true)",
            ],
            "senet train",
        ),
        (
            &["--ladder", "random,perfect", "--skill-rules", "kendall"],
            "take minutes or more",
        ),
        (&["--out", file], "not a directory"),
        (&["--bogus"], "--bogus"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["compare", "--skill-games", "1"];
        // Small defaults for whatever the case does not set itself.
        for (flag, value) in [
            ("--games", "5"),
            ("--rules", "regency"),
            ("--skill-rules", "regency"),
            ("--ladder", "random,greedy"),
            ("--out", out),
        ] {
            if !extra.contains(&flag) {
                args.extend_from_slice(&[flag, value]);
            }
        }
        args.extend_from_slice(extra);
        senet(&args).refused(needle);
    }
    // Nothing was written for any of them.
    assert!(!dir.join("ruleset-comparison.md").exists());
}
