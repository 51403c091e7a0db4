//! The replay viewer's panels: the timeline along the bottom of the window, which shows where
//! the viewer is and seeks where it is clicked or dragged, and the roster above its right end,
//! which picks whom the camera follows (or lets it go free). Both are painted over the frame
//! and hit-tested by the window, as the game's events never reach the menus' widgets.

use fixstep_runtime::{Player, Tick};

/// Where the viewer is in a replay, for the timeline at the bottom of the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// The first tick the replay holds.
    pub first: Tick,
    /// The tick after its last.
    pub end: Tick,
    /// The tick the state shown is at.
    pub at: Tick,
    /// The keyframes' ticks, where a seek is quickest.
    pub keyframes: Vec<Tick>,
    /// Every seat's player's name at the tick shown, by seat: the roster to pick from.
    pub names: Vec<String>,
    /// Whom the camera follows; `None` for the free camera.
    pub following: Option<Player>,
}

impl Timeline {
    /// How far along the match `tick` is, 0 at the first tick and 1 at the end.
    #[must_use]
    pub fn fraction_of(&self, tick: Tick) -> f32 {
        let length = self.end.since(self.first);
        if length <= 0 {
            return 0.0;
        }
        (tick.since(self.first) as f32 / length as f32).clamp(0.0, 1.0)
    }

    /// The tick at `fraction` of the way along (clamped to the match), to the nearest tick.
    #[must_use]
    pub fn tick_at(&self, fraction: f32) -> Tick {
        let length = self.end.since(self.first).max(0) as f32;
        let ticks = (fraction.clamp(0.0, 1.0) * length).round() as u32;
        Tick(self.first.0.saturating_add(ticks).min(self.end.0))
    }
}

/// The timeline's bar's distance from the window's sides and from what it stays clear of at
/// the bottom, pixels: clear of the edge, where a click is easy to miss.
const TIMELINE_MARGIN_PX: f32 = 24.0;

/// The bottom of the window the timeline stays above, a fraction of its height: where a game
/// letterboxes and captions a cutscene (the town's bars are 9 % of the height, with the
/// subtitles in them), which the timeline would otherwise cover.
const TIMELINE_CLEAR_BOTTOM: f32 = 0.09;

/// The timeline bar's height, pixels: thick enough to read across a room.
const TIMELINE_BAR_PX: f32 = 8.0;

/// How far above and below the bar a click still seeks, pixels: a bar 8 pixels high is a
/// small target for a mouse.
const TIMELINE_GRAB_PX: f32 = 14.0;

/// The bar of the timeline in a window of `size` pixels: `[left, top, right, bottom]`, pixels.
#[must_use]
pub fn timeline_bar(size: (u32, u32)) -> [f32; 4] {
    let (w, h) = (size.0 as f32, size.1 as f32);
    let left = TIMELINE_MARGIN_PX.min(w / 2.0);
    let right = (w - TIMELINE_MARGIN_PX).max(left);
    let bottom = (h * (1.0 - TIMELINE_CLEAR_BOTTOM) - TIMELINE_MARGIN_PX).max(0.0);
    [left, (bottom - TIMELINE_BAR_PX).max(0.0), right, bottom]
}

/// How far along the timeline a click at `(x, y)` pixels in a window of `size` is, 0 to 1, if
/// it is on the bar (or near it).
#[must_use]
pub fn timeline_hit(x: f32, y: f32, size: (u32, u32)) -> Option<f32> {
    let [left, top, right, bottom] = timeline_bar(size);
    let near = y >= top - TIMELINE_GRAB_PX && y <= bottom + TIMELINE_GRAB_PX;
    let across = x >= left - TIMELINE_GRAB_PX && x <= right + TIMELINE_GRAB_PX;
    (near && across && right > left).then(|| ((x - left) / (right - left)).clamp(0.0, 1.0))
}

