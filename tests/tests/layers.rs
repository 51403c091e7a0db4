//! The layers' promises. The folders are the layers, and the arrows between them point one
//! way, runtime ← game ← render: nothing under `runtime/` or `game/` names anything above it,
//! each crate's folder is named after it, and every crate that runs inside a simulation bans
//! floats with a `clippy.toml` of its own (read from `cargo metadata`). And what they link: a
//! headless host (`fixstep` without its `window` feature), the presentation layer, network
//! play (whose drivers link no presentation either) and the tools have no GPU or window library anywhere in their dependency trees, so a
//! server image carries none and a tool builds on a machine without them (read from `cargo
//! tree`, as a packager would see it).

use std::process::Command;

use fixstep_tests::workspace_root;

/// The crates of the GPU and the window system.
const GRAPHICS: [&str; 3] = ["wgpu", "winit", "glyphon"];

/// The normal (not dev or build) dependency tree of `package` with `flags`, one crate a line.
fn tree(package: &str, flags: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none", "-p", package])
        .args(flags)
        .current_dir(workspace_root())
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn graphics_in(tree: &str) -> Vec<&str> {
    let mut found: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| GRAPHICS.contains(name))
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

#[test]
fn headless_crates_link_no_gpu_or_window_library() {
    for (package, flags) in [
        ("fixstep", &["--no-default-features"][..]),
        ("fixstep-present", &[][..]),
        ("fixstep-netplay", &[][..]),
        ("fixstep-netplay-view", &[][..]),
        ("fixstep-tools", &[][..]),
        ("fixstep-town", &[][..]),
        ("fixstep-arena", &[][..]),
        ("fixstep-town-view", &["--no-default-features"][..]),
        ("fixstep-arena-view", &[][..]),
    ] {
        let tree = tree(package, flags);
        let found = graphics_in(&tree);
        assert!(found.is_empty(), "{package} {flags:?} links {found:?}");
    }
}

/// Network play's drivers (the host, a player's peer, desync reports, the load generator's
/// shared ticks) run a game's rules and nothing of how it is drawn: `fixstep-netplay` links no
/// presentation (and so no float-using drawing code), which only `fixstep-netplay-view` adds.
#[test]
fn network_play_links_no_presentation() {
    let drivers = tree("fixstep-netplay", &[]);
    assert!(
        !drivers.lines().any(|l| l.starts_with("fixstep-present ")),
        "fixstep-netplay links the presentation:\n{drivers}"
    );
    let view = tree("fixstep-netplay-view", &[]);
    assert!(view.lines().any(|l| l.starts_with("fixstep-present ")), "the check sees it:\n{view}");
}

/// The check sees them where they are: the desktop build links the GPU and the window.
#[test]
fn the_desktop_build_links_both() {
    assert_eq!(graphics_in(&tree("fixstep", &[])), ["glyphon", "wgpu", "winit"]);
}

/// A workspace crate as `cargo metadata` describes it.
struct Krate {
    name: String,
    /// Its folder, relative to the workspace root, `/`-separated.
    folder: String,
    /// The names of the workspace crates it depends on, of any kind (normal, dev, build).
    depends_on: Vec<String>,
}

/// The workspace's crates, from `cargo metadata`.
fn workspace_crates() -> Vec<Krate> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--offline", "--no-deps", "--format-version", "1"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let root = workspace_root().canonicalize().expect("the workspace root");
    let packages = metadata["packages"].as_array().expect("packages");
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    packages
        .iter()
        .map(|package| {
            let manifest = std::path::Path::new(package["manifest_path"].as_str().expect("path"));
            let folder = manifest.parent().expect("a folder").strip_prefix(&root).map_or_else(
                |_| manifest.display().to_string(),
                |f| f.to_string_lossy().replace('\\', "/"),
            );
            let depends_on = package["dependencies"]
                .as_array()
                .expect("dependencies")
                .iter()
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.contains(d))
                .map(str::to_owned)
                .collect();
            Krate { name: package["name"].as_str().expect("a name").to_owned(), folder, depends_on }
        })
        .collect()
}

/// The layer a folder is in: its first component.
fn layer(folder: &str) -> &str {
    folder.split('/').next().unwrap_or(folder)
}

/// The rule in one sentence, runtime ← game ← render: a crate under `runtime/` names nothing
/// under `game/` or `render/`, and a crate under `game/` nothing under `render/`, whatever the
/// kind of dependency (a test of the rules that needed a renderer would be a test of the
/// renderer). So each game's rules build, test and run headless without anything that draws.
#[test]
fn runtime_and_game_name_nothing_above_them() {
    let crates = workspace_crates();
    let folder_of = |name: &str| {
        crates.iter().find(|k| k.name == name).map_or("", |k| k.folder.as_str()).to_owned()
    };
    let rank = |folder: &str| match layer(folder) {
        "runtime" => Some(0),
        "game" => Some(1),
        "render" => Some(2),
        _ => None,
    };
    let mut upward = Vec::new();
    for krate in &crates {
        let Some(own) = rank(&krate.folder) else { continue };
        for dependency in &krate.depends_on {
            let theirs = folder_of(dependency);
            if rank(&theirs).is_some_and(|r| r > own) {
                upward
                    .push(format!("{} ({}) -> {dependency} ({theirs})", krate.name, krate.folder));
            }
        }
    }
    assert!(upward.is_empty(), "dependencies that point up a layer:\n{}", upward.join("\n"));
    assert!(crates.iter().any(|k| k.folder == "game/town"), "the town's rules are found");
}

/// Each crate's folder is named after it: `fixstep-NAME` lives in a folder `NAME` (the
/// program, `fixstep`, in `render/fixstep`), so the tree of folders reads as the crate map.
#[test]
fn each_folder_is_named_after_its_crate() {
    let misnamed: Vec<String> = workspace_crates()
        .iter()
        .filter(|k| {
            let last = k.folder.rsplit('/').next().unwrap_or(&k.folder);
            k.name != format!("fixstep-{last}") && k.name != last
        })
        .map(|k| format!("{} in {}", k.name, k.folder))
        .collect();
    assert!(misnamed.is_empty(), "crates in folders of other names: {misnamed:?}");
}

/// Every crate whose code runs inside a simulation (under `game/`, and the runtime itself)
/// bans floats, hash maps and the wall clock with a `clippy.toml` of its own, rather than one
/// it inherits from the folder it happens to sit in: moving a crate cannot drop its ban.
#[test]
fn every_simulation_crate_carries_its_own_float_ban() {
    let mut missing = Vec::new();
    for krate in workspace_crates() {
        let simulation = krate.folder == "runtime" || layer(&krate.folder) == "game";
        if !simulation {
            continue;
        }
        let file = workspace_root().join(&krate.folder).join("clippy.toml");
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let bans = ["\"f32\"", "\"f64\"", "std::collections::HashMap", "std::time::Instant"];
        if !bans.iter().all(|ban| text.contains(ban)) {
            missing.push(format!("{}: {}", krate.name, file.display()));
        }
    }
    assert!(missing.is_empty(), "simulation crates without the ban of their own: {missing:?}");
}
