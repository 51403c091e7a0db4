//! No float literal in the simulation crates: the ban of `f32` and `f64` in their
//! `clippy.toml` does not see a literal whose type is inferred, such as `Fx::from_num(0.5)`,
//! so the sources of the crates under `runtime/` and `game/` are scanned for them here, with
//! the arena's descriptor (`render/arena-view/src`), which holds no float either: the
//! shapes' presentation turns its fixed-point poses into floats.

use fixstep_tests::float_literals::{
    FloatLiteral, float_literals, float_literals_under, rust_files_under,
};
use fixstep_tests::workspace_root;

#[test]
fn runtime_and_game_have_no_float_literals() {
    let mut found = Vec::new();
    // The scan skips crates nested in a folder, so each simulation crate is named; of the
    // arena's descriptor only the library, since its tests draw frames.
    for krate in ["runtime", "game/town", "game/arena", "render/arena-view/src"] {
        let dir = workspace_root().join(krate);
        found.extend(float_literals_under(&dir).expect("the sources are readable"));
    }
    let report: Vec<String> = found
        .iter()
        .map(|(file, f)| {
            format!("{}:{}:{}: float literal `{}`", file.display(), f.line, f.column, f.text)
        })
        .collect();
    assert!(
        report.is_empty(),
        "float literals in the simulation crates (use fx, fx_ratio or Fx::from_bits):\n{}",
        report.join("\n")
    );
}

/// The scan fires: each of these is a float the simulation must not contain.
#[test]
fn the_scan_finds_every_form_of_float_literal() {
    let source = "fn f() {\n    let a = Fx::from_num(0.5);\n    let b = 1.;\n    let c = 2e3 + 1E-2;\n    let d = 1_000f64 * 3.0_f32;\n    g(7.25e+1);\n}\n";
    let found: Vec<String> = float_literals(source).into_iter().map(|f| f.text).collect();
    assert_eq!(found, ["0.5", "1.", "2e3", "1E-2", "1_000f64", "3.0_f32", "7.25e+1"]);
    assert_eq!(
        float_literals("let x =\n  Fx::from_num(0.5);")[0],
        FloatLiteral { line: 2, column: 16, text: "0.5".to_owned() }
    );
}

/// And it fires on a planted literal in a real file of the tree: what the test above over the
/// crates would report if someone wrote one.
#[test]
fn the_scan_reports_a_planted_literal_with_its_place() {
    let dir = std::env::temp_dir().join(format!("fixstep-float-literals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("scratch dir");
    let original = std::fs::read_to_string(workspace_root().join("game/town/src/tuning.rs"))
        .expect("tuning.rs is readable");
    let planted = format!("{original}\n/// Planted.\npub const HALF: Fx = Fx::from_num(0.5);\n");
    std::fs::write(dir.join("src/tuning.rs"), &planted).expect("write");
    let found = float_literals_under(&dir).expect("readable");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1.text, "0.5");
    assert_eq!(found[0].1.line, planted.lines().count());
}

/// Numbers that are not floats, and floats inside comments and strings, are not reported.
#[test]
fn integers_ranges_fields_and_text_are_not_floats() {
    let source = r##"
        let a = 1..2; let b = 0..=5; let c = pair.0; let d = nested.0.1; let e = 1.max(2);
        let f = 0x1e3; let g = 5u32; let h = 1_000_i64; let i = 0b1010; let j = x1e5;
        let k = 'x'; let l = b'1'; fn m<'a>(n: &'a str) {}
        // 0.5 in a comment, /* 1.5 */ and
        /* a block with 2.5 /* nested 3.5 */ still 4.5 */
        let s = "5.5 in a string \" 6.5"; let r = r#"7.5 "8.5" raw"#; let t = b"9.5";
        let u = 'a'; let v = '\''; let w = 10..;
    "##;
    assert_eq!(float_literals(source), []);
}

/// Fixed point becomes float in one place, `render/present/src/convert.rs`: a conversion
/// anywhere else in a crate's sources (`to_num::<f32>`, `to_num::<f64>`) is a second place
/// where precision could be chosen differently. Tests and benchmarks, which measure against
/// floats, are not the crates' sources. The scan is shown to fire on `convert.rs` itself.
#[test]
fn fixed_point_becomes_float_only_in_the_presentations_convert_module() {
    let mut files = Vec::new();
    for top in ["runtime", "game", "render"] {
        files.extend(rust_files_under(&workspace_root().join(top), true).expect("readable"));
    }
    let convert = workspace_root().join("render/present/src/convert.rs");
    let (mut in_convert, mut elsewhere) = (0, Vec::new());
    for file in files {
        let is_source = file.components().any(|c| c.as_os_str() == "src");
        let text = std::fs::read_to_string(&file).expect("the sources are readable");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.contains("to_num::<f32>") || code.contains("to_num::<f64>") {
                if file == convert {
                    in_convert += 1;
                } else if is_source {
                    elsewhere.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(in_convert >= 2, "the scan finds the conversions of convert.rs ({in_convert})");
    assert!(
        elsewhere.is_empty(),
        "fixed point made float outside convert.rs:\n{}",
        elsewhere.join("\n")
    );
}