/// Draws `timeline` at the bottom of a window of `size` pixels: the bar filled to where the
/// viewer is, a mark at each keyframe, the match's time on the left and its length on the
/// right.
pub fn draw_timeline(ui: &egui::Ui, timeline: &Timeline, size: (u32, u32)) {
    let ppp = ui.ctx().pixels_per_point();
    let [left, top, right, bottom] = timeline_bar(size).map(|v| v / ppp);
    let bar = egui::Rect::from_min_max(egui::pos2(left, top), egui::pos2(right, bottom));
    let painter = ui.painter();
    let back = bar.expand2(egui::vec2(10.0, 22.0)).translate(egui::vec2(0.0, -12.0));
    painter.rect_filled(back, 6.0, egui::Color32::from_black_alpha(150));
    painter.rect_filled(bar, 3.0, egui::Color32::from_gray(70));
    let x_of = |tick: Tick| bar.left() + timeline.fraction_of(tick) * bar.width();
    let done = egui::Rect::from_min_max(bar.min, egui::pos2(x_of(timeline.at), bar.bottom()));
    painter.rect_filled(done, 3.0, egui::Color32::from_rgb(80, 150, 230));
    for &keyframe in &timeline.keyframes {
        let x = x_of(keyframe);
        let mark = [egui::pos2(x, bar.top() - 6.0), egui::pos2(x, bar.bottom() + 2.0)];
        painter.line_segment(mark, egui::Stroke::new(2.0, egui::Color32::from_rgb(240, 200, 90)));
    }
    painter.circle_filled(egui::pos2(x_of(timeline.at), bar.center().y), 7.0, egui::Color32::WHITE);
    let font = egui::FontId::proportional(14.0);
    let text = egui::Color32::from_gray(230);
    let label_y = bar.top() - 8.0;
    let shown = timeline.at.since(timeline.first).max(0);
    let length = timeline.end.since(timeline.first).max(0);
    let clock = |ticks: i64| fixstep_gpu::match_clock(u32::try_from(ticks).unwrap_or(u32::MAX));
    let (start, end) = (egui::pos2(bar.left(), label_y), egui::pos2(bar.right(), label_y));
    painter.text(start, egui::Align2::LEFT_BOTTOM, clock(shown), font.clone(), text);
    painter.text(end, egui::Align2::RIGHT_BOTTOM, clock(length), font, text);
}

/// What a row of the roster picks: a player to follow, or the free camera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CameraPick {
    /// Follow this player's character.
    Follow(Player),
    /// Let the camera go, moved by the movement keys.
    Free,
}

/// The roster's distance from the window's right edge, pixels: the timeline's margin, so the
/// two line up.
const ROSTER_MARGIN_PX: f32 = TIMELINE_MARGIN_PX;

/// The gap between the roster's last row and the timeline's bar, pixels: clear of the
/// timeline's backdrop and its clock labels above the bar. The HUD's lines run across the
/// top of the window, so the roster stands at the bottom, above the timeline.
const ROSTER_ABOVE_TIMELINE_PX: f32 = 44.0;

/// The roster's width, pixels: a name of twenty letters at the HUD's size.
const ROSTER_WIDTH_PX: f32 = 200.0;

/// A row of the roster, pixels: a line of text and room to click it.
const ROSTER_ROW_PX: f32 = 22.0;

/// The most rows the roster shows: players past it are reached with Tab. A window 720 pixels
/// high holds 24 rows beside the timeline; 16 leaves the picture room.
const ROSTER_MAX_ROWS: usize = 16;

/// The roster's rows for `timeline`: its players, at most [`ROSTER_MAX_ROWS`] less one, then
/// the free camera.
fn roster_rows(timeline: &Timeline) -> impl Iterator<Item = (CameraPick, &str)> {
    let players = Player::all(timeline.names.len()).zip(&timeline.names);
    players
        .take(ROSTER_MAX_ROWS - 1)
        .map(|(player, name)| (CameraPick::Follow(player), name.as_str()))
        .chain(std::iter::once((CameraPick::Free, "free camera (C)")))
}

/// The rectangle of row `row` of `rows` of the roster in a window of `size` pixels: `[left,
/// top, right, bottom]`, pixels.
fn roster_row(row: usize, rows: usize, size: (u32, u32)) -> [f32; 4] {
    let right = (size.0 as f32 - ROSTER_MARGIN_PX).max(0.0);
    let left = (right - ROSTER_WIDTH_PX).max(0.0);
    let bottom = timeline_bar(size)[1] - ROSTER_ABOVE_TIMELINE_PX;
    let top = bottom - (rows - row) as f32 * ROSTER_ROW_PX;
    [left, top, right, top + ROSTER_ROW_PX]
}

