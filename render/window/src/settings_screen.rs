//! The settings screen, from the front screen and from the pause menu: it edits the
//! [`Settings`] in place, and the window applies each change at once (the window's mode and
//! size, vsync, the field of view, the mouse, the keys, the volumes, the HUD). A key is
//! rebound by clicking its button and pressing the new key; a key another action has is
//! refused, with the action named, and Esc gives up. Its keys are the game's: each action
//! under the name the game gives it, and only those the game has a use for.

use fixstep_present::ControlNames;
use winit::keyboard::KeyCode;

use crate::settings::{Action, FOV_DEGREES, MOUSE_SENSITIVITY, Settings, WindowMode, key_name};

/// Window sizes offered, pixels: the common 16:9 sizes from 720p to 4K.
const SIZES: [(u32, u32); 5] = [(1280, 720), (1600, 900), (1920, 1080), (2560, 1440), (3840, 2160)];

/// Width of the settings' column, points: two columns of labels and controls.
const COLUMN_POINTS: f32 = 520.0;

/// The settings screen's own state: which key is being rebound, and what was refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsScreen {
    rebinding: Option<(Action, usize)>,
    problem: Option<String>,
    /// The STUN servers' line as typed (a trailing comma and all), while it is edited.
    stun_draft: Option<String>,
}

impl SettingsScreen {
    /// The key of `action` in `slot` (0: main, 1: other) takes the next key pressed.
    pub fn rebind(&mut self, action: Action, slot: usize) {
        self.rebinding = Some((action, slot));
        self.problem = None;
    }

    /// Which key waits for a press, if one does: the window hands it the next key.
    #[must_use]
    pub const fn rebinding(&self) -> Option<(Action, usize)> {
        self.rebinding
    }

    /// What the last rebinding was refused for, if it was.
    #[must_use]
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// A key was pressed while a key waits: binds it, or refuses it if another action has
    /// it, naming that action as the game `names` it; Esc gives up. Returns whether the key
    /// was taken (not for the menus).
    pub fn key(&mut self, settings: &mut Settings, key: KeyCode, names: &ControlNames) -> bool {
        let Some((action, slot)) = self.rebinding else { return false };
        if key == KeyCode::Escape {
            self.rebinding = None;
            return true;
        }
        match settings.keys.bind(action, slot, key) {
            Ok(()) => {
                self.rebinding = None;
                self.problem = None;
            }
            // Still waiting: the player presses another key, or Esc.
            Err(taken) => {
                let taken = taken.in_words(names);
                self.problem = Some(format!("{taken}: pick another key, or Esc"));
            }
        }
        true
    }
}

/// Lays out the settings screen over `settings` (changed in place), with the keys of a game
/// that calls its controls `names`, and says whether Back was pressed.
pub fn settings_screen(
    ui: &mut egui::Ui,
    screen: &mut SettingsScreen,
    settings: &mut Settings,
    names: &ControlNames,
) -> bool {
    let mut back = false;
    egui::CentralPanel::default().show(ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.set_max_width(COLUMN_POINTS);
            ui.heading("Settings");
            ui.add_space(8.0);
            egui::ScrollArea::vertical().show(ui, |ui| {
                egui::Grid::new("settings").num_columns(2).spacing([16.0, 8.0]).show(ui, |ui| {
                    window_rows(ui, settings);
                    view_rows(ui, settings);
                    volume_rows(ui, settings);
                    ui.label("HUD");
                    ui.checkbox(&mut settings.hud, "shown");
                    ui.end_row();
                    network_rows(ui, screen, settings);
                    key_rows(ui, screen, settings, names);
                });
            });
            if let Some(problem) = screen.problem() {
                ui.colored_label(egui::Color32::from_rgb(230, 110, 90), problem);
            }
            ui.add_space(8.0);
            if ui.button("Back").clicked() {
                back = true;
            }
        });
    });
    back
}

