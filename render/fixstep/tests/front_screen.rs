//! The front screen in a real window, played with the keyboard as a player would: under Xvfb,
//! keys pressed with `xdotool` host a game from it, which the local network then lists with
//! its player; Esc's menu leaves the game (the network no longer lists it) and comes back to
//! the front screen, where Esc quits. The name typed is remembered in the settings.
//!
//! Protects the whole path from `fixstep` to a hosted game and back: the front screen's keys
//! (egui through egui-winit), the form's fields and Enter, the launch of a host from the
//! window, the pause menu, and leaving with a goodbye.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{FIXSTEP, Xvfb, config_home, output_dir, xvfb_or_skip};

/// The pause between two keys, a quick player's. Keys that arrive within one frame all the
/// same (a debug build on the software driver, on a busy machine, draws a few frames a second)
/// reach the menus a press a frame, in order, the first only after a new page has been drawn:
/// this test failed on a loaded machine before the window did so (a Tab before the first frame
/// lost, Tab, Tab, Enter pressing the button one along).
const KEY_GAP: Duration = Duration::from_millis(400);

/// How long a game plays before the player gives its window the keyboard: long enough for a
/// debug build on the software driver to be drawing the game, not loading it.
const PLAYING_BEFORE_FOCUS: Duration = Duration::from_secs(8);

/// How long the window may take to open, to host, or to leave, on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// The game, killed if the test ends before it quits.
struct Game(Child);