/// The row of the roster a click at `(x, y)` pixels in a window of `size` picks, if it is on
/// one.
#[must_use]
pub fn roster_hit(timeline: &Timeline, x: f32, y: f32, size: (u32, u32)) -> Option<CameraPick> {
    let rows = roster_rows(timeline).count();
    roster_rows(timeline).enumerate().find_map(|(row, (pick, _))| {
        let [left, top, right, bottom] = roster_row(row, rows, size);
        (x >= left && x < right && y >= top && y < bottom).then_some(pick)
    })
}

/// Draws the roster at the right of a window of `size` pixels: a row a player, the
/// followed one (or the free camera) lit.
pub fn draw_roster(ui: &egui::Ui, timeline: &Timeline, size: (u32, u32)) {
    let ppp = ui.ctx().pixels_per_point();
    let painter = ui.painter();
    let font = egui::FontId::proportional(14.0);
    let chosen = timeline.following.map_or(CameraPick::Free, CameraPick::Follow);
    let rows = roster_rows(timeline).count();
    for (row, (pick, name)) in roster_rows(timeline).enumerate() {
        let [left, top, right, bottom] = roster_row(row, rows, size).map(|v| v / ppp);
        let rect = egui::Rect::from_min_max(egui::pos2(left, top), egui::pos2(right, bottom));
        let lit = pick == chosen;
        let back = if lit {
            egui::Color32::from_rgba_unmultiplied(80, 150, 230, 210)
        } else {
            egui::Color32::from_black_alpha(150)
        };
        painter.rect_filled(rect.shrink(1.0), 3.0, back);
        let text = egui::pos2(rect.left() + 8.0, rect.center().y);
        painter.text(text, egui::Align2::LEFT_CENTER, name, font.clone(), egui::Color32::WHITE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roster_picks_the_player_or_the_free_camera_clicked() {
        let names = vec!["ada".to_owned(), "bo".to_owned()];
        let timeline = Timeline {
            first: Tick(0),
            end: Tick(10),
            at: Tick(0),
            keyframes: Vec::new(),
            names,
            following: Some(Player::FIRST),
        };
        let size = (1280, 720);
        let [left, top, _, bottom] = roster_row(1, 3, size);
        let on_bo = roster_hit(&timeline, left + 5.0, f32::midpoint(top, bottom), size);
        assert_eq!(on_bo, Some(CameraPick::Follow(Player(1))));
        let [_, top, right, _] = roster_row(2, 3, size);
        assert_eq!(roster_hit(&timeline, right - 1.0, top, size), Some(CameraPick::Free));
        let [_, top, ..] = roster_row(0, 3, size);
        assert_eq!(roster_hit(&timeline, right - 1.0, top - 2.0, size), None, "above the roster");
        assert_eq!(roster_hit(&timeline, right - 1.0, 30.0, size), None, "the HUD's lines");
        let [_, bar_top, ..] = timeline_bar(size);
        let [.., bottom] = roster_row(2, 3, size);
        assert!(bottom < bar_top, "clear of the timeline");
    }

    #[test]
    fn the_timeline_maps_clicks_on_its_bar_to_ticks() {
        let timeline = Timeline {
            first: Tick(0),
            end: Tick(600),
            at: Tick(0),
            keyframes: Vec::new(),
            names: Vec::new(),
            following: None,
        };
        let size = (1280, 720);
        let [left, top, right, _] = timeline_bar(size);
        let middle = f32::midpoint(left, right);
        let fraction = timeline_hit(middle, top + 2.0, size).expect("on the bar");
        assert_eq!(timeline.tick_at(fraction), Tick(300));
        assert_eq!(timeline.tick_at(timeline_hit(left - 5.0, top, size).expect("near")), Tick(0));
        assert_eq!(timeline.tick_at(timeline_hit(right, top, size).expect("end")), Tick(600));
        assert_eq!(timeline_hit(middle, 100.0, size), None, "the middle of the screen");
    }
}
