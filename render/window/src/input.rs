//! The keyboard and mouse, turned into what the player holds ([`Controls`]), which the game
//! makes its held command, and its held input integrates over each tick into the tick's
//! command.
//!
//! W/S (or the arrows) forward and back, A/D left and right, Shift runs, Q/E turn, the mouse
//! turns while it is captured (a click captures it, Esc lets it go), F acts (once per press),
//! the wheel zooms.

use fixstep_present::Controls;
use winit::keyboard::KeyCode;

use crate::settings::{Action, KeyBindings, ViewSettings};

/// Turn per pixel of mouse movement, in a command's turn units (2^-16 of a turn): 1000 pixels
/// turn about 220°.
pub const MOUSE_TURN_PER_PIXEL: f64 = 40.0;

/// Full speed, percent, as a command carries it.
const FULL: i8 = 100;

/// What is held and what has happened since the last tick.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    forward: bool,
    back: bool,
    left: bool,
    right: bool,
    turn_left: bool,
    turn_right: bool,
    run: bool,
    interact: bool,
    mouse_turn: f64,
    /// Whether the window has captured the mouse (mouse turning is on).
    pub mouse_look: bool,
    /// Which key does what.
    keys: KeyBindings,
    /// Turn per pixel of mouse movement to the right, in a command's turn units: the
    /// settings' sensitivity times [`MOUSE_TURN_PER_PIXEL`], negative (clockwise) unless
    /// inverted.
    turn_per_pixel: f64,
}

impl Default for Input {
    fn default() -> Self {
        Self::new(KeyBindings::default(), &ViewSettings::default())
    }
}

/// What a key press asks of the window, beyond movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Nothing more.
    None,
    /// Esc: let the mouse go if it is captured, else quit.
    Escape,
    /// Show or hide the frame-time graph (F3).
    ToggleGraph,
}

impl Input {
    /// Nothing held, with `keys` and the mouse as `view` sets them.
    #[must_use]
    pub fn new(keys: KeyBindings, view: &ViewSettings) -> Self {
        // Right on the screen is clockwise seen from above: a negative turn.
        let sign = if view.invert_mouse { 1.0 } else { -1.0 };
        Self {
            forward: false,
            back: false,
            left: false,
            right: false,
            turn_left: false,
            turn_right: false,
            run: false,
            interact: false,
            mouse_turn: 0.0,
            mouse_look: false,
            keys,
            turn_per_pixel: sign * MOUSE_TURN_PER_PIXEL * f64::from(view.mouse_sensitivity),
        }
    }

    /// A key went down (`pressed`) or up; `repeat` is the keyboard's auto-repeat.
    pub fn key(&mut self, code: KeyCode, pressed: bool, repeat: bool) -> KeyAction {
        match self.keys.action_of(code) {
            Some(Action::Forward) => self.forward = pressed,
            Some(Action::Back) => self.back = pressed,
            Some(Action::Left) => self.left = pressed,
            Some(Action::Right) => self.right = pressed,
            Some(Action::TurnLeft) => self.turn_left = pressed,
            Some(Action::TurnRight) => self.turn_right = pressed,
            Some(Action::Run) => self.run = pressed,
            Some(Action::Interact) if pressed && !repeat => self.interact = true,
            Some(Action::Menu) if pressed => return KeyAction::Escape,
            Some(Action::FrameGraph) if pressed && !repeat => return KeyAction::ToggleGraph,
            _ => {}
        }
        KeyAction::None
    }

    /// The mouse moved `dx` pixels (right positive); it turns the player while it is captured.
    pub fn mouse_moved(&mut self, dx: f64) {
        if self.mouse_look {
            self.mouse_turn += dx * self.turn_per_pixel;
        }
    }

    /// Every key released (the window lost focus, so no key stays stuck down).
    pub fn release_all(&mut self) {
        let mouse_turn = self.mouse_turn;
        let (keys, turn_per_pixel) = (std::mem::take(&mut self.keys), self.turn_per_pixel);
        *self = Self { mouse_turn, keys, turn_per_pixel, ..Self::default() };
    }

