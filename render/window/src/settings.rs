//! The player's settings: the window, the view, the keys, the sound and the HUD, and what the
//! front screen remembers, kept in `settings.ron` in the platform's config directory
//! ([`default_path`]).
//!
//! The first start writes the defaults there, so a player can find the file and edit it. A
//! file that does not read (not RON, a value out of range, a key bound twice, another
//! version's) never stops the game: [`load_or_create`] says what is wrong in one line naming
//! the file and the line, keeps the file beside as `settings.ron.bad` (nothing the player
//! wrote is lost), and writes the defaults in its place.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use fixstep_present::ControlNames;
use serde::{Deserialize, Serialize};
use winit::keyboard::KeyCode;

/// The settings file's name in the config directory.
pub const SETTINGS_FILE: &str = "settings.ron";

/// The settings format's version: a file of another is replaced by the defaults (and kept
/// beside), since its fields may mean something else.
pub const SETTINGS_VERSION: u32 = 1;

/// The field of view's range, degrees: narrower is a telescope, wider a fish-eye.
pub const FOV_DEGREES: std::ops::RangeInclusive<f32> = 30.0..=120.0;

/// The mouse sensitivity's range, times the default: a tenth to ten times.
pub const MOUSE_SENSITIVITY: std::ops::RangeInclusive<f32> = 0.1..=10.0;

/// The window's size range, pixels a side: from what the HUD still fits in to 8K.
pub const WINDOW_SIDE_PIXELS: std::ops::RangeInclusive<u32> = 320..=7680;

/// Where the settings are kept: `settings.ron` under `fixstep` in the platform's config
/// directory (`~/.config/fixstep` on Linux); `None` where the platform has none.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    dirs::config_dir().map(|dir| dir.join("fixstep").join(SETTINGS_FILE))
}

/// How the window fills the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowMode {
    /// A window with a frame, of the size set.
    #[default]
    Windowed,
    /// A window without a frame over the whole screen (switches instantly).
    Borderless,
    /// The screen's own mode (a resolution change).
    Fullscreen,
}

impl std::fmt::Display for WindowMode {
    /// The mode as the settings screen lists it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Windowed => "Windowed",
            Self::Borderless => "Borderless",
            Self::Fullscreen => "Fullscreen",
        })
    }
}

/// The window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowSettings {
    /// How it fills the screen.
    pub mode: WindowMode,
    /// Its width when windowed, pixels.
    pub width: u32,
    /// Its height when windowed, pixels.
    pub height: u32,
    /// Whether frames wait for the screen's refresh (no tearing, a frame more of latency).
    pub vsync: bool,
}

impl Default for WindowSettings {
    fn default() -> Self {
        Self { mode: WindowMode::Windowed, width: 1280, height: 720, vsync: true }
    }
}

/// The view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSettings {
    /// The vertical field of view, degrees.
    pub fov_degrees: f32,
    /// How far the mouse turns the character, times the default.
    pub mouse_sensitivity: f32,
    /// Moving the mouse right turns left.
    pub invert_mouse: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        // The renderers' own default, 55°.
        Self { fov_degrees: 55.0, mouse_sensitivity: 1.0, invert_mouse: false }
    }
}

/// The sound's volumes, per cent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Volumes {
    /// Everything.
    pub master: u8,
    /// Footsteps, doors, engines, clicks.
    pub effects: u8,
    /// The fountain, the wind, the town's hum.
    pub ambience: u8,
}

impl Default for Volumes {
    fn default() -> Self {
        Self { master: 80, effects: 100, ambience: 70 }
    }
}

/// How this player reaches friends on other networks, and they it (see
/// `fixstep_net::rendezvous`): asked of the front screen's host and join forms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NetworkSettings {
    /// The rendezvous join codes are listed and looked up at, `HOST:PORT`; empty: none, so a
    /// host lists no code and a code cannot be joined.
    pub rendezvous: String,
    /// The STUN servers asked where the internet sees this machine, `HOST:PORT` each.
    pub stun: Vec<String>,
    /// The TURN relay a host takes an address on for friends nothing direct reaches,
    /// `turn:HOST:PORT`; empty: none.
    pub turn: String,
    /// The relay's user name.
    pub turn_user: String,
    /// The relay's password.
    pub turn_password: String,
    /// Whether a host asks its router to forward its port (UPnP, NAT-PMP).
    pub port_mapping: bool,
}

