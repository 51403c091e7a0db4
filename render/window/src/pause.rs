//! The in-game menu that Esc opens: Resume, Settings, Leave to the front screen, Quit. A game
//! played alone stops behind it; a network game goes on (others play it), with the own
//! character holding still.

use fixstep_present::ControlNames;

use crate::settings::Settings;
use crate::settings_screen::{SettingsScreen, settings_screen};

/// Width of the menu's buttons, points.
const BUTTON_POINTS: f32 = 220.0;

/// Width of the menu's panel, points: room for the address friends join at.
const PANEL_POINTS: f32 = 380.0;

/// How much the game behind the menu is darkened, of 255: enough for the menu to stand out,
/// little enough to see the game go on.
const DIM_ALPHA: u8 = 140;

/// What the player chose in the pause menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseAction {
    /// Back to the game.
    Resume,
    /// The settings screen.
    Settings,
    /// Leave the game (saying goodbye to the host; a host hands the match over to the next
    /// one) for the front screen.
    Leave,
    /// End the match for everyone (a host's choice), for the front screen.
    EndMatch,
    /// Quit the program.
    Quit,
}

/// Which page of the pause menu shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PauseMenu {
    /// The menu's buttons.
    #[default]
    Menu,
    /// The settings.
    Settings(SettingsScreen),
}

impl PauseMenu {
    /// Esc: from the settings back to the menu, from the menu back to the game (a key
    /// waiting to be rebound takes Esc itself, to give up).
    #[must_use]
    pub fn escape(&mut self) -> Option<PauseAction> {
        match self {
            Self::Menu => Some(PauseAction::Resume),
            Self::Settings(_) => {
                *self = Self::Menu;
                None
            }
        }
    }
}

/// Lays out the pause menu over the game: `what` says what is played (the address friends
/// join at, when hosting), `network` whether the game goes on behind it, `hosting` whether
/// this window hosts it (leaving hands it over; ending it is a button of its own). Settings are
/// changed in place.
pub fn pause_menu(
    ui: &mut egui::Ui,
    menu: &mut PauseMenu,
    settings: &mut Settings,
    names: &ControlNames,
    what: &str,
    (network, hosting): (bool, bool),
    actions: &mut Vec<PauseAction>,
) {
    if let PauseMenu::Settings(screen) = menu {
        if settings_screen(ui, screen, settings, names) {
            *menu = PauseMenu::Menu;
        }
        return;
    }
    // The game shows through, dimmed, and the menu stands on a panel of its own.
    egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
        let screen = ui.max_rect();
        ui.painter().rect_filled(screen, 0.0, egui::Color32::from_black_alpha(DIM_ALPHA));
        ui.add_space(screen.height() * 0.2);
        ui.vertical_centered(|ui| {
            egui::Frame::window(ui.style()).inner_margin(24.0).show(ui, |ui| {
                ui.set_width(PANEL_POINTS);
                ui.vertical_centered(|ui| {
                    ui.heading(egui::RichText::new("Paused").size(32.0));
                    ui.label(what);
                    if network {
                        ui.label("The game goes on; your character stands still.");
                    }
                    ui.add_space(16.0);
                    let size = egui::vec2(BUTTON_POINTS, 34.0);
                    let leave = if hosting {
                        "Leave (a player hosts on)"
                    } else {
                        "Leave to the front screen"
                    };
                    let buttons = [
                        Some(("Resume", PauseAction::Resume)),
                        Some(("Settings", PauseAction::Settings)),
                        Some((leave, PauseAction::Leave)),
                        hosting.then_some(("End the match", PauseAction::EndMatch)),
                        Some(("Quit", PauseAction::Quit)),
                    ];
                    for (label, action) in buttons.into_iter().flatten() {
                        let button = ui.add_sized(size, egui::Button::new(label));
                        if action == PauseAction::Resume && ui.memory(|m| m.focused().is_none()) {
                            // Enter resumes at once; Tab goes down the buttons.
                            button.request_focus();
                        }
                        crate::menus::focus_ring(ui, &button);
                        if button.clicked() {
                            actions.push(action);
                        }
                        ui.add_space(6.0);
                    }
                });
            });
        });
    });
    if actions.contains(&PauseAction::Settings) {
        *menu = PauseMenu::Settings(SettingsScreen::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_goes_from_the_settings_to_the_menu_and_from_the_menu_to_the_game() {
        let mut menu = PauseMenu::Settings(SettingsScreen::default());
        assert_eq!(menu.escape(), None);
        assert_eq!(menu, PauseMenu::Menu);
        assert_eq!(menu.escape(), Some(PauseAction::Resume));
    }
}
