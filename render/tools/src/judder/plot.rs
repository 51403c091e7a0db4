//! The `--plot` picture: drawn and true speed over time of the worst entities, one small
//! chart each, stacked. PNG through plotters' bitmap backend, lettered in a font from the
//! assets so that no system font library is involved.

use std::fmt::Display;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use super::measures::{EntityStats, MS_PER_S, SpeedPoint, Summary};
use crate::ToolError;

/// Why a plot could not be drawn, before the picture's path is known to the message.
type Drawn = Result<(), String>;

/// The font the plots are lettered in, under the assets root.
pub const FONT_PATH: &str = "fonts/DejaVuSans.ttf";

/// The family name the font is registered under with plotters.
const FONT_FAMILY: &str = "sans-serif";

/// Width of the picture (px): wide enough to tell frames apart over a few seconds.
pub const WIDTH_PX: u32 = 1000;

/// Height of one entity's chart (px): room for a caption, the axes and a legend.
pub const CHART_HEIGHT_PX: u32 = 260;

/// The most charts one picture holds: 64 charts are a picture some 17,000 px tall, past
/// what anyone scrolls through, and the bitmap is held in memory whole.
pub const MAX_CHARTS: usize = 64;

/// Size of captions (px), readable at the picture's full size.
const CAPTION_PX: u32 = 18;

/// Size of axis labels and the legend (px).
const LABEL_PX: u32 = 14;

/// Head room above the highest ordinary speed, as a fraction of it, so a spike past that
/// speed stands out as one instead of merging with the chart's frame.
const HEAD_ROOM: f64 = 0.3;

/// The least top of the speed axis (m/s), so a figure standing still still gets a scale.
const MIN_TOP_M_S: f64 = 1.0;

/// Thickness of the drawn-speed line (px): thick enough to follow, thin enough to show a
/// one-frame spike as one.
const DRAWN_LINE_PX: u32 = 2;

/// Thickness of the true-speed line (px): wider than the drawn one it lies under, so it
/// shows as a border where the two agree.
const TRUE_LINE_PX: u32 = 4;

/// Length of a line's sample in the legend (px).
const LEGEND_LINE_PX: i32 = 20;

/// Blank border round each chart (px), so stacked charts do not touch.
const MARGIN_PX: u32 = 10;

/// Height of the time axis's labels (px): tick labels and the axis title.
const X_AXIS_PX: u32 = 40;

/// Width of the speed axis's labels (px): tick labels and the turned axis title.
const Y_AXIS_PX: u32 = 60;

/// Half the time axis (s) of an entity measured at one moment only, which gives no span of
/// its own.
const LONE_POINT_SPAN_S: f64 = 1.0;

/// One line of a chart: its legend, its colour and the speed it draws.
struct Curve {
    label: &'static str,
    color: RGBColor,
    width: u32,
    value: fn(&SpeedPoint) -> f64,
}

/// The true speed under the drawn one, so where they agree the drawn one shows.
const CURVES: [Curve; 2] = [
    Curve { label: "true speed", color: BLUE, width: TRUE_LINE_PX, value: |p| p.true_m_s },
    Curve { label: "drawn speed", color: RED, width: DRAWN_LINE_PX, value: |p| p.drawn_m_s },
];

/// The plot's font: DejaVu Sans is 760 kB; a font with every script of Unicode is about 20 MB.
const FONT_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("font", 32_000_000);

/// Whether the font is registered with plotters: its registry is global and lasts for the
/// process, so it is done once.
static FONT_REGISTERED: Mutex<bool> = Mutex::new(false);

/// Registers the font from `assets` with plotters, once for the process.
fn register(assets: &Path) -> Drawn {
    let mut registered = FONT_REGISTERED.lock().unwrap_or_else(PoisonError::into_inner);
    if *registered {
        return Ok(());
    }
    let path = assets.join(FONT_PATH);
    let bytes = fixstep_runtime::file::read_bytes(&path, FONT_FILE).map_err(|e| e.with_causes())?;
    // plotters keeps the font for the life of the process; it is read once, so leaking it
    // costs one font's worth of memory.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    register_font(FONT_FAMILY, FontStyle::Normal, bytes)
        .map_err(|_| format!("{} is not a usable font", path.display()))?;
    *registered = true;
    Ok(())
}

fn drawing<E: Display>(error: E) -> String {
    error.to_string()
}