fn window_rows(ui: &mut egui::Ui, settings: &mut Settings) {
    let window = &mut settings.window;
    ui.label("Window");
    egui::ComboBox::from_id_salt("mode").selected_text(window.mode.to_string()).show_ui(ui, |ui| {
        for mode in [WindowMode::Windowed, WindowMode::Borderless, WindowMode::Fullscreen] {
            ui.selectable_value(&mut window.mode, mode, mode.to_string());
        }
    });
    ui.end_row();
    ui.label("Size (windowed)");
    egui::ComboBox::from_id_salt("size")
        .selected_text(format!("{}x{}", window.width, window.height))
        .show_ui(ui, |ui| {
            for (w, h) in SIZES {
                let chosen = (window.width, window.height) == (w, h);
                if ui.selectable_label(chosen, format!("{w}x{h}")).clicked() {
                    (window.width, window.height) = (w, h);
                }
            }
        });
    ui.end_row();
    ui.label("Vsync");
    ui.checkbox(&mut window.vsync, "wait for the screen (no tearing)");
    ui.end_row();
}

fn view_rows(ui: &mut egui::Ui, settings: &mut Settings) {
    let view = &mut settings.view;
    ui.label("Field of view");
    ui.add(egui::Slider::new(&mut view.fov_degrees, FOV_DEGREES).suffix("°").integer());
    ui.end_row();
    ui.label("Mouse sensitivity");
    ui.add(egui::Slider::new(&mut view.mouse_sensitivity, MOUSE_SENSITIVITY).logarithmic(true));
    ui.end_row();
    ui.label("Mouse");
    ui.checkbox(&mut view.invert_mouse, "inverted");
    ui.end_row();
}

fn volume_rows(ui: &mut egui::Ui, settings: &mut Settings) {
    let volume = &mut settings.volume;
    for (label, value) in [
        ("Master volume", &mut volume.master),
        ("Effects", &mut volume.effects),
        ("Ambience", &mut volume.ambience),
    ] {
        ui.label(label);
        ui.add(egui::Slider::new(value, 0..=100).suffix(" %"));
        ui.end_row();
    }
}

/// How friends on other networks are reached: the rendezvous for join codes, the STUN
/// servers (one line, separated by commas), the relay and its credentials, port mapping.
fn network_rows(ui: &mut egui::Ui, screen: &mut SettingsScreen, settings: &mut Settings) {
    let network = &mut settings.network;
    let line = |ui: &mut egui::Ui, label: &str, value: &mut String, secret: bool| {
        ui.label(label);
        let mut text = value.clone();
        let edit = egui::TextEdit::singleline(&mut text).password(secret);
        if ui.add(edit).changed() {
            text.truncate(crate::settings::MAX_NETWORK_FIELD_BYTES);
            *value = text;
        }
        ui.end_row();
    };
    line(ui, "Rendezvous (join codes)", &mut network.rendezvous, false);
    let mut stun = screen.stun_draft.clone().unwrap_or_else(|| network.stun.join(", "));
    line(ui, "STUN servers (HOST:PORT, ...)", &mut stun, false);
    network.stun = stun
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(crate::settings::MAX_STUN_SERVERS)
        .map(str::to_owned)
        .collect();
    screen.stun_draft = Some(stun);
    line(ui, "TURN relay (hosting)", &mut network.turn, false);
    line(ui, "TURN user", &mut network.turn_user, false);
    line(ui, "TURN password", &mut network.turn_password, true);
    ui.label("Router");
    ui.checkbox(&mut network.port_mapping, "asked to forward the host's port");
    ui.end_row();
}

