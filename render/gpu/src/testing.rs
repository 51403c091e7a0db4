//! What the image tests of every renderer share: a GPU or a reason to skip, and comparing a
//! picture with its reference within a tolerance, writing the actual and difference pictures
//! on a failure (as wgpu's own examples test their pictures).

use std::path::Path;

use crate::GpuContext;

/// A pixel differs from the reference when one of its channels differs by more than this
/// (of 255): small enough to catch a wrong colour or a missing thing, large enough to pass a
/// driver's rounding.
pub const PIXEL_TOLERANCE: u8 = 24;

/// A picture matches its reference when at most this fraction of its pixels differ: room for
/// an edge or a glyph rasterised a pixel over, not for a missing object.
pub const FRACTION_TOLERANCE: f64 = 0.01;

/// The environment variable that makes CI fail a GPU test it would otherwise skip for want of
/// an adapter (set once the software driver is installed).
pub const REQUIRE_GPU_VAR: &str = "FIXSTEP_REQUIRE_GPU";

/// The environment variable that makes [`check_reference`] write the reference instead of
/// comparing, after an intended change of the pictures.
pub const BLESS_VAR: &str = "FIXSTEP_BLESS";

/// A GPU, or `None` after printing why the test `test` is skipped. With
/// [`REQUIRE_GPU_VAR`]`=1` a missing GPU fails the test instead.
///
/// # Panics
///
/// Without a GPU when one is required.
#[must_use]
pub fn gpu_or_skip(test: &str) -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(ctx) => Some(ctx),
        Err(error) => {
            assert!(
                std::env::var(REQUIRE_GPU_VAR).as_deref() != Ok("1"),
                "{test}: {REQUIRE_GPU_VAR}=1 but {error}"
            );
            println!("skipped {test}: {error}");
            None
        }
    }
}

/// Compares `actual` with `references/NAME.png` ([`BLESS_VAR`]`=1` writes the reference
/// instead). Returns a description of the failure, naming the actual and difference pictures
/// it wrote under `out`, or `None` if they match within [`PIXEL_TOLERANCE`] and
/// [`FRACTION_TOLERANCE`].
///
/// # Panics
///
/// If a picture cannot be written.
#[must_use]
pub fn check_reference(
    references: &Path,
    out: &Path,
    name: &str,
    actual: &image::RgbaImage,
) -> Option<String> {
    let reference = references.join(format!("{name}.png"));
    if std::env::var(BLESS_VAR).as_deref() == Ok("1") {
        actual.save(&reference).expect("the reference is written");
        println!("blessed {}", reference.display());
        return None;
    }
    std::fs::create_dir_all(out).expect("the output directory");
    let actual_path = out.join(format!("{name}.actual.png"));
    let Ok(expected) = image::open(&reference).map(|i| i.to_rgba8()) else {
        actual.save(&actual_path).expect("the actual picture is written");
        return Some(format!(
            "{name}: no reference {} (the picture drawn is {}; run with {BLESS_VAR}=1 to make it the reference)",
            reference.display(),
            actual_path.display()
        ));
    };
    if expected.dimensions() != actual.dimensions() {
        actual.save(&actual_path).expect("the actual picture is written");
        return Some(format!(
            "{name}: the reference is {:?} but the picture is {:?} ({})",
            expected.dimensions(),
            actual.dimensions(),
            actual_path.display()
        ));
    }
    let mut diff = image::RgbaImage::new(actual.width(), actual.height());
    let mut differing = 0usize;
    for (x, y, a) in actual.enumerate_pixels() {
        let e = expected.get_pixel(x, y);
        let worst = (0..3).map(|c| a[c].abs_diff(e[c])).max().unwrap_or(0);
        if worst > PIXEL_TOLERANCE {
            differing += 1;
            diff.put_pixel(x, y, image::Rgba([255, 0, 255, 255]));
        } else {
            // The reference, dimmed, so the differences stand out in place.
            diff.put_pixel(x, y, image::Rgba([e[0] / 3, e[1] / 3, e[2] / 3, 255]));
        }
    }
    let fraction = differing as f64 / f64::from(actual.width() * actual.height());
    if fraction <= FRACTION_TOLERANCE {
        return None;
    }
    let diff_path = out.join(format!("{name}.diff.png"));
    actual.save(&actual_path).expect("the actual picture is written");
    diff.save(&diff_path).expect("the difference picture is written");
    Some(format!(
        "{name}: {:.2}% of pixels differ from {} by more than {PIXEL_TOLERANCE} (allowed {:.2}%); actual {}, difference {}",
        fraction * 100.0,
        reference.display(),
        FRACTION_TOLERANCE * 100.0,
        actual_path.display(),
        diff_path.display()
    ))
}
