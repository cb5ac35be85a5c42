//! The positions of the "Differences from Ludii" sections of `docs/rules/<id>.md`, asked of
//! `senet moves`. Each is a place where Ludii's encoding of the same reconstruction plays
//! differently, either because our rules chose differently or because the encoding does not
//! do what its own rules text says. The answers are pinned here so that nobody "fixes" the
//! engine towards Ludii by accident; the test also checks that each page still shows its
//! positions.

mod common;

use std::path::Path;

use common::{parse_moves, senet};

const KENDALL: &str = "kendall(throw_timing=immediate)";
const BELL: &str = "bell(marked_squares=ludii)";
const JEQUIER: &str =
    "jequier(safe_squares=15_26_28_29,start_rule=first_row,backward_priority=per_piece)";

/// One position of a "Differences from Ludii" section.
struct Example {
    /// The rules page that shows it (`docs/rules/<page>.md`).
    page: &'static str,
    /// What it shows, for failure messages.
    what: &'static str,
    rules: &'static str,
    position: &'static str,
    throw: &'static str,
    /// Every legal move, in generation order.
    moves: &'static [&'static str],
    /// The position after the moves that show the difference.
    after: &'static [(&'static str, &'static str)],
}

/// The examples, one a difference.
const EXAMPLES: &[Example] = &[
    Example {
        page: "kendall",
        what: "K-16: a bear-off may be declined",
        rules: KENDALL,
        position: "...BWWW..BBWW.W..B.B.B.B....W. w",
        throw: "2",
        moves: &["6-8/2", "7-9/2", "12-14/2", "15-17/2", "29-off/2", "pass/2"],
        after: &[("pass/2", "...BWWW..BBWW.W..B.B.B.B....W. b")],
    },
    Example {
        page: "kendall",
        what: "K-13: entering 27 with a 1 ends the turn",
        rules: KENDALL,
        position: ".BWW..WW.BBW..B.W.B..B.B.W.... w",
        throw: "1",
        moves: &["4-5/1", "8-9/1", "12-13/1", "17-18/1", "26-27/1"],
        after: &[("26-27/1", ".BWW..WW.BBW..B.W.B..B.B..W... b")],
    },
    Example {
        page: "kendall",
        what: "K-13 with trap: the fall into 27 ends the turn",
        rules: "kendall(trap=true,throw_timing=immediate)",
        position: "......W.W.BBBBW.W.WB....W..... w",
        throw: "4",
        moves: &["17-21/4", "19-23/4", "25-29/4"],
        after: &[("25-29/4", "......W.W.BBBBW.W.WB......W... b")],
    },
    Example {
        page: "kendall",
        what: "an unusable 1 gives another throw while a piece is in the water",
        rules: KENDALL,
        position: "........BWBWW......BBWWW..BB.. b",
        throw: "1",
        moves: &["27-15/1", "pass/1"],
        after: &[("pass/1", "........BWBWW......BBWWW..BB.. b")],
    },
    Example {
        page: "kendall",
        what: "K-14: with a 4 the water piece may also stay",
        rules: KENDALL,
        position: ".........W....BWW...B.BWWBWB.. w",
        throw: "4",
        moves: &["27-off/4", "pass/4"],
        after: &[],
    },
    Example {
        page: "kendall",
        what: "home_row: a water piece with no way out does not freeze its side",
        rules: "kendall(home_row=true,throw_timing=immediate)",
        position: ".........WWB..BBBWWW.B.BW.W.B. w",
        throw: "4",
        moves: &["10-14/4", "18-22/4", "19-23/4", "20-24/4"],
        after: &[],
    },
    Example {
        page: "kendall",
        what: "K-15 lapses when the returned piece cannot move",
        rules: KENDALL,
        position: ".............WBBBB..W.WBB..... b must_move_b=15",
        throw: "2",
        moves: &["17-19/2", "18-20/2", "24-26/2"],
        after: &[],
    },
    Example {
        page: "kendall",
        what: "pairs are neighbours along the track: 19-20 is a move",
        rules: KENDALL,
        position: "BWW.BBWWBBWW.B....WB.......... w",
        throw: "1",
        moves: &["3-4/1", "12-13/1", "19-20/1"],
        after: &[],
    },
    Example {
        page: "kendall",
        what: "K-12: the attack from 26 onto 28",
        rules: KENDALL,
        position: "........WB..BB.WW..B..BWWW.B.. w",
        throw: "2",
        moves: &["9-11/2", "16-18/2", "17-19/2", "26-28/2"],
        after: &[],
    },
    Example {
        page: "kendall",
        what: "the forced move of the returned piece keeps its extra throw",
        rules: KENDALL,
        position: "........BWB.WWB....BBWWW...B.. b must_move_b=15",
        throw: "1",
        moves: &["15-16/1"],
        after: &[("15-16/1", "........BWB.WW.B...BBWWW...B.. b")],
    },
    Example {
        page: "bell",
        what: "a side with nothing on the board is skipped",
        rules: BELL,
        position: ".............W...W......W..... w",
        throw: "4",
        moves: &["18-22", "25-29"],
        after: &[
            ("18-22", ".............W.......W..W..... w"),
            ("25-29", ".............W...W..........W. w"),
        ],
    },
    Example {
        page: "bell",
        what: "Be-7: the piece on a marked square moves first",
        rules: BELL,
        position: "WBWBWBWBWBWBWBWBWBWB.......... w",
        throw: "3",
        moves: &["15-18"],
        after: &[],
    },
    Example {
        page: "jequier",
        what: "J-9: backward moves",
        rules: JEQUIER,
        position: "WBWB.W..WB.B.......B.....W.... b",
        throw: "2",
        moves: &["4-6", "10-8", "12-14", "20-22"],
        after: &[],
    },
    Example {
        page: "jequier",
        what: "J-6: only opposing pieces block",
        rules: JEQUIER,
        position: "..W..BWB...BWW......W.......BB w",
        throw: "6",
        moves: &["3-9", "13-19", "14-20", "21-27"],
        after: &[],
    },
    Example {
        page: "piccione",
        what: "P-9: a stop on 15 or 26 in a split earns its throw",
        rules: "piccione",
        position: "..W.B....WB..W.B.........W.... w hand=0,1",
        throw: "4",
        moves: &[
            "3-4,10-12,14-15",
            "3-4,10-12,26-27",
            "3-4,10-13",
            "3-4,14-15,15-17",
            "3-4,14-15,26-28",
            "3-4,14-15,26-27",
            "3-4,14-17",
            "3-4,26-29",
            "3-6,14-15",
            "3-6,26-27",
            "3-7",
            "10-12,26-28",
            "10-12,14-15,26-27",
            "10-13,14-15",
            "10-13,26-27",
            "14-15,15-17,26-27",
            "14-15,15-18",
            "14-15,26-29",
            "14-17,26-27",
            "14-18",
            "26-30",
        ],
        after: &[
            ("3-6,14-15", "....BW...WB...WB.........W.... w hand=0,1"),
            ("14-15,15-18", "..W.B....WB....B.W.......W.... w hand=0,1"),
            ("14-18", "..W.B....WB....B.W.......W.... b hand=0,1"),
        ],
    },
    Example {
        page: "piccione",
        what: "a 5 gives another throw",
        rules: "piccione",
        position: "WW....W...B................... w hand=4,2 entered_must_move=true",
        throw: "5",
        moves: &[
            "1-3,2-4,7-8",
            "1-3,2-5",
            "1-3,7-10",
            "1-4,7-9",
            "1-5,7-8",
            "1-6",
        ],
        after: &[("1-6", ".W...WW...B................... w hand=4,2")],
    },
    Example {
        page: "piccione",
        what: "no pass beside an entry",
        rules: "piccione",
        position: ".............................. b hand=5,5",
        throw: "1",
        moves: &["enter"],
        after: &[],
    },
    Example {
        page: "piccione",
        what: "an earlier extra throw does not carry over",
        rules: "piccione",
        position: "W............................. w hand=5,4 entered_must_move=true",
        throw: "3",
        moves: &["1-4"],
        after: &[("1-4", "...W.......................... b hand=5,4")],
    },
];

