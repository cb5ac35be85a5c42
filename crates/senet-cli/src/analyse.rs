//! `senet analyse`: what each move of a recorded game cost and what each throw gave
//! (`senet::analysis`), as text, JSON or an SVG graph of the winning chance.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use plotters::prelude::*;
use senet::analysis::{AnalysisOptions, GameAnalysis, Label, Step, Tables, analyse};
use senet::{AnyTables, Side};
use senet_ai::PlayerSpec;
use senet_ai::endgame::EXACT_BOUND;

use crate::error::CliError;
use crate::files::write_atomically;
use crate::players::read_tables;
use crate::replay::LoadedRecord;

/// Analyse a game record: each move's loss against the best move, each throw's luck, the
/// labels of costly moves, each side's error rate and luck, and the winning chance over the
/// game.
///
/// Values are winning chances, in points (hundredths). They are exact (and marked so)
/// wherever endgame tables cover the position; by default the tables that take seconds to
/// solve are solved first. Labels: inaccuracy from a loss of 2 points, mistake from 4,
/// blunder from 8 (docs/analysis.md says why and how to read each figure).
#[derive(Args, Debug)]
pub(crate) struct AnalyseArgs {
    /// The record file, in the text or JSON form `senet replay` reads; `-` reads standard
    /// input.
    record: PathBuf,
    /// The evaluator: learned[:DEPTH], expectiminimax[:DEPTH], mcts[:PLAYOUTS] or
    /// perfect[:PIECES]. Default: learned:2 where weights come with senet for the ruleset,
    /// expectiminimax:2 elsewhere.
    #[arg(long, value_name = "PLAYER")]
    player: Option<String>,
    /// Endgame tables to read (a file written by `senet solve` for the record's ruleset).
    #[arg(long, value_name = "FILE", conflicts_with = "no_tables")]
    tables: Option<PathBuf>,
    /// Use no endgame tables: every value is the evaluator's.
    #[arg(long)]
    no_tables: bool,
    /// Print the whole analysis as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw Black's winning chance over the game, with the costly moves marked, as an
    /// SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Seed of the evaluators that draw (mcts): the same seed gives the same analysis.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub(crate) fn run(args: &AnalyseArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = LoadedRecord::read(&args.record)?;
    let game = loaded.replay()?;
    let evaluator = args
        .player
        .as_deref()
        .map(|text| {
            text.parse::<PlayerSpec>()
                .map_err(|e| CliError::input(format!("--player: {e}")))
        })
        .transpose()?;
    let given: Option<AnyTables> = match &args.tables {
        Some(path) => Some(read_tables(game.rules(), path)?),
        None => None,
    };
    let tables = match (&given, args.no_tables) {
        (Some(tables), _) => Tables::Given(tables),
        (None, true) => Tables::None,
        (None, false) => Tables::OnDemand,
    };
    let options = AnalysisOptions {
        evaluator,
        tables,
        seed: args.seed,
    };
    let analysis = analyse(&game, &options).map_err(|e| CliError::input(format!("{e}")))?;
    if let Some(path) = &args.svg {
        let svg = graph(&analysis).map_err(|e| CliError::input(format!("--svg: {e}")))?;
        write_atomically(path, svg.as_bytes())
            .map_err(|e| CliError::input(format!("--svg: cannot write {}: {e}", path.display())))?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&analysis)
            .map_err(|e| CliError::input(format!("cannot write the analysis as JSON: {e}")))?;
        writeln!(out, "{json}")?;
    } else {
        write!(out, "{}", text(&analysis, &loaded.source))?;
    }
    Ok(())
}

