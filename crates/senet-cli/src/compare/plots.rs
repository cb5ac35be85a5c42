//! The SVG plots of the comparison, drawn with `plotters` (its SVG backend only: text is
//! written as SVG text elements, so no font is read and nothing depends on the machine).

use plotters::prelude::*;
use senet::Side;
use senet::metrics::Proportion;
use senet::registry::{AnyRuleset, RULESETS};
use senet::stats::Distribution;

use super::{Comparison, RandomResult};

/// Width of every plot, in pixels.
const WIDTH: u32 = 1100;
/// Height of one row of an interval plot.
const ROW: u32 = 16;
const FONT: &str = "sans-serif";

/// One colour per ruleset (by its place in the registry), and two for the sides.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
const BLACK_SIDE: RGBColor = RGBColor(40, 40, 40);
const WHITE_SIDE: RGBColor = RGBColor(230, 120, 20);

fn ruleset_colour(id: &str) -> RGBColor {
    let index = RULESETS.iter().position(|r| r.id == id).unwrap_or(0);
    PALETTE[index % PALETTE.len()]
}

/// Every plot of `c` as (file name, SVG text).
pub(super) fn all(c: &Comparison) -> Result<Vec<(String, String)>, String> {
    let mut files = Vec::new();
    if !c.random.is_empty() {
        files.push((
            "comparison-first-mover.svg".to_string(),
            first_mover(&c.random)?,
        ));
        files.push((
            "comparison-length-ranges.svg".to_string(),
            length_ranges(&c.random)?,
        ));
    }
    let defaults: Vec<&RandomResult> = c.random.iter().filter(|r| r.is_default()).collect();
    if !defaults.is_empty() {
        let turns: Vec<Panel<'_>> = defaults
            .iter()
            .map(|r| Panel {
                title: r.id().to_string(),
                colour: ruleset_colour(r.id()),
                lengths: &r.summary.games.turns,
                capped: r.summary.games.capped() > 0,
            })
            .collect();
        files.push((
            "comparison-length-turns.svg".to_string(),
            histograms(
                "Length of random games in turns (default options)",
                "turns",
                &turns,
            )?,
        ));
        let decisions: Vec<Panel<'_>> = defaults
            .iter()
            .map(|r| Panel {
                title: r.id().to_string(),
                colour: ruleset_colour(r.id()),
                lengths: &r.summary.games.decisions,
                capped: r.summary.games.capped() > 0,
            })
            .collect();
        files.push((
            "comparison-length-decisions.svg".to_string(),
            histograms(
                "Length of random games in decisions (default options)",
                "decisions",
                &decisions,
            )?,
        ));
    }
    if !c.skill.is_empty() {
        files.push(("comparison-skill.svg".to_string(), skill(c)?));
    }
    Ok(files)
}

/// One row of an interval plot: a point with a bar around it.
struct Row {
    label: String,
    value: f64,
    low: f64,
    high: f64,
    group: usize,
}

/// A set of rows drawn in one colour, named in the legend when there are several.
struct Group {
    name: String,
    colour: RGBColor,
}

struct IntervalPlot<'a> {
    title: &'a str,
    x_desc: &'a str,
    rows: Vec<Row>,
    groups: Vec<Group>,
    /// Whether to name the groups in a legend (not needed where the labels name them).
    legend: bool,
    x_range: (f64, f64),
    /// A vertical reference line.
    reference: Option<f64>,
    x_format: &'a dyn Fn(&f64) -> String,
}

/// Room for row labels of `chars` characters in the 11-pixel font (about 6 pixels each).
fn label_width(chars: usize) -> u32 {
    u32::try_from(chars)
        .unwrap_or(u32::MAX / 8)
        .saturating_mul(6)
        + 24
}