#[test]
fn the_differences_from_ludii_keep_their_answers() {
    for example in EXAMPLES {
        let out = senet(&[
            "moves",
            "--rules",
            example.rules,
            "--position",
            example.position,
            "--throw",
            example.throw,
        ])
        .ok();
        let listed = parse_moves(&out);
        let moves: Vec<&str> = listed.iter().map(|(mv, _)| mv.as_str()).collect();
        assert_eq!(moves, example.moves, "{}: {}", example.page, example.what);
        for (mv, after) in example.after {
            let found = listed.iter().find(|(m, _)| m == mv);
            assert_eq!(
                found.map(|(_, a)| a.as_str()),
                Some(*after),
                "{}: {}, after {mv}",
                example.page,
                example.what
            );
        }
    }
}

#[test]
fn every_difference_is_shown_on_its_rules_page() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
    for example in EXAMPLES {
        let page = std::fs::read_to_string(docs.join(format!("{}.md", example.page))).unwrap();
        let section = page
            .split_once("## Differences from Ludii")
            .map(|(_, rest)| rest)
            .unwrap_or_else(|| panic!("{}.md has no Differences from Ludii", example.page));
        assert!(
            section.contains(example.position),
            "{}.md does not show {} ({})",
            example.page,
            example.position,
            example.what
        );
    }
}