    /// What is held now: the movement and turn keys, the run key, and an interact pressed
    /// since the last call (once per press).
    pub fn controls(&mut self) -> Controls {
        let axis = |plus: bool, minus: bool| match (plus, minus) {
            (true, false) => FULL,
            (false, true) => -FULL,
            _ => 0,
        };
        Controls {
            forward: axis(self.forward, self.back),
            strafe: axis(self.right, self.left),
            turn: axis(self.turn_left, self.turn_right),
            run: self.run,
            interact: std::mem::take(&mut self.interact),
        }
    }

    /// The mouse's turn since the last call, in a command's units (2^-16 of a turn); the
    /// fraction of a unit carries to the next call.
    pub fn take_mouse_turn(&mut self) -> i32 {
        let whole = self.mouse_turn.trunc();
        self.mouse_turn -= whole;
        // Clamped to the i32 range first: a mouse cannot turn that far in one frame.
        whole.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_make_full_controls_and_opposite_keys_cancel() {
        let mut input = Input::default();
        input.key(KeyCode::KeyW, true, false);
        input.key(KeyCode::KeyD, true, false);
        input.key(KeyCode::ShiftLeft, true, false);
        input.key(KeyCode::KeyQ, true, false);
        let c = input.controls();
        assert_eq!((c.forward, c.strafe, c.turn, c.run), (100, 100, 100, true));
        input.key(KeyCode::KeyS, true, false);
        input.key(KeyCode::KeyE, true, false);
        let c = input.controls();
        assert_eq!((c.forward, c.turn), (0, 0), "both ways at once hold still");
    }

    #[test]
    fn interact_fires_once_per_press() {
        let mut input = Input::default();
        input.key(KeyCode::KeyF, true, false);
        input.key(KeyCode::KeyF, true, true);
        assert!(input.controls().interact);
        assert!(!input.controls().interact, "held down, it does not repeat");
        input.key(KeyCode::KeyF, false, false);
        input.key(KeyCode::KeyF, true, false);
        assert!(input.controls().interact);
    }

    #[test]
    fn the_mouse_turn_is_taken_in_whole_units_and_the_rest_carried() {
        let mut input = Input { mouse_look: true, ..Input::default() };
        input.mouse_moved(-1000.01);
        assert_eq!(input.take_mouse_turn(), 40_000);
        assert_eq!(input.take_mouse_turn(), 0, "nothing left over but a fraction");
        input.mouse_look = false;
        input.mouse_moved(500.0);
        assert_eq!(input.take_mouse_turn(), 0, "no turning without a button held");
    }

    #[test]
    fn rebound_keys_and_the_mouse_settings_are_what_the_player_set() {
        let mut keys = KeyBindings::default();
        keys.bind(Action::Forward, 0, KeyCode::KeyI).expect("I is free");
        let view =
            ViewSettings { mouse_sensitivity: 0.5, invert_mouse: true, ..ViewSettings::default() };
        let mut input = Input::new(keys, &view);
        input.key(KeyCode::KeyI, true, false);
        assert_eq!(input.controls().forward, 100, "I walks forward now");
        input.key(KeyCode::KeyI, false, false);
        input.key(KeyCode::KeyW, true, false);
        assert_eq!(input.controls().forward, 0, "W does nothing now");
        input.mouse_look = true;
        input.mouse_moved(-1000.0);
        assert_eq!(input.take_mouse_turn(), -20_000, "half as far, the other way");
        input.release_all();
        input.key(KeyCode::KeyI, true, false);
        assert_eq!(input.controls().forward, 100, "the bindings outlive a lost focus");
    }

    #[test]
    fn escape_quits_and_f3_toggles_the_graph() {
        let mut input = Input::default();
        assert_eq!(input.key(KeyCode::Escape, true, false), KeyAction::Escape);
        assert_eq!(input.key(KeyCode::F3, true, false), KeyAction::ToggleGraph);
    }
}
