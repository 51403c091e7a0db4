//! Where and how the HUD and its frame-time graph are laid out: sizes in pixels at a
//! 720-pixel-high screen (scaled with the screen's height, [`crate::rects::ui_scale`]),
//! colours as sRGB bytes, and how opaque each backdrop is.

/// Frame times the graph shows, newest at the right.
pub const GRAPH_SAMPLES: usize = 240;

/// Frame time at the top of the graph, milliseconds (20 fps).
pub const GRAPH_MAX_MS: f32 = 50.0;

/// The HUD's text size, pixels: small enough to leave the picture alone, large enough to
/// read at a glance.
pub const HUD_TEXT_PX: f32 = 14.0;

/// The padding round the HUD's text and the graph, pixels.
pub const HUD_PAD_PX: f32 = 8.0;

/// The HUD's text colour: near white, to read on the dark backdrop.
pub const HUD_TEXT_RGB: (u8, u8, u8) = (235, 240, 245);

/// How opaque the black backdrop under the HUD's text is: enough to read white text over a
/// bright sky, not so much that it hides what is behind.
pub const HUD_BACKDROP_ALPHA: f32 = 0.55;

/// The graph's caption size, pixels.
pub const GRAPH_TEXT_PX: f32 = 12.0;

/// The caption's colour: a little dimmer than the HUD's, as it is read less often.
pub const GRAPH_TEXT_RGB: (u8, u8, u8) = (220, 225, 230);

/// Width of one frame's bar in the graph, pixels: 240 samples make a 300-pixel graph, which
/// fits beside the HUD at 1280 pixels wide.
pub const GRAPH_BAR_PX: f32 = 1.25;

/// Height of the graph's bars at their top ([`GRAPH_MAX_MS`]), pixels.
pub const GRAPH_HEIGHT_PX: f32 = 110.0;

/// Room above the bars for the caption, pixels: a caption line and its gap.
pub const GRAPH_CAPTION_ROOM_PX: f32 = 22.0;

/// How far below the backdrop's top edge the caption starts, pixels.
pub const GRAPH_CAPTION_TOP_PX: f32 = 4.0;

/// The backdrop's height past the bars and the caption's room, pixels: a margin below the
/// bars' base.
pub const GRAPH_BOTTOM_MARGIN_PX: f32 = 4.0;

/// How opaque the graph's backdrop is: a little more than the HUD's, as bars of every colour
/// must stand out from the scene.
pub const GRAPH_BACKDROP_ALPHA: f32 = 0.6;

/// How opaque a frame's bar is.
pub const GRAPH_BAR_ALPHA: f32 = 0.9;

/// A frame time the graph draws green up to, milliseconds: a 60 Hz frame (16.7 ms) with a
/// little slack for the clock's jitter.
pub const GRAPH_GREEN_MS: f32 = 17.5;

/// A frame time the graph draws yellow up to (red beyond), milliseconds: a 30 Hz frame
/// (33.3 ms) with the same slack.
pub const GRAPH_YELLOW_MS: f32 = 34.0;

/// Bars of frames on time at 60 Hz, and the 60 Hz guide line.
pub const GRAPH_GREEN_RGB: (u8, u8, u8) = (90, 210, 110);

/// Bars of frames on time at 30 Hz, and the 30 Hz guide line.
pub const GRAPH_YELLOW_RGB: (u8, u8, u8) = (235, 200, 60);

/// Bars of frames slower than 30 Hz.
pub const GRAPH_RED_RGB: (u8, u8, u8) = (230, 70, 60);

/// The guide lines across the graph: a 60 Hz and a 30 Hz frame, milliseconds, each in the
/// colour of the bars on time at that rate.
pub const GRAPH_GUIDES: [(f32, (u8, u8, u8)); 2] =
    [(1000.0 / 60.0, GRAPH_GREEN_RGB), (1000.0 / 30.0, GRAPH_YELLOW_RGB)];

/// How opaque a guide line is: under the bars' own, so bars across it still read.
pub const GRAPH_GUIDE_ALPHA: f32 = 0.7;

/// A dot of the network clock's offset, pixels square (at least 2 on any screen).
pub const CLOCK_DOT_PX: f32 = 2.0;

/// The offset dots' colour: blue, as no bar is, and the caption says.
pub const CLOCK_DOT_RGB: (u8, u8, u8) = (90, 200, 255);

/// How opaque an offset dot is: nearly solid, as a dot is small.
pub const CLOCK_DOT_ALPHA: f32 = 0.95;

/// Minutes in a game's day, for the time of day the HUD shows.
pub const MINUTES_PER_DAY: f32 = 24.0 * 60.0;