impl Default for NetworkSettings {
    fn default() -> Self {
        Self {
            rendezvous: String::new(),
            stun: fixstep_net::stun::DEFAULT_STUN_SERVERS.map(str::to_owned).to_vec(),
            turn: String::new(),
            turn_user: String::new(),
            turn_password: String::new(),
            port_mapping: true,
        }
    }
}

/// The most STUN servers the settings name: more are no more use, as one answer is enough.
pub const MAX_STUN_SERVERS: usize = 8;

/// The longest address or credential the network settings hold, bytes: a domain name's
/// longest (253) with a scheme and a port, with room to spare.
pub const MAX_NETWORK_FIELD_BYTES: usize = 300;

impl NetworkSettings {
    /// What is out of range, if anything is.
    fn invalid(&self) -> Option<String> {
        if self.stun.len() > MAX_STUN_SERVERS {
            return Some(format!(
                "network stun names {} servers, at most {MAX_STUN_SERVERS}",
                self.stun.len()
            ));
        }
        let fields = [
            ("rendezvous", &self.rendezvous),
            ("turn", &self.turn),
            ("turn_user", &self.turn_user),
            ("turn_password", &self.turn_password),
        ];
        let long = fields
            .into_iter()
            .chain(self.stun.iter().map(|s| ("stun", s)))
            .find(|(_, text)| text.len() > MAX_NETWORK_FIELD_BYTES);
        long.map(|(name, text)| {
            format!("network {name} is {} bytes, at most {MAX_NETWORK_FIELD_BYTES}", text.len())
        })
    }
}

/// What the front screen remembers of the last game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Remembered {
    /// The player's name.
    pub name: String,
    /// The last host joined, `HOST:PORT`.
    pub address: String,
}

/// The name of a key as a player reads it: `W`, `ArrowUp`, `ShiftLeft`, `F3`.
#[must_use]
pub fn key_name(key: KeyCode) -> String {
    let name = format!("{key:?}");
    name.strip_prefix("Key")
        .or_else(|| name.strip_prefix("Digit"))
        .map_or_else(|| name.clone(), str::to_owned)
}

/// A key as a help line names it: short, as printed on keyboards (`Esc`), and a modifier
/// without its side (`Shift`, not `ShiftLeft`).
#[must_use]
pub fn short_key_name(key: KeyCode) -> String {
    if key == KeyCode::Escape {
        return "Esc".to_owned();
    }
    let name = key_name(key);
    ["Shift", "Control", "Alt", "Super"]
        .into_iter()
        .find(|modifier| name == format!("{modifier}Left") || name == format!("{modifier}Right"))
        .map_or(name, str::to_owned)
}

/// What a key does in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Walk forward.
    Forward,
    /// Walk back.
    Back,
    /// Step left.
    Left,
    /// Step right.
    Right,
    /// Turn left.
    TurnLeft,
    /// Turn right.
    TurnRight,
    /// Run while held.
    Run,
    /// Talk, open, call (once per press).
    Interact,
    /// Let the mouse go; open the menu.
    Menu,
    /// Show or hide the frame-time graph.
    FrameGraph,
}

impl Action {
    /// Every action, in the settings screen's order.
    pub const ALL: [Self; 10] = [
        Self::Forward,
        Self::Back,
        Self::Left,
        Self::Right,
        Self::TurnLeft,
        Self::TurnRight,
        Self::Run,
        Self::Interact,
        Self::Menu,
        Self::FrameGraph,
    ];

