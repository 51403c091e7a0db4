//! The layers' promise about what they link: a headless host (`fixstep` without its `window`
//! feature), the presentation layer, network play and the tools have no GPU or window library
//! anywhere in their dependency trees, so a server image carries none and a tool builds on a
//! machine without them. Read from `cargo tree`, as a packager would see it.

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
        ("fixstep-tools", &[][..]),
        ("fixstep-town", &[][..]),
        ("fixstep-arena", &[][..]),
    ] {
        let tree = tree(package, flags);
        let found = graphics_in(&tree);
        assert!(found.is_empty(), "{package} {flags:?} links {found:?}");
    }
}

/// The check sees them where they are: the desktop build links the GPU and the window.
#[test]
fn the_desktop_build_links_both() {
    assert_eq!(graphics_in(&tree("fixstep", &[])), ["glyphon", "wgpu", "winit"]);
}
