//! What happened in a game, in words: the log of `senet serve`'s page and of `senet play`.
//!
//! The narration compares the board before and after each action, so it works for every
//! ruleset without knowing its rules: a piece that did not land where its step said was
//! sent on (27 and the water), an opposing piece that moved was swapped or sent back, one
//! that left the board was captured or returned to hand.

use senet::{Action, AnyGame, Move, Outcome, Phase, Place, Side, SquareSet};

use senet_ai::ValueKind;

/// The squares of a set, as `12` or `12, 14`.
fn squares(set: SquareSet) -> String {
    set.iter()
        .map(|sq| sq.get().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where a side's pieces are: board, off, in hand, captured.
#[derive(Clone, Copy)]
struct Pieces {
    board: SquareSet,
    off: u8,
    hand: u8,
    captured: u8,
}

impl Pieces {
    fn of(game: &AnyGame, side: Side) -> Pieces {
        let board = game.board();
        Pieces {
            board: board.pieces(side),
            off: board.off(side),
            hand: board.in_hand(side),
            captured: game.captured(side),
        }
    }
}

/// One sentence for `action`, applied to `before` to give `after` by `side`.
pub fn narrate(before: &AnyGame, action: Action, after: &AnyGame) -> String {
    let side = before.phase().side().unwrap_or(Side::Black);
    let mut text = match action {
        Action::Throw(value) => format!("{side} throws {value}"),
        Action::Move(mv) => narrate_move(before, mv, after, side),
    };
    if let Action::Move(_) = action
        && after.phase() == Phase::Throw(side)
        && after.outcome().is_none()
    {
        text.push_str("; another throw");
    }
    if let Some(outcome) = after.outcome() {
        text.push_str(". ");
        text.push_str(&game_over(after, &outcome));
    }
    text
}

/// The end of `game` in words: what decided it and, where the ruleset scores games, the
/// score (see [`outcome_words`]).
pub fn game_over(game: &AnyGame, outcome: &Outcome) -> String {
    match outcome_words(game, outcome) {
        (summary, Some(score)) => format!("The game is over: {summary}. {score}"),
        (summary, None) => format!("The game is over: {summary}"),
    }
}

/// `side` as a sentence names it.
fn side_word(side: Side) -> &'static str {
    match side {
        Side::Black => "Black",
        Side::White => "White",
    }
}

/// "1 piece", "5 pieces".
fn pieces(n: u8) -> String {
    if n == 1 {
        "1 piece".to_string()
    } else {
        format!("{n} pieces")
    }
}

/// The summary and the score of a finished `game`, in each ruleset's terms (the meaning of
/// `Outcome::points` is each ruleset's own: `crates/senet-*/src/lib.rs`).
pub fn outcome_words(game: &AnyGame, outcome: &Outcome) -> (String, Option<String>) {
    let rules = game.rules();
    let board = game.board();
    let all = rules.pieces_per_side();
    let points = |s: Side| outcome.points_of(s);
    let Some(winner) = outcome.winner else {
        // Bell's draw: equal numbers borne off once the board is empty (Be-9).
        let off = board.off(Side::Black);
        return (
            format!(
                "A draw: the board is empty and both sides bore off {}",
                pieces(off)
            ),
            None,
        );
    };
    let loser = !winner;
    let (w, l) = (side_word(winner), side_word(loser));
    let first = format!("{w} bore off all {} first", pieces(all));
    let plural = |n: i32| if n == 1 { "point" } else { "points" };
    match rules.id() {
        "regency" => {
            let p = points(winner);
            (
                first,
                Some(format!(
                    "{w} scores {p} {}: 3 for each {l} piece left in row 1, 2 in row 2, 1 in row 3",
                    plural(p)
                )),
            )
        }
        "jequier" => {
            let p = points(winner);
            (
                first,
                Some(format!(
                    "{w} scores {p} {}: 3 for each {l} piece left on 1–10, 2 on 11–20, 1 on 21–30",
                    plural(p)
                )),
            )
        }
        "botermans" => {
            let p = -points(loser);
            (
                first,
                Some(format!(
                    "{l} pays a penalty of {p} {}: 3 for each piece left on 1–10, 2 on 11–20, \
                     1 on 21–30",
                    plural(p)
                )),
            )
        }
        "bell" => (
            format!(
                "{w} bore off more pieces than {l}, {} to {}, once the board was empty",
                board.off(winner),
                board.off(loser)
            ),
            None,
        ),
        "cemea" if rules.to_string().contains("ancient=true") => (
            format!(
                "{w} finished first, in {} turns; {l} finished in {} turns",
                points(winner),
                points(loser)
            ),
            None,
        ),
        _ => (
            format!("{first}; {l} had borne off {}", board.off(loser)),
            None,
        ),
    }
}

fn narrate_move(before: &AnyGame, mv: Move, after: &AnyGame, side: Side) -> String {
    if mv.is_pass() {
        return match mv.throw() {
            Some(t) => format!("{side} gives up the throw of {t}"),
            None => format!("{side} cannot move and passes"),
        };
    }
    let mut parts = Vec::new();
    for step in mv.steps() {
        parts.push(match (step.from, step.to) {
            (Place::Hand, to) => format!("enters a piece on {to}"),
            (from, Place::Off) => format!("bears off from {from}"),
            (from, to) => format!("moves {from} → {to}"),
        });
    }
    let mut text = format!("{side} {}", parts.join(", then "));
    let (mine0, mine1) = (Pieces::of(before, side), Pieces::of(after, side));
    let (theirs0, theirs1) = (Pieces::of(before, !side), Pieces::of(after, !side));
    // Where the mover's steps said its pieces would land, and where they are.
    let mut landed = mine0.board;
    for step in mv.steps() {
        if let Place::Board(from) = step.from {
            landed.remove(from);
        }
        if let Place::Board(to) = step.to {
            landed.insert(to);
        }
    }
    let sent_from = landed & !mine1.board;
    let sent_to = mine1.board & !landed;
    if !sent_from.is_empty() {
        let whither = if !sent_to.is_empty() {
            format!("goes on to {}", squares(sent_to))
        } else if mine1.hand > mine0.hand {
            "goes back to hand".to_string()
        } else if mine1.off > mine0.off {
            "leaves the board".to_string()
        } else {
            "is lost".to_string()
        };
        text.push_str(&format!(
            "; the piece on {} does not stay and {whither}",
            squares(sent_from)
        ));
    }
    let left = theirs0.board & !theirs1.board;
    let arrived = theirs1.board & !theirs0.board;
    if !left.is_empty() {
        let other = !side;
        let whither = if !arrived.is_empty() {
            let from_squares: SquareSet =
                mv.steps()
                    .filter_map(|s| s.from.square())
                    .fold(SquareSet::EMPTY, |mut set, sq| {
                        set.insert(sq);
                        set
                    });
            if arrived == (arrived & from_squares) {
                format!(
                    "swapping with {other}'s piece, which goes back to {}",
                    squares(arrived)
                )
            } else {
                format!(
                    "sending {other}'s piece on {} to {}",
                    squares(left),
                    squares(arrived)
                )
            }
        } else if theirs1.captured > theirs0.captured {
            format!("capturing {other}'s piece on {}", squares(left))
        } else if theirs1.hand > theirs0.hand {
            format!("sending {other}'s piece on {} back to hand", squares(left))
        } else {
            format!("{other}'s piece on {} leaves the board", squares(left))
        };
        text.push_str(", ");
        text.push_str(&whither);
    }
    if mine1.off > mine0.off {
        let n = mine1.off;
        text.push_str(&format!(" ({n} of {} borne off)", before.pieces_per_side()));
    }
    text
}

/// What the values of a player's analysis mean, for the side to move.
pub fn value_meaning(kind: ValueKind, side: Side) -> String {
    match kind {
        ValueKind::ExactWinProbability => format!(
            "the exact chance that {side} wins after the move, with perfect play from solved \
             endgame tables"
        ),
        ValueKind::EstimatedWinProbability => {
            format!("an estimated chance that {side} wins after the move (search or playouts)")
        }
        ValueKind::Heuristic => {
            "a heuristic score: only the order of the moves means anything".to_string()
        }
        ValueKind::Uniform => {
            "no preference: each value is the chance of picking the move".to_string()
        }
        ValueKind::Forced => "those of the only legal move".to_string(),
    }
}

/// One value of an analysis in words: `62.5% to win`, `score 3.20`.
pub fn show_value(kind: ValueKind, value: f64) -> String {
    match kind {
        ValueKind::ExactWinProbability | ValueKind::EstimatedWinProbability => {
            format!("{:.1}% to win", value * 100.0)
        }
        ValueKind::Uniform => format!("{:.0}% chance of being picked", value * 100.0),
        ValueKind::Heuristic => format!("score {value:.2}"),
        ValueKind::Forced => "forced".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut AnyGame, action: &str) -> String {
        let action: Action = action.parse().unwrap();
        let before = game.clone();
        game.apply(action).unwrap();
        narrate(&before, action, game)
    }

    #[test]
    fn a_swap_an_extra_throw_and_the_water_are_told() {
        // Regency: Black on 12 attacks White's lone piece on 13 with a 1 and throws again.
        let start = "W.W.W.W....BW..B.B.B...B...... b white_opened=true";
        let mut game = AnyGame::from_position("regency".parse().unwrap(), start).unwrap();
        assert_eq!(play(&mut game, "throw 1"), "Black throws 1");
        assert_eq!(
            play(&mut game, "move 12-13"),
            "Black moves 12 → 13, swapping with White's piece, which goes back to 12; another \
             throw"
        );
        // 27 sends the piece on to the first empty square from 1.
        assert_eq!(play(&mut game, "throw 3"), "Black throws 3");
        assert_eq!(
            play(&mut game, "move 24-27"),
            "Black moves 24 → 27; the piece on 27 does not stay and goes on to 2"
        );
    }

    #[test]
    fn a_bear_off_counts_the_pieces_off_and_the_end_gives_the_score() {
        // Black's last piece on 28; a 2 takes it to 30 and off.
        let start = "W.W.W.W.W..................B.. b white_opened=true";
        let mut game = AnyGame::from_position("regency".parse().unwrap(), start).unwrap();
        play(&mut game, "throw 2");
        let mv = game.legal_moves()[0].to_string();
        let text = play(&mut game, &format!("move {mv}"));
        assert!(text.starts_with("Black bears off from 28"), "{text}");
        assert!(text.contains("(5 of 5 borne off)"), "{text}");
        // White's five pieces on 1, 3, ..., 9 are all in row 1: 3 points each.
        assert!(
            text.ends_with(
                "The game is over: Black bore off all 5 pieces first. Black scores 15 points: \
                 3 for each White piece left in row 1, 2 in row 2, 1 in row 3"
            ),
            "{text}"
        );
    }
}