    /// Its name on the settings screen of a game that calls its controls `names`; `None` if
    /// the game has no use for it (the arena does not run or turn), and the screen leaves it
    /// out.
    #[must_use]
    pub const fn named(self, names: &ControlNames) -> Option<&'static str> {
        let [forward, back, left, right] = names.directions;
        match self {
            Self::Forward => Some(forward),
            Self::Back => Some(back),
            Self::Left => Some(left),
            Self::Right => Some(right),
            Self::TurnLeft => match names.turning {
                Some([turn_left, _]) => Some(turn_left),
                None => None,
            },
            Self::TurnRight => match names.turning {
                Some([_, turn_right]) => Some(turn_right),
                None => None,
            },
            Self::Run => names.run,
            Self::Interact => names.action,
            Self::Menu | Self::FrameGraph => Some(self.label()),
        }
    }

    /// Its name on the settings screen, whatever the game.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Forward => "Forward",
            Self::Back => "Back",
            Self::Left => "Step left",
            Self::Right => "Step right",
            Self::TurnLeft => "Turn left",
            Self::TurnRight => "Turn right",
            Self::Run => "Run",
            Self::Interact => "Interact",
            Self::Menu => "Menu",
            Self::FrameGraph => "Frame times",
        }
    }
}

/// A key taken by another action: binding it would make one key do two things. Shown, it
/// names the action whatever the game (a settings file's problem, read before any game is
/// chosen); [`in_words`](Self::in_words) names it as a game does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.said(self.taken_by.label()))]
pub struct KeyTaken {
    /// The key.
    pub key: KeyCode,
    /// The action it does.
    pub taken_by: Action,
}

impl KeyTaken {
    /// What the settings screen of a game that calls its controls `names` says of it: the
    /// key, and the action that has it under the game's name (`W already does North`), or
    /// under its name whatever the game if the game has no use for the action.
    #[must_use]
    pub fn in_words(self, names: &ControlNames) -> String {
        self.said(self.taken_by.named(names).unwrap_or(self.taken_by.label()))
    }

    /// The words, with the action called `action`: one sentence for the settings file and
    /// the settings screen alike.
    fn said(self, action: &str) -> String {
        format!("{} already does {action}", key_name(self.key))
    }
}

/// The keys of each action (one or two each: a main key and another). A file that names
/// only some actions keeps the defaults of the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct KeyBindings(BTreeMap<Action, Vec<KeyCode>>);

impl<'de> Deserialize<'de> for KeyBindings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given = BTreeMap::<Action, Vec<KeyCode>>::deserialize(deserializer)?;
        let mut keys = Self::default();
        keys.0.extend(given);
        Ok(keys)
    }
}

impl Default for KeyBindings {
    fn default() -> Self {
        use KeyCode as K;
        let keys: [(Action, &[KeyCode]); 10] = [
            (Action::Forward, &[K::KeyW, K::ArrowUp]),
            (Action::Back, &[K::KeyS, K::ArrowDown]),
            (Action::Left, &[K::KeyA]),
            (Action::Right, &[K::KeyD]),
            (Action::TurnLeft, &[K::KeyQ, K::ArrowLeft]),
            (Action::TurnRight, &[K::KeyE, K::ArrowRight]),
            (Action::Run, &[K::ShiftLeft, K::ShiftRight]),
            (Action::Interact, &[K::KeyF]),
            (Action::Menu, &[K::Escape]),
            (Action::FrameGraph, &[K::F3]),
        ];
        Self(keys.into_iter().map(|(action, keys)| (action, keys.to_vec())).collect())
    }
}

impl KeyBindings {
    /// The action `key` does, if any.
    #[must_use]
    pub fn action_of(&self, key: KeyCode) -> Option<Action> {
        self.0.iter().find(|(_, keys)| keys.contains(&key)).map(|(action, _)| *action)
    }

    /// The keys of `action`.
    #[must_use]
    pub fn keys_of(&self, action: Action) -> &[KeyCode] {
        self.0.get(&action).map_or(&[], Vec::as_slice)
    }

