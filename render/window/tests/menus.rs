//! The menus drawn offscreen, as the window draws them (egui into a texture view): the front
//! screen, a join that was refused, the pause menu and the settings screen. The pictures are written under the target directory to
//! be looked at; the test holds that the text is there (the picture is not blank) and that the
//! refusal shows in its colour.

use fixstep_gpu::OffscreenTarget;
use fixstep_gpu::testing::gpu_or_skip;
use fixstep_net::lan::{LanAnswer, LanHost};
use fixstep_window::front::{Form, FrontAction, FrontScreen, Outcome};
use fixstep_window::menus::{MenuPainter, MenuTarget, front_screen, still_input};
use fixstep_window::pause::{PauseMenu, pause_menu};
use fixstep_window::settings::{Remembered, Settings};
use fixstep_window::settings_screen::{SettingsScreen, settings_screen};

/// A game's controls, as the settings screen lists them.
const CONTROLS: fixstep_present::ControlNames = fixstep_present::ControlNames {
    moving: "move",
    directions: ["Forward", "Back", "Step left", "Step right"],
    turning: Some(["Turn left", "Turn right"]),
    run: Some("Run"),
    action: Some("Interact"),
};

/// The pictures' size, pixels: the window's default.
const SIZE: (u32, u32) = (1280, 720);

/// Draws `front` (with `lan`) offscreen, and returns the picture, written to `name`.png.
fn draw(name: &str, front: &FrontScreen, lan: &[LanHost]) -> Option<image::RgbaImage> {
    let mut actions = Vec::new();
    let picture = draw_ui(name, |ui| front_screen(ui, front, lan, &mut actions));
    assert!(actions.is_empty(), "nothing is pressed: {actions:?}");
    picture
}

/// Draws what `ui` lays out offscreen, three frames so egui's layout settles, and returns the
/// picture, written to `name`.png.
fn draw_ui(name: &str, mut ui: impl FnMut(&mut egui::Ui)) -> Option<image::RgbaImage> {
    let ctx = gpu_or_skip(name)?;
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&ctx.device, SIZE.0, SIZE.1, format);
    let mut painter = MenuPainter::new(&ctx.device, format);
    for _ in 0..3 {
        let clear = Some(wgpu::Color { r: 0.05, g: 0.06, b: 0.08, a: 1.0 });
        let into = MenuTarget { view: &target.view, size: SIZE, clear };
        painter.draw(&ctx.device, &ctx.queue, into, still_input(SIZE), &mut ui);
    }
    let picture = target.read_image(&ctx.device, &ctx.queue).expect("it reads back");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("menus");
    std::fs::create_dir_all(&dir).expect("the folder");
    picture.save(dir.join(format!("{name}.png"))).expect("the picture is written");
    Some(picture)
}

/// Pixels far from the background: text and widgets.
fn drawn_pixels(picture: &image::RgbaImage) -> usize {
    picture.pixels().filter(|p| p.0[..3].iter().map(|&c| u32::from(c)).sum::<u32>() > 200).count()
}

#[test]
fn the_front_screen_draws_its_menu() {
    let front = FrontScreen::new(&Remembered::default());
    let Some(picture) = draw("front", &front, &[]) else { return };
    assert!(drawn_pixels(&picture) > 2_000, "the menu's text and buttons are drawn");
}

#[test]
fn a_refused_join_is_said_in_words_with_a_way_back() {
    let mut front =
        FrontScreen::new(&Remembered { name: "ada".into(), address: "127.0.0.1:7465".into() });
    front.act(FrontAction::Open(Form::Join));
    assert!(matches!(front.act(FrontAction::Go), Outcome::Start(_)));
    front.failed("the host refused this player: another password (or none where it wants one)");
    let lan = [LanHost {
        address: "192.168.1.20:7465".parse().expect("an address"),
        answer: LanAnswer {
            game: "town".into(),
            title: "Fixstep Town".into(),
            players: 3,
            max_players: 8,
            sealed: true,
        },
    }];
    let Some(picture) = draw("refused", &front, &lan) else { return };
    let reddish = picture.pixels().filter(|p| p.0[0] > 180 && p.0[1] < 140 && p.0[2] < 120).count();
    assert!(reddish > 100, "the refusal is drawn in its colour ({reddish} pixels)");

    front.act(FrontAction::Back);
    let Some(picture) = draw("join-form", &front, &lan) else { return };
    assert!(drawn_pixels(&picture) > 2_000);
}

#[test]
fn the_pause_menu_and_its_settings_draw_and_change_nothing_untouched() {
    let mut menu = PauseMenu::Menu;
    let mut settings = Settings::default();
    let mut actions = Vec::new();
    let what = "Hosting: friends join at 192.168.1.20:7465";
    let Some(picture) = draw_ui("pause", |ui| {
        pause_menu(ui, &mut menu, &mut settings, &CONTROLS, what, (true, false), &mut actions);
    }) else {
        return;
    };
    assert!(drawn_pixels(&picture) > 2_000, "the menu's text and buttons are drawn");
    assert!(actions.is_empty(), "nothing is pressed: {actions:?}");
    // A host's menu has a button more: to end the match for everyone, leaving hands it over.
    let Some(hosting) = draw_ui("pause-host", |ui| {
        pause_menu(ui, &mut menu, &mut settings, &CONTROLS, what, (true, true), &mut actions);
    }) else {
        return;
    };
    assert!(
        drawn_pixels(&hosting) > drawn_pixels(&picture) + 100,
        "a host's menu draws its End the match button"
    );
    assert!(actions.is_empty(), "nothing is pressed: {actions:?}");

    let mut screen = SettingsScreen::default();
    let mut back = false;
    let Some(picture) = draw_ui("settings", |ui| {
        back |= settings_screen(ui, &mut screen, &mut settings, &CONTROLS);
    }) else {
        return;
    };
    assert!(drawn_pixels(&picture) > 5_000, "every row is drawn");
    assert!(!back);
    assert_eq!(settings, Settings::default(), "drawing the screen changes no setting");
}