fn key_rows(
    ui: &mut egui::Ui,
    screen: &mut SettingsScreen,
    settings: &Settings,
    names: &ControlNames,
) {
    for action in Action::ALL {
        let Some(name) = action.named(names) else { continue };
        ui.label(name);
        ui.horizontal(|ui| {
            let keys = settings.keys.keys_of(action);
            for slot in 0..2 {
                let text = if screen.rebinding() == Some((action, slot)) {
                    "press a key…".to_owned()
                } else {
                    keys.get(slot).map_or_else(|| "—".to_owned(), |k| key_name(*k))
                };
                if ui.add_sized([110.0, 22.0], egui::Button::new(text)).clicked() {
                    screen.rebind(action, slot);
                }
            }
        });
        ui.end_row();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::SKATER;

    /// A game whose player walks, runs, turns and interacts.
    const WALKER: ControlNames = ControlNames {
        moving: "move",
        directions: ["Forward", "Back", "Step left", "Step right"],
        turning: Some(["Turn left", "Turn right"]),
        run: Some("Run"),
        action: Some("Interact"),
    };

    #[test]
    fn a_taken_key_is_refused_naming_the_action_as_the_game_calls_it() {
        let mut settings = Settings::default();
        let mut screen = SettingsScreen::default();
        screen.rebind(Action::Forward, 0);
        assert!(screen.key(&mut settings, KeyCode::KeyF, &SKATER));
        assert_eq!(screen.problem(), Some("F already does Dash: pick another key, or Esc"));
        assert!(screen.key(&mut settings, KeyCode::KeyA, &SKATER));
        assert_eq!(screen.problem(), Some("A already does West: pick another key, or Esc"));
    }

    #[test]
    fn a_game_lists_the_actions_it_uses_under_its_own_names() {
        let listed = |names| -> Vec<&str> {
            Action::ALL.into_iter().filter_map(|action| action.named(names)).collect()
        };
        assert_eq!(
            listed(&SKATER),
            ["North", "South", "West", "East", "Dash", "Menu", "Frame times"],
            "no run, no turning"
        );
        assert_eq!(listed(&WALKER).len(), Action::ALL.len(), "every action");
    }

    #[test]
    fn the_help_line_names_the_keys_bound_now() {
        let mut settings = Settings::default();
        assert_eq!(settings.keys.help_line(&WALKER), "WASD move, Shift run, Q/E turn, F interact");
        assert_eq!(settings.keys.help_line(&SKATER), "WASD skate, F dash");
        settings.keys.bind(Action::Forward, 0, KeyCode::KeyI).expect("I is free");
        settings.keys.bind(Action::Interact, 0, KeyCode::Space).expect("Space is free");
        assert_eq!(settings.keys.help_line(&SKATER), "IASD skate, Space dash");
        settings.keys.bind(Action::Left, 0, KeyCode::Numpad4).expect("Numpad4 is free");
        settings.keys.bind(Action::TurnLeft, 0, KeyCode::KeyJ).expect("J is free");
        assert_eq!(
            settings.keys.help_line(&WALKER),
            "I/Numpad4/S/D move, Shift run, J/E turn, Space interact"
        );
    }

    #[test]
    fn a_key_another_action_has_is_refused_and_the_next_free_key_binds() {
        let mut settings = Settings::default();
        let mut screen = SettingsScreen::default();
        assert!(
            !screen.key(&mut settings, KeyCode::KeyZ, &WALKER),
            "no key waits: the menus have it"
        );
        screen.rebind(Action::Forward, 0);
        assert!(screen.key(&mut settings, KeyCode::KeyS, &WALKER));
        assert_eq!(screen.problem(), Some("S already does Back: pick another key, or Esc"));
        assert_eq!(screen.rebinding(), Some((Action::Forward, 0)), "still waiting");
        assert_eq!(settings.keys.keys_of(Action::Forward)[0], KeyCode::KeyW, "unchanged");
        assert!(screen.key(&mut settings, KeyCode::KeyZ, &WALKER));
        assert_eq!(settings.keys.keys_of(Action::Forward), [KeyCode::KeyZ, KeyCode::ArrowUp]);
        assert_eq!((screen.rebinding(), screen.problem()), (None, None));
    }

    #[test]
    fn esc_gives_up_a_rebinding_and_keys_are_named_as_players_read_them() {
        let mut settings = Settings::default();
        let mut screen = SettingsScreen::default();
        screen.rebind(Action::Run, 1);
        assert!(screen.key(&mut settings, KeyCode::Escape, &WALKER));
        assert_eq!(screen.rebinding(), None);
        assert_eq!(settings, Settings::default(), "nothing bound");
        assert_eq!(key_name(KeyCode::KeyW), "W");
        assert_eq!(key_name(KeyCode::Digit1), "1");
        assert_eq!(key_name(KeyCode::ShiftLeft), "ShiftLeft");
    }
}