    /// What the keys bound now do in a game that calls its controls `names`, as its help line
    /// says it: `WASD move, Shift run, Q/E turn, F interact`. A control with no key is left
    /// out.
    #[must_use]
    pub fn help_line(&self, names: &ControlNames) -> String {
        let main = |action| self.keys_of(action).first().map(|k| short_key_name(*k));
        let mut parts = Vec::new();
        let moves: Option<Vec<String>> =
            [Action::Forward, Action::Left, Action::Back, Action::Right]
                .into_iter()
                .map(main)
                .collect();
        if let Some(moves) = moves {
            // Four letters read as one word (WASD); longer names need their slashes.
            let joiner = if moves.iter().all(|m| m.chars().count() == 1) { "" } else { "/" };
            parts.push(format!("{} {}", moves.join(joiner), names.moving));
        }
        if let (Some(run), Some(key)) = (names.run, main(Action::Run)) {
            parts.push(format!("{key} {}", run.to_lowercase()));
        }
        if names.turning.is_some()
            && let (Some(left), Some(right)) = (main(Action::TurnLeft), main(Action::TurnRight))
        {
            parts.push(format!("{left}/{right} turn"));
        }
        if let (Some(action), Some(key)) = (names.action, main(Action::Interact)) {
            parts.push(format!("{key} {}", action.to_lowercase()));
        }
        parts.join(", ")
    }

    /// Makes `key` the `slot`th key of `action` (0: the main key; past the last: one more).
    ///
    /// # Errors
    ///
    /// If another action has the key: the player frees it there first.
    pub fn bind(&mut self, action: Action, slot: usize, key: KeyCode) -> Result<(), KeyTaken> {
        if let Some(taken_by) = self.action_of(key).filter(|a| *a != action) {
            return Err(KeyTaken { key, taken_by });
        }
        let keys = self.0.entry(action).or_default();
        keys.retain(|k| *k != key);
        match keys.get_mut(slot) {
            Some(at) => *at = key,
            None => keys.push(key),
        }
        Ok(())
    }

    /// A key bound to two actions, if any (a hand-edited file's mistake).
    fn conflict(&self) -> Option<KeyTaken> {
        let mut seen: BTreeMap<String, Action> = BTreeMap::new();
        for (action, keys) in &self.0 {
            for key in keys {
                if let Some(first) = seen.insert(format!("{key:?}"), *action)
                    && first != *action
                {
                    return Some(KeyTaken { key: *key, taken_by: first });
                }
            }
        }
        None
    }
}

/// Everything the player sets; see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The format's version ([`SETTINGS_VERSION`]).
    pub version: u32,
    /// The window.
    pub window: WindowSettings,
    /// The view.
    pub view: ViewSettings,
    /// The keys.
    pub keys: KeyBindings,
    /// The sound.
    pub volume: Volumes,
    /// Whether the HUD is drawn.
    pub hud: bool,
    /// What the front screen remembers.
    pub remembered: Remembered,
    /// Reaching friends on other networks.
    pub network: NetworkSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            version: SETTINGS_VERSION,
            window: WindowSettings::default(),
            view: ViewSettings::default(),
            keys: KeyBindings::default(),
            volume: Volumes::default(),
            hud: true,
            remembered: Remembered::default(),
            network: NetworkSettings::default(),
        }
    }
}

/// What loading the settings came to.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    /// The settings to play with.
    pub settings: Settings,
    /// What was wrong, in one line naming the file, if anything was: say it once.
    pub warning: Option<String>,
}

impl Settings {
    /// What is out of range, if anything is.
    fn invalid(&self) -> Option<String> {
        if self.version != SETTINGS_VERSION {
            return Some(format!("version {} is not this game's {SETTINGS_VERSION}", self.version));
        }
        let w = &self.window;
        if !WINDOW_SIDE_PIXELS.contains(&w.width) || !WINDOW_SIDE_PIXELS.contains(&w.height) {
            return Some(format!(
                "window {}x{} is outside {} to {} pixels a side",
                w.width,
                w.height,
                WINDOW_SIDE_PIXELS.start(),
                WINDOW_SIDE_PIXELS.end()
            ));
        }
        if !FOV_DEGREES.contains(&self.view.fov_degrees) {
            return Some(format!(
                "fov_degrees {} is outside {} to {} degrees",
                self.view.fov_degrees,
                FOV_DEGREES.start(),
                FOV_DEGREES.end()
            ));
        }
        if !MOUSE_SENSITIVITY.contains(&self.view.mouse_sensitivity) {
            return Some(format!(
                "mouse_sensitivity {} is outside {} to {}",
                self.view.mouse_sensitivity,
                MOUSE_SENSITIVITY.start(),
                MOUSE_SENSITIVITY.end()
            ));
        }
        let v = &self.volume;
        if let Some((name, percent)) =
            [("master", v.master), ("effects", v.effects), ("ambience", v.ambience)]
                .into_iter()
                .find(|(_, p)| *p > 100)
        {
            return Some(format!("volume {name} {percent} is over 100 per cent"));
        }
        if let Some(problem) = self.network.invalid() {
            return Some(problem);
        }
        self.keys.conflict().map(|c| format!("a key is bound to two actions: {c}"))
    }