fn draw_error(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Rows of points with bars (intervals or percentile ranges), the first row at the top.
fn interval_plot(plot: &IntervalPlot<'_>) -> Result<String, String> {
    let n = plot.rows.len() as i32;
    let legend = if plot.legend { 40 } else { 0 };
    let height = 110 + legend + ROW * plot.rows.len() as u32;
    let longest = plot.rows.iter().map(|r| r.label.chars().count()).max();
    let label_area = label_width(longest.unwrap_or(0));
    // Long labels widen the plot rather than squeeze its data.
    let width = WIDTH.max(label_area + 620);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let labels: Vec<&str> = plot.rows.iter().map(|r| r.label.as_str()).collect();
        let y_label = |y: &i32| -> String {
            let index = n - 1 - *y;
            usize::try_from(index)
                .ok()
                .and_then(|i| labels.get(i))
                .map_or_else(String::new, |l| (*l).to_string())
        };
        let mut chart = ChartBuilder::on(&root)
            .caption(plot.title, (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(label_area)
            .build_cartesian_2d(plot.x_range.0..plot.x_range.1, -1i32..n)
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(plot.rows.len() + 2)
            .y_label_formatter(&y_label)
            .x_labels(11)
            .x_label_formatter(plot.x_format)
            .x_desc(plot.x_desc)
            .label_style((FONT, 11))
            .axis_desc_style((FONT, 13))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(draw_error)?;
        if let Some(x) = plot.reference {
            chart
                .draw_series(LineSeries::new(
                    [(x, -1), (x, n)],
                    RGBColor(90, 90, 90).stroke_width(1),
                ))
                .map_err(draw_error)?;
        }
        for (g, group) in plot.groups.iter().enumerate() {
            let colour = group.colour;
            let rows: Vec<(i32, &Row)> = plot
                .rows
                .iter()
                .enumerate()
                .filter(|(_, r)| r.group == g)
                .map(|(i, r)| (n - 1 - i as i32, r))
                .collect();
            chart
                .draw_series(rows.iter().map(|&(y, r)| {
                    PathElement::new(vec![(r.low, y), (r.high, y)], colour.stroke_width(2))
                }))
                .map_err(draw_error)?;
            let points = chart
                .draw_series(
                    rows.iter()
                        .map(|&(y, r)| Circle::new((r.value, y), 3, colour.filled())),
                )
                .map_err(draw_error)?;
            if plot.legend {
                points
                    .label(group.name.as_str())
                    .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
            }
        }
        if plot.legend {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerLeft)
                .background_style(WHITE.mix(0.9))
                .border_style(RGBColor(160, 160, 160))
                .label_font((FONT, 12))
                .draw()
                .map_err(draw_error)?;
        }
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn percent_label(x: &f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// A range of shares around `values` (with their intervals), widened to tenths and at
/// least 0.3–0.7, within 0–1.
fn share_range(rows: &[Row]) -> (f64, f64) {
    let low = rows.iter().map(|r| r.low).fold(0.3, f64::min);
    let high = rows.iter().map(|r| r.high).fold(0.7, f64::max);
    (
        ((low * 10.0).floor() / 10.0).max(0.0),
        ((high * 10.0).ceil() / 10.0).min(1.0),
    )
}

fn interval_row(label: String, p: Proportion, group: usize) -> Option<Row> {
    let value = p.value()?;
    let (low, high) = p.interval();
    Some(Row {
        label,
        value,
        low,
        high,
        group,
    })
}

/// Ruleset groups in registry order, for the rows of `results`.
fn ruleset_groups(results: &[RandomResult]) -> (Vec<Group>, Vec<usize>) {
    let mut groups: Vec<Group> = Vec::new();
    let mut index = Vec::new();
    for r in results {
        let g = match groups.iter().position(|g| g.name == r.id()) {
            Some(g) => g,
            None => {
                groups.push(Group {
                    name: r.id().to_string(),
                    colour: ruleset_colour(r.id()),
                });
                groups.len() - 1
            }
        };
        index.push(g);
    }
    (groups, index)
}

/// The configuration's name with `=true` left out, to keep the labels short.
fn short_name(rules: &AnyRuleset) -> String {
    rules.to_string().replace("=true", "")
}

fn first_mover(results: &[RandomResult]) -> Result<String, String> {
    let (groups, index) = ruleset_groups(results);
    let rows: Vec<Row> = results
        .iter()
        .zip(&index)
        .filter_map(|(r, &g)| interval_row(short_name(&r.rules), r.summary.first_mover_wins(), g))
        .collect();
    let x_range = share_range(&rows);
    interval_plot(&IntervalPlot {
        title: "First mover (Black): share of the decided random games, 95% intervals",
        x_desc: "Black's share of the games won by either side",
        rows,
        groups,
        legend: false,
        x_range,
        reference: Some(0.5),
        x_format: &percent_label,
    })
}

fn length_ranges(results: &[RandomResult]) -> Result<String, String> {
    let (groups, index) = ruleset_groups(results);
    let log = |x: u32| f64::from(x.max(1)).log10();
    let rows: Vec<Row> = results
        .iter()
        .zip(&index)
        .filter_map(|(r, &g)| {
            let turns = &r.summary.games.turns;
            Some(Row {
                label: short_name(&r.rules),
                value: log(turns.median()?),
                low: log(turns.quantile(0.1)?),
                high: log(turns.quantile(0.9)?),
                group: g,
            })
        })
        .collect();
    let low = rows.iter().map(|r| r.low).fold(f64::INFINITY, f64::min);
    let high = rows
        .iter()
        .map(|r| r.high)
        .fold(f64::NEG_INFINITY, f64::max);
    let x_range = if low.is_finite() && high.is_finite() {
        ((low - 0.1).max(0.0), high + 0.1)
    } else {
        (0.0, 1.0)
    };
    let power = |x: &f64| two_significant_digits(10f64.powf(*x));
    interval_plot(&IntervalPlot {
        title: "Length of random games in turns: median and 10th-90th percentile",
        x_desc: "turns (logarithmic scale)",
        rows,
        groups,
        legend: false,
        x_range,
        reference: None,
        x_format: &power,
    })
}

/// `316.2` as `320`, `3162` as `3200`: tick labels of a logarithmic axis.
fn two_significant_digits(x: f64) -> String {
    if x < 10.0 {
        return format!("{x:.1}");
    }
    let magnitude = 10f64.powi(x.log10().floor() as i32 - 1);
    format!("{:.0}", (x / magnitude).round() * magnitude)
}

fn skill(c: &Comparison) -> Result<String, String> {
    let mut rows = Vec::new();
    for s in &c.skill {
        for (group, side) in [(0, Side::Black), (1, Side::White)] {
            let label = format!("{}: {} vs {}", short_name(&s.rules), s.stronger, s.weaker);
            if let Some(row) = interval_row(label, s.summary.a_wins(Some(side)), group) {
                rows.push(row);
            }
        }
    }
    let x_range = share_range(&rows);
    let groups = vec![
        Group {
            name: "stronger player as Black (moves first)".to_string(),
            colour: BLACK_SIDE,
        },
        Group {
            name: "stronger player as White".to_string(),
            colour: WHITE_SIDE,
        },
    ];
    interval_plot(&IntervalPlot {
        title: "Skill trace: the stronger player's share of the games, 95% intervals",
        x_desc: "games won by the stronger player",
        rows,
        groups,
        legend: true,
        x_range,
        reference: Some(0.5),
        x_format: &percent_label,
    })
}

/// One small histogram.
struct Panel<'a> {
    title: String,
    colour: RGBColor,
    lengths: &'a Distribution,
    /// Whether some games were stopped by the cap (then the whole range is shown).
    capped: bool,
}

/// A round bucket width that cuts `0..=max` into at most about 40 buckets.
fn bucket_width(max: u32) -> u32 {
    let raw = max / 40 + 1;
    [
        1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000,
    ]
    .into_iter()
    .find(|&w| w >= raw)
    .unwrap_or(raw.next_multiple_of(1000))
}

/// Small multiples: one histogram of lengths per panel, two panels a row.
fn histograms(title: &str, x_desc: &str, panels: &[Panel<'_>]) -> Result<String, String> {
    let columns = 2usize;
    let rows = panels.len().div_ceil(columns);
    let height = 50 + 240 * rows as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let root = root.titled(title, (FONT, 18)).map_err(draw_error)?;
        let areas = root.split_evenly((rows, columns));
        for (area, panel) in areas.iter().zip(panels) {
            let d = panel.lengths;
            let total = d.count().max(1) as f64;
            // The bulk of the games, or everything when some were stopped at the cap.
            let shown = if panel.capped {
                d.max()
            } else {
                d.quantile(0.995)
            }
            .unwrap_or(0);
            let width = bucket_width(shown);
            let end = (shown / width + 1) * width;
            let buckets: Vec<(u32, f64)> = d
                .histogram(width)
                .into_iter()
                .fold(Vec::new(), |mut acc: Vec<(u32, u64)>, (start, c)| {
                    // Lengths past the range shown go to the last bucket.
                    let start = start.min(end - width);
                    match acc.last_mut() {
                        Some(last) if last.0 == start => last.1 += c,
                        _ => acc.push((start, c)),
                    }
                    acc
                })
                .into_iter()
                .map(|(start, c)| (start, c as f64 / total))
                .collect();
            let top = buckets.iter().map(|b| b.1).fold(0.0, f64::max).max(1e-9) * 1.1;
            let caption = format!(
                "{}: median {}, mean {:.0}{}",
                panel.title,
                d.median().unwrap_or(0),
                d.mean().unwrap_or(0.0),
                if panel.capped {
                    " (games stopped by the cap at the right)"
                } else {
                    ""
                }
            );
            let mut chart = ChartBuilder::on(area)
                .caption(caption, (FONT, 13))
                .margin(8)
                .margin_right(24)
                .x_label_area_size(32)
                .y_label_area_size(48)
                .build_cartesian_2d(0u32..end, 0f64..top)
                .map_err(draw_error)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(6)
                .y_labels(5)
                .y_label_formatter(&|y: &f64| format!("{:.0}%", 100.0 * y))
                .x_desc(x_desc)
                .label_style((FONT, 10))
                .axis_desc_style((FONT, 11))
                .light_line_style(RGBColor(235, 235, 235))
                .draw()
                .map_err(draw_error)?;
            let colour = panel.colour;
            chart
                .draw_series(buckets.iter().map(|&(start, share)| {
                    Rectangle::new([(start, 0.0), (start + width, share)], colour.filled())
                }))
                .map_err(draw_error)?;
        }
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logarithmic_tick_labels_keep_two_significant_digits() {
        assert_eq!(two_significant_digits(316.227), "320");
        assert_eq!(two_significant_digits(3162.3), "3200");
        assert_eq!(two_significant_digits(100.0), "100");
        assert_eq!(two_significant_digits(31.6), "32");
        assert_eq!(two_significant_digits(3.16), "3.2");
    }

    #[test]
    fn row_labels_get_room_for_their_length() {
        assert_eq!(label_width(0), 24);
        assert_eq!(label_width(88), 552);
        assert!(label_width(usize::MAX) > 0);
    }

    #[test]
    fn bucket_widths_are_round_and_give_at_most_about_40_buckets() {
        assert_eq!(bucket_width(0), 1);
        assert_eq!(bucket_width(39), 1);
        assert_eq!(bucket_width(40), 2);
        assert_eq!(bucket_width(10_000), 500);
        for max in [0, 7, 99, 433, 10_000, 1_000_000] {
            let w = bucket_width(max);
            assert!(max / w <= 41, "{max}");
        }
    }
}