/// A winning chance in points, one decimal.
fn points(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The text report: the header, each side's figures, the summary, every costly move and the
/// luckiest throws.
fn text(a: &GameAnalysis, source: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "analysis of {source}: {}", a.rules);
    let _ = writeln!(out, "evaluator: {}", a.evaluator);
    match &a.tables {
        Some(tables) => {
            let _ = writeln!(
                out,
                "endgame tables: {tables}; {}",
                match a.tables_error_bound {
                    Some(bound) if bound > EXACT_BOUND => format!(
                        "their proven bound {bound:.1e} is above {EXACT_BOUND:.0e}, so no value \
                         is called exact"
                    ),
                    _ if a.points.iter().any(|p| p.exact) => {
                        "the values they give are marked exact".to_string()
                    }
                    _ => "not reached in this game".to_string(),
                }
            );
        }
        None => {
            let _ = writeln!(out, "endgame tables: none; every value is the evaluator's");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<8}{:>10}{:>8}{:>11}{:>8}{:>7}{:>10}{:>8}{:>8}{:>11}{:>15}",
        "side",
        "decisions",
        "forced",
        "mean loss",
        "inacc.",
        "mist.",
        "blunders",
        "throws",
        "luck",
        "result",
        "luck-adjusted"
    );
    for side in [Side::Black, Side::White] {
        let s = &a.sides[side];
        let _ = writeln!(
            out,
            "{:<8}{:>10}{:>8}{:>11}{:>8}{:>7}{:>10}{:>8}{:>8}{:>11}{:>15}",
            side.to_string(),
            s.decisions,
            s.forced,
            points(s.error_rate),
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            s.throws,
            format!("{:+.1}", 100.0 * s.luck),
            points(s.result),
            points(s.luck_adjusted)
        );
    }
    let _ = writeln!(
        out,
        "(points of winning chance; result {})",
        if a.finished {
            "100 won, 0 lost"
        } else {
            "is the chance at the last position: the game is not over"
        }
    );
    let _ = writeln!(out);
    out.push_str(&a.summary());
    let costly: Vec<_> = a
        .moves()
        .into_iter()
        .filter(|m| m.label.is_some())
        .collect();
    if !costly.is_empty() {
        let _ = writeln!(out, "\ncostly moves (action, side, played, best, loss):");
        for m in costly {
            let _ = writeln!(
                out,
                "  {:>4}  {:<6} {:<10} {:<10} {:>5} {}{}",
                m.action + 1,
                m.side.to_string(),
                format!("{}{}", m.played, m.label.map_or("", Label::mark)),
                m.best,
                points(m.loss),
                m.label.map_or("", Label::name),
                if m.exact { " (exact)" } else { "" }
            );
        }
    }
    let mut throws = a.throws();
    throws.sort_by(|x, y| y.luck.abs().total_cmp(&x.luck.abs()));
    if !throws.is_empty() {
        let _ = writeln!(
            out,
            "\nthrows that changed most (action, side, throw, luck):"
        );
        for t in throws.iter().take(5) {
            let _ = writeln!(
                out,
                "  {:>4}  {:<6} {:<3} {:>+6.1}{}",
                t.action + 1,
                t.side.to_string(),
                t.throw.to_string(),
                100.0 * t.luck,
                if t.exact { " (exact)" } else { "" }
            );
        }
    }
    out
}

/// Width and height of the graph, in pixels.
const GRAPH_SIZE: (u32, u32) = (960, 360);
/// The colours of the labels' marks, from inaccuracy to blunder.
const LABEL_COLOURS: [RGBColor; 3] = [
    RGBColor(230, 180, 0),
    RGBColor(240, 120, 20),
    RGBColor(210, 30, 30),
];
const CHANCE_LINE: RGBColor = RGBColor(40, 40, 40);
const EXACT_LINE: RGBColor = RGBColor(20, 130, 60);

/// The SVG graph of Black's winning chance over the game: one point per action, the stretch
/// of exact values in green, each costly move marked in its label's colour.
pub(crate) fn graph(a: &GameAnalysis) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, GRAPH_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let last = a.points.last().map_or(1, |p| p.actions.max(1));
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{}: Black's winning chance ({})", a.rules, a.evaluator),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(48)
            .build_cartesian_2d(0..last, 0.0..100.0)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("actions")
            .y_desc("Black's chance (%)")
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                [(0, 50.0), (last, 50.0)],
                RGBColor(170, 170, 170).stroke_width(1),
            ))
            .map_err(|e| e.to_string())?;
        let line: Vec<(usize, f64)> = a
            .points
            .iter()
            .map(|p| (p.actions, 100.0 * p.black))
            .collect();
        chart
            .draw_series(LineSeries::new(line, CHANCE_LINE.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label("estimated")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], CHANCE_LINE.stroke_width(2)));
        let exact: Vec<(usize, f64)> = a
            .points
            .iter()
            .filter(|p| p.exact)
            .map(|p| (p.actions, 100.0 * p.black))
            .collect();
        if !exact.is_empty() {
            chart
                .draw_series(
                    exact
                        .into_iter()
                        .map(|(x, y)| Circle::new((x, y), 2, EXACT_LINE.filled())),
                )
                .map_err(|e| e.to_string())?
                .label("exact (endgame tables)")
                .legend(|(x, y)| Circle::new((x + 8, y), 3, EXACT_LINE.filled()));
        }
        for (label, colour) in Label::ALL.into_iter().zip(LABEL_COLOURS) {
            let marks: Vec<(usize, f64)> = a
                .steps
                .iter()
                .filter_map(|s| match s {
                    Step::Move(m) if m.label == Some(label) => {
                        Some((m.action + 1, 100.0 * a.points[m.action + 1].black))
                    }
                    _ => None,
                })
                .collect();
            if marks.is_empty() {
                continue;
            }
            chart
                .draw_series(
                    marks
                        .into_iter()
                        .map(|(x, y)| Circle::new((x, y), 5, colour.filled())),
                )
                .map_err(|e| e.to_string())?
                .label(label.name())
                .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::LowerLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}