    /// The settings as their file holds them.
    ///
    /// # Errors
    ///
    /// If they do not serialize (a bug).
    pub fn to_ron(&self) -> Result<String, ron::Error> {
        let config = ron::ser::PrettyConfig::new().struct_names(false).compact_arrays(true);
        ron::ser::to_string_pretty(self, config)
    }

    /// Writes the settings to `path` (its folder made if need be), whole or not at all: a
    /// crash mid-write leaves the old file.
    ///
    /// # Errors
    ///
    /// If the folder or the file cannot be written.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let text = self.to_ron().map_err(io::Error::other)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let fresh = path.with_extension("ron.new");
        std::fs::write(&fresh, text + "\n")?;
        std::fs::rename(&fresh, path)
    }
}

/// The settings a settings file's `text` holds, or what is wrong with them in words (the
/// line and column of a RON error, or the value out of range): what [`load_or_create`] reads
/// once it has the file's text.
///
/// # Errors
///
/// Text that is not settings in RON, or settings that are out of range, of another version,
/// or bind a key twice.
pub fn parse(text: &str) -> Result<Settings, String> {
    match ron::from_str::<Settings>(text) {
        Ok(settings) => settings.invalid().map_or(Ok(settings), Err),
        Err(e) => {
            Err(format!("line {}, column {}: {}", e.span.start.line, e.span.start.col, e.code))
        }
    }
}

/// The settings file: the defaults are 1 kB; a thousand times that is no settings file.
pub const SETTINGS_KIND: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("settings file", 1_000_000);

/// The settings in `path`; see the [module documentation](self) for a file that is missing
/// or does not read.
#[must_use]
pub fn load_or_create(path: &Path) -> Loaded {
    use fixstep_runtime::file::ReadError;
    let shown = path.display();
    let problem = match fixstep_runtime::file::read_text(path, SETTINGS_KIND) {
        Ok(text) => match parse(&text) {
            Ok(settings) => return Loaded { settings, warning: None },
            Err(problem) => problem,
        },
        Err(e) if e.is_not_found() => {
            let settings = Settings::default();
            let warning = settings
                .save(path)
                .err()
                .map(|e| format!("cannot write the default settings to {shown}: {e}"));
            return Loaded { settings, warning };
        }
        // A file that is there but is no settings file (not text, far too long) is kept aside
        // and replaced, as one whose text does not read.
        Err(e @ (ReadError::NotText { .. } | ReadError::TooLarge { .. })) => e.reason(),
        Err(e) => {
            let warning = Some(format!("{}; playing with the defaults", e.with_causes()));
            return Loaded { settings: Settings::default(), warning };
        }
    };
    let kept = path.with_extension("ron.bad");
    let settings = Settings::default();
    let replaced = std::fs::rename(path, &kept).and_then(|()| settings.save(path));
    let outcome = match replaced {
        Ok(()) => format!("kept as {} and replaced by the defaults", kept.display()),
        Err(e) => format!("playing with the defaults (cannot replace it: {e})"),
    };
    Loaded { settings, warning: Some(format!("{shown}: {problem}; {outcome}")) }
}