/// Draws the drawn and true speed of each of `entities` over time into a PNG at `path`,
/// one chart per entity, top to bottom in the order given. Steps across a jump of the truth
/// are left out (they are teleports, not speeds); a drawn speed over the top of the axis is
/// drawn at the top.
///
/// # Errors
///
/// The font cannot be read from `assets`, or the picture cannot be drawn or written.
pub fn plot_speeds(path: &Path, entities: &[&EntityStats], assets: &Path) -> Result<(), ToolError> {
    draw_speeds(path, entities, assets)
        .map_err(|message| ToolError::Plot { path: path.to_path_buf(), message })
}

fn draw_speeds(path: &Path, entities: &[&EntityStats], assets: &Path) -> Drawn {
    register(assets)?;
    if entities.len() > MAX_CHARTS {
        return Err(format!(
            "cannot plot {} entities: at most {MAX_CHARTS} fit one picture",
            entities.len()
        ));
    }
    // At most MAX_CHARTS.
    let charts = entities.len().max(1) as u32;
    let root = BitMapBackend::new(path, (WIDTH_PX, CHART_HEIGHT_PX * charts)).into_drawing_area();
    root.fill(&WHITE).map_err(drawing)?;
    if entities.is_empty() {
        root.draw(&Text::new("no entities to plot", (20, 20), (FONT_FAMILY, CAPTION_PX)))
            .map_err(drawing)?;
    }
    let areas = root.split_evenly((entities.len().max(1), 1));
    for (area, entity) in areas.iter().zip(entities) {
        chart(area, entity)?;
    }
    root.present().map_err(drawing)
}

fn chart(
    area: &DrawingArea<BitMapBackend<'_>, plotters::coord::Shift>,
    entity: &EntityStats,
) -> Drawn {
    let points: Vec<_> = entity.speeds.iter().filter(|p| !p.jumped).collect();
    let (first, last) = match (points.first(), points.last()) {
        (Some(first), Some(last)) if last.at_ms > first.at_ms => {
            (first.at_ms / MS_PER_S, last.at_ms / MS_PER_S)
        }
        (Some(only), _) => {
            let at = only.at_ms / MS_PER_S;
            (at - LONE_POINT_SPAN_S, at + LONE_POINT_SPAN_S)
        }
        (None, _) => (0.0, 1.0),
    };
    // The axis fits the true speed and nearly all the drawn one: a single pop would
    // otherwise flatten every other frame against the bottom.
    let true_top = points.iter().map(|p| p.true_m_s).fold(0.0, f64::max);
    let drawn: Vec<f64> = points.iter().map(|p| p.drawn_m_s).collect();
    let drawn_p95 = Summary::of(&drawn).map_or(0.0, |s| s.p95);
    let top = (true_top.max(drawn_p95) * (1.0 + HEAD_ROOM)).max(MIN_TOP_M_S);
    let clipped = drawn.iter().any(|&v| v > top);

    let t = &entity.tally;
    let caption = format!(
        "{} {}: off pace {} of {}, pops {}, reversals {}, misplaced {}",
        entity.kind, entity.id, t.off_pace, t.paced, t.pops, t.reversals, t.misplaced
    );
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT_FAMILY, CAPTION_PX))
        .margin(MARGIN_PX)
        .x_label_area_size(X_AXIS_PX)
        .y_label_area_size(Y_AXIS_PX)
        .build_cartesian_2d(first..last, 0.0..top)
        .map_err(drawing)?;
    let y_desc =
        if clipped { format!("speed (m/s), cut at {top:.2}") } else { "speed (m/s)".to_owned() };
    chart
        .configure_mesh()
        .x_desc("time of the frame (s)")
        .y_desc(y_desc)
        .label_style((FONT_FAMILY, LABEL_PX))
        .axis_desc_style((FONT_FAMILY, LABEL_PX))
        .draw()
        .map_err(drawing)?;

    for Curve { label, color, width, value } in CURVES {
        let style = color.stroke_width(width);
        let at = |p: &SpeedPoint| (p.at_ms / MS_PER_S, value(p).min(top));
        // One element per step, not one polyline: plotters joins a thick polyline's segments
        // with mitres, which run far off the chart at a one-frame spike. No step is drawn
        // into or out of a jump, so no line crosses the teleport.
        let steps = entity
            .speeds
            .windows(2)
            .filter(|w| !w[0].jumped && !w[1].jumped)
            .map(|w| PathElement::new(vec![at(&w[0]), at(&w[1])], style));
        chart
            .draw_series(steps)
            .map_err(drawing)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + LEGEND_LINE_PX, y)], style));
    }
    chart
        .configure_series_labels()
        // The axis is fit to the speeds, so lines run high; low on the right is where they
        // least often are.
        .position(SeriesLabelPosition::LowerRight)
        .label_font((FONT_FAMILY, LABEL_PX))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(drawing)?;
    Ok(())
}