impl Drop for Game {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Settings that keep a game hosted from the front screen on this machine: no router asked
/// to forward a port (UPnP's search is a multicast to the local network), no STUN server
/// asked (public ones by default). Network tests send nothing beyond loopback.
const MACHINE_ONLY_SETTINGS: &str = "(version: 1, network: (stun: [], port_mapping: false))\n";

/// A scratch configuration folder for `test` whose settings ([`MACHINE_ONLY_SETTINGS`]) keep
/// a game it hosts on this machine.
fn machine_only_config_home(test: &str) -> std::path::PathBuf {
    let dir = config_home(test);
    let settings = dir.join("fixstep").join("settings.ron");
    std::fs::create_dir_all(settings.parent().expect("a folder")).expect("a scratch folder");
    std::fs::write(&settings, MACHINE_ONLY_SETTINGS).expect("the settings can be written");
    dir
}

/// Runs `xdotool ARGS` on `xvfb`'s display; whether it succeeded.
fn xdotool(xvfb: &Xvfb, args: &[&str]) -> bool {
    Command::new("xdotool")
        .args(args)
        .env("DISPLAY", &xvfb.display)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether `xdotool` can press keys on `xvfb`'s display; if not, the test is skipped, unless
/// CI requires it (`FIXSTEP_REQUIRE_GPU`, set where the packages are installed).
fn keys_or_skip(xvfb: &Xvfb) -> bool {
    if xdotool(xvfb, &["version"]) {
        return true;
    }
    let reason = "no xdotool to press keys with; install the xdotool package";
    assert!(std::env::var("FIXSTEP_REQUIRE_GPU").as_deref() != Ok("1"), "{reason}");
    println!("skipped: {reason}");
    false
}

/// Presses `key` (an X key name, `ctrl+a` for a chord), then waits a frame.
fn press(xvfb: &Xvfb, key: &str) {
    assert!(xdotool(xvfb, &["key", key]), "xdotool pressed {key}");
    std::thread::sleep(KEY_GAP);
}

/// Types `text`, then waits a frame.
fn type_text(xvfb: &Xvfb, text: &str) {
    assert!(xdotool(xvfb, &["type", "--delay", "60", text]), "xdotool typed {text}");
    std::thread::sleep(KEY_GAP);
}

/// What `fixstep lan` lists on `port` of this machine.
fn lan(port: u16) -> String {
    let out = Command::new(FIXSTEP)
        .args(["lan", "--to", "127.0.0.1", "--port", &port.to_string(), "--wait-ms", "300"])
        .output()
        .expect("fixstep lan runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until `check` holds, at most [`PATIENCE`].
fn wait_until(mut check: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + PATIENCE;
    while Instant::now() < until {
        if check() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    false
}

#[test]
fn the_front_screen_hosts_a_game_and_leaving_comes_back_to_it() {
    let test = "front-screen-hosts";
    let Some(xvfb) = xvfb_or_skip(test) else { return };
    if !keys_or_skip(&xvfb) {
        return;
    }
    // The game it hosts asks no router and no STUN server: nothing leaves the machine.
    let config = machine_only_config_home(test);
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .and_then(|s| s.local_addr())
        .expect("loopback binds")
        .port();
    let mut game = Game(
        Command::new(FIXSTEP)
            .args(["play", "--size", "640x360"])
            .env("DISPLAY", &xvfb.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_DATA_HOME", output_dir().join(format!("{test}-data")))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("fixstep starts"),
    );
    assert!(
        wait_until(|| xdotool(&xvfb, &["search", "--name", "^Fixstep", "windowfocus"])),
        "the window opened"
    );
    std::thread::sleep(Duration::from_secs(1));
    // "Play alone" has the focus; Tab goes to "Host a game", whose form opens in the name.
    press(&xvfb, "Tab");
    press(&xvfb, "Return");
    type_text(&xvfb, "ada");
    press(&xvfb, "Tab");
    press(&xvfb, "ctrl+a");
    type_text(&xvfb, &port.to_string());
    press(&xvfb, "Return");
    assert!(wait_until(|| lan(port).contains("1/8 players")), "the host is listed: {}", lan(port));
    // Esc opens the pause menu on Resume; two Tabs go to Leave.
    press(&xvfb, "Escape");
    press(&xvfb, "Tab");
    press(&xvfb, "Tab");
    press(&xvfb, "Return");
    assert!(
        wait_until(|| lan(port).contains("no game answered")),
        "leaving ended the game: {}",
        lan(port)
    );
    let settings =
        std::fs::read_to_string(config.join("fixstep/settings.ron")).expect("the settings");
    assert!(settings.contains("name: \"ada\""), "the name is remembered: {settings}");
    // Esc quits from the front screen's main page, and from nowhere else.
    press(&xvfb, "Escape");
    let quit = wait_until(|| game.0.try_wait().is_ok_and(|s| s.is_some()));
    assert!(quit, "Esc on the front screen quits");
    let status = game.0.wait().expect("it ended");
    assert!(status.success(), "fixstep exited {status}");
}

/// A game started without the front screen (`play --bots 1`) has a pause menu that the keys
/// work as on the front screen's: Esc opens it on Resume, three Tabs reach Quit, and Enter
/// quits. Its window had the keyboard before any menu showed, and the menus, not told so,
/// gave no button the focus: Tab then moved an unseen focus from nowhere, and the same keys
/// left for the front screen instead.
#[test]
fn the_pause_menu_of_a_game_without_the_front_screen_takes_the_keys() {
    let test = "pause-menu-keys";
    let Some(xvfb) = xvfb_or_skip(test) else { return };
    if !keys_or_skip(&xvfb) {
        return;
    }
    let mut game = Game(
        Command::new(FIXSTEP)
            .args(["play", "--bots", "1", "--size", "640x360"])
            .env("DISPLAY", &xvfb.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_CONFIG_HOME", config_home(test))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("fixstep starts"),
    );
    assert!(wait_until(|| xdotool(&xvfb, &["search", "--name", "^Fixstep"])), "the window opened");
    // The player clicks into the window once the game plays: the window gets the keyboard
    // while the game, not a menu, takes the keys.
    std::thread::sleep(PLAYING_BEFORE_FOCUS);
    assert!(xdotool(&xvfb, &["search", "--name", "^Fixstep", "windowfocus"]), "focused");
    std::thread::sleep(KEY_GAP);
    press(&xvfb, "Escape");
    for _ in 0..3 {
        press(&xvfb, "Tab");
    }
    press(&xvfb, "Return");
    let quit = wait_until(|| game.0.try_wait().is_ok_and(|s| s.is_some()));
    assert!(quit, "Esc, three Tabs and Enter quit the game from its pause menu");
    let status = game.0.wait().expect("it ended");
    assert!(status.success(), "fixstep exited {status}");
}