/// A game's own names for its controls, for the tests of the settings and their screen: a
/// skater's, who only steers (forward is north) and dashes.
#[cfg(test)]
pub(crate) const SKATER: ControlNames = ControlNames {
    moving: "skate",
    directions: ["North", "South", "West", "East"],
    turning: None,
    run: None,
    action: Some("Dash"),
};

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fixstep-settings-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("nested").join(SETTINGS_FILE)
    }

    /// A file that is not UTF-8 text is a settings file that does not read: kept beside as
    /// `settings.ron.bad`, byte for byte, and replaced by the defaults (`docs/PLAYING.md`).
    #[test]
    fn a_file_that_is_not_text_is_kept_aside_and_replaced() {
        let path = scratch("not-text");
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("scratch");
        let garbage = [0xff_u8, 0xfe, b'(', 0x80, b')'];
        std::fs::write(&path, garbage).expect("written");
        let loaded = load_or_create(&path);
        assert_eq!(loaded.settings, Settings::default());
        let warning = loaded.warning.expect("a warning");
        assert!(warning.contains("not UTF-8 text"), "{warning}");
        assert!(warning.contains("kept as"), "{warning}");
        let kept = std::fs::read(path.with_extension("ron.bad")).expect("kept");
        assert_eq!(kept, garbage, "kept as it was");
        assert_eq!(load_or_create(&path), Loaded { settings: Settings::default(), warning: None });
    }

    #[test]
    fn the_first_start_writes_the_defaults_which_read_back_the_same() {
        let path = scratch("first");
        let first = load_or_create(&path);
        assert_eq!(first, Loaded { settings: Settings::default(), warning: None });
        assert!(path.is_file(), "the defaults are written for the player to find");
        assert_eq!(load_or_create(&path), first);
    }

    #[test]
    fn changed_settings_round_trip_through_the_file() {
        let path = scratch("round-trip");
        let mut settings = Settings {
            window: WindowSettings {
                mode: WindowMode::Borderless,
                width: 1920,
                height: 1080,
                vsync: false,
            },
            view: ViewSettings { fov_degrees: 75.5, mouse_sensitivity: 2.25, invert_mouse: true },
            volume: Volumes { master: 0, effects: 55, ambience: 100 },
            hud: false,
            remembered: Remembered { name: "ada".into(), address: "10.0.0.7:7465".into() },
            ..Settings::default()
        };
        settings.keys.bind(Action::Interact, 0, KeyCode::KeyG).expect("G is free");
        settings.save(&path).expect("written");
        assert_eq!(load_or_create(&path), Loaded { settings, warning: None });
    }

    #[test]
    fn a_corrupt_file_is_named_with_its_line_kept_aside_and_replaced_by_the_defaults() {
        let path = scratch("corrupt");
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("made");
        let garbage = "(\n  version: 1,\n  window: (width: \"wide\"),\n)\n";
        std::fs::write(&path, garbage).expect("written");
        let loaded = load_or_create(&path);
        assert_eq!(loaded.settings, Settings::default());
        let warning = loaded.warning.expect("it says what is wrong");
        assert!(warning.contains(&path.display().to_string()), "{warning}");
        assert!(warning.contains("line 3"), "{warning}");
        assert!(!warning.contains('\n'), "one line: {warning}");
        let kept = std::fs::read_to_string(path.with_extension("ron.bad")).expect("kept");
        assert_eq!(kept, garbage, "nothing the player wrote is lost");
        assert_eq!(load_or_create(&path).warning, None, "the defaults were written in its place");
    }

    #[test]
    fn values_out_of_range_another_version_and_a_key_bound_twice_are_refused() {
        for (name, edit) in [
            ("fov", "view: (fov_degrees: 500.0)"),
            ("volume", "volume: (master: 180)"),
            ("version", "version: 99"),
            ("window", "window: (width: 10)"),
            ("keys", "keys: { Forward: [KeyW], Back: [KeyW] }"),
            (
                "stun",
                "network: (stun: [\"a:1\",\"a:1\",\"a:1\",\"a:1\",\"a:1\",\"a:1\",\"a:1\",\"a:1\",\"a:1\"])",
            ),
        ] {
            let path = scratch(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("made");
            std::fs::write(&path, format!("(version: 1, {edit})")).expect("written");
            let loaded = load_or_create(&path);
            assert_eq!(loaded.settings, Settings::default(), "{name}");
            assert!(loaded.warning.is_some_and(|w| w.contains("replaced")), "{name}");
        }
    }

    /// The network settings read back as written, and a file written before they were reads
    /// with their defaults: public STUN servers, port mapping on, no rendezvous or relay.
    #[test]
    fn network_settings_read_back_and_default_when_missing() {
        let old: Settings = ron::from_str("(version: 1, hud: false)").expect("reads");
        assert_eq!(old.network, NetworkSettings::default());
        assert!(old.network.port_mapping && old.network.rendezvous.is_empty());
        assert_eq!(old.network.stun.len(), fixstep_net::stun::DEFAULT_STUN_SERVERS.len());
        let text = "(version: 1, network: (rendezvous: \"rv.example.net:7480\", stun: [], \
                    turn: \"turn:relay.example.net\", turn_user: \"u\", turn_password: \"p\", \
                    port_mapping: false))";
        let settings = parse(text).expect("reads");
        assert_eq!(settings.network.rendezvous, "rv.example.net:7480");
        assert!(settings.network.stun.is_empty() && !settings.network.port_mapping);
        assert_eq!(parse(&settings.to_ron().expect("writes")), Ok(settings));
        let long = format!("(version: 1, network: (turn_password: \"{}\"))", "x".repeat(400));
        let refused = parse(&long).expect_err("too long");
        assert!(refused.contains("turn_password is 400 bytes"), "{refused}");
    }

    /// A key bound twice is said in a player's words: the key's name and the action that has
    /// it, never Rust's form of the value (`KeyTaken { key: KeyW, .. }`).
    #[test]
    fn a_key_bound_twice_is_said_in_words() {
        let settings: Settings =
            ron::from_str("(keys: { Forward: [KeyW], Back: [KeyW] })").expect("reads");
        let said = settings.invalid().expect("refused");
        assert!(said.starts_with("a key is bound to two actions: W already does "), "{said}");
        assert!(!said.contains('{') && !said.contains("KeyW"), "{said}");
    }

    #[test]
    fn a_file_that_names_some_actions_keeps_the_others_defaults() {
        let settings: Settings = ron::from_str("(keys: { Forward: [KeyI] })").expect("reads");
        assert_eq!(settings.keys.keys_of(Action::Forward), [KeyCode::KeyI]);
        assert_eq!(settings.keys.keys_of(Action::Back), [KeyCode::KeyS, KeyCode::ArrowDown]);
        assert_eq!(settings.invalid(), None);
    }

    #[test]
    fn a_key_another_action_has_is_refused_and_a_free_one_rebinds() {
        let mut keys = KeyBindings::default();
        assert_eq!(
            keys.bind(Action::Interact, 0, KeyCode::KeyW),
            Err(KeyTaken { key: KeyCode::KeyW, taken_by: Action::Forward })
        );
        assert_eq!(keys.action_of(KeyCode::KeyF), Some(Action::Interact), "unchanged");
        keys.bind(Action::Interact, 0, KeyCode::KeyG).expect("G is free");
        assert_eq!(keys.action_of(KeyCode::KeyG), Some(Action::Interact));
        assert_eq!(keys.action_of(KeyCode::KeyF), None, "the old key is free");
        keys.bind(Action::Forward, 1, KeyCode::KeyI).expect("I is free");
        assert_eq!(keys.keys_of(Action::Forward), [KeyCode::KeyW, KeyCode::KeyI]);
    }

    #[test]
    fn a_taken_key_is_said_with_the_action_as_the_game_calls_it() {
        let mut keys = KeyBindings::default();
        let taken = keys.bind(Action::Interact, 0, KeyCode::KeyW).expect_err("W moves forward");
        assert_eq!(taken.in_words(&SKATER), "W already does North");
        assert_eq!(taken.to_string(), "W already does Forward", "with no game, the own name");
        // An action the game has no use for keeps its own name.
        let taken = keys.bind(Action::Interact, 0, KeyCode::KeyQ).expect_err("Q turns left");
        assert_eq!(taken.in_words(&SKATER), "Q already does Turn left");
    }
}
