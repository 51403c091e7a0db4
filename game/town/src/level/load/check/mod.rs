//! Checking: every rule of the level format and of the files a level refers to, run on the
//! file model in exact integer centimetres. [`Checker`] collects one file's problems.

use std::collections::BTreeMap;

use super::locate::{Doc, Seg};
use super::problems::LevelProblem;
use crate::level::model::{PointCm, RectCm};
use geometry::rect_contains;

mod geometry;
mod level_file;
mod scripts;

pub(super) use level_file::check_level_file;
pub(super) use scripts::{check_clip_file, check_cutscene, check_dialogue, check_images};

/// Farthest any point or height of a level may lie from the origin along an axis, centimetres
/// (5 km). Two points then differ by at most 10 km on an axis, and the squared length of a
/// difference in metres is at most 2 × 10^8, far inside the ±2^31 that `Fx` holds: the rules
/// take dot products of differences without overflow. It also keeps the neighbour grids of
/// 4 m cells at most 2,500 cells a side.
pub(super) const MAX_COORDINATE_CM: i32 = 500_000;

/// Longest duration in a level, ticks: one day (24 hours of 36,000 ticks), beyond any door,
/// lift, pause, line of dialogue or cutscene. The rules add durations to tick numbers and turn
/// them into `Fx` progress; held far below 2^31, neither can overflow.
pub(super) const MAX_DURATION_TICKS: u32 = 864_000;

/// Highest speed in a level, centimetres per second: 100 m/s (360 km/h), beyond any walker or
/// car of a town, so products of speeds and the rules' factors stay far inside `Fx`.
pub(super) const MAX_SPEED_CM_PER_S: i32 = 10_000;

/// Collects the problems of one file.
pub(super) struct Checker<'a> {
    /// The file checked.
    pub(super) doc: &'a Doc,
    /// Where problems go.
    pub(super) problems: &'a mut Vec<LevelProblem>,
}

impl Checker<'_> {
    fn report(&mut self, path: &[Seg], message: impl Into<String>) {
        let problem = self.doc.problem(path, message);
        self.problems.push(problem);
    }

    /// Reports a value that repeats an earlier one at `first`, saying where that one is.
    fn report_repeat(&mut self, path: &[Seg], first: &[Seg], message: String) {
        let message = match self.doc.position(first) {
            Some((line, column)) => format!("{message} (first at line {line}, column {column})"),
            None => message,
        };
        self.report(path, message);
    }

    /// Reports `value` unless it is greater than 0; the field's name is the last step of
    /// `path`.
    fn positive(&mut self, path: &[Seg], who: &str, value: i64) {
        if value <= 0 {
            let field = field_name(path);
            self.report(path, format!("{who}: {field} is {value}; it must be greater than 0"));
        }
    }

    /// Reports `value` unless it is greater than 0 and at most `max`; `max_means` says what the
    /// bound is, for the message.
    fn positive_at_most(&mut self, path: &[Seg], who: &str, value: i64, max: i64, max_means: &str) {
        if value > max {
            let field = field_name(path);
            self.report(
                path,
                format!("{who}: {field} is {value}; it must be at most {max} ({max_means})"),
            );
        } else {
            self.positive(path, who, value);
        }
    }

    /// Reports a duration in ticks unless it is 1..=[`MAX_DURATION_TICKS`].
    fn duration(&mut self, path: &[Seg], who: &str, ticks: u32) {
        let max = i64::from(MAX_DURATION_TICKS);
        self.positive_at_most(path, who, ticks.into(), max, "one day of ticks");
    }

    /// Reports a speed in centimetres per second unless it is 1..=[`MAX_SPEED_CM_PER_S`].
    fn speed(&mut self, path: &[Seg], who: &str, cm_per_s: i32) {
        let max = i64::from(MAX_SPEED_CM_PER_S);
        self.positive_at_most(path, who, cm_per_s.into(), max, "100 m/s");
    }

    /// Reports a size (a height, a radius) in centimetres unless it is
    /// 1..=[`MAX_COORDINATE_CM`].
    fn size(&mut self, path: &[Seg], who: &str, cm: i32) {
        let max = i64::from(MAX_COORDINATE_CM);
        self.positive_at_most(path, who, cm.into(), max, "5 km");
    }

    /// Reports a coordinate or height in centimetres that lies beyond [`MAX_COORDINATE_CM`]
    /// of the origin.
    fn coordinate(&mut self, path: &[Seg], who: &str, cm: i32) {
        if cm.unsigned_abs() > MAX_COORDINATE_CM.unsigned_abs() {
            let field = field_name(path);
            self.report(
                path,
                format!(
                    "{who}: {field} is {cm}; it must be within {MAX_COORDINATE_CM} cm (5 km) \
                     of 0"
                ),
            );
        }
    }

    /// Reports a point with a coordinate beyond [`MAX_COORDINATE_CM`] of the origin.
    fn point(&mut self, path: &[Seg], who: &str, p: PointCm) {
        let limit = MAX_COORDINATE_CM.unsigned_abs();
        if p.0.unsigned_abs() > limit || p.1.unsigned_abs() > limit {
            self.report(
                path,
                format!(
                    "{who} at {} is farther than {MAX_COORDINATE_CM} cm (5 km) from the origin \
                     along an axis",
                    pt(p)
                ),
            );
        }
    }

    /// Checks that ids are non-empty and unique; returns each id's first index.
    fn unique<'f>(
        &mut self,
        kind: &str,
        ids: impl Iterator<Item = &'f str>,
        path_of: impl Fn(usize) -> Vec<Seg>,
    ) -> BTreeMap<&'f str, usize> {
        let mut first = BTreeMap::new();
        for (i, id) in ids.enumerate() {
            if id.is_empty() {
                self.report(&path_of(i), format!("{kind} {i} has an empty id"));
            } else if let Some(&earlier) = first.get(id) {
                self.report_repeat(
                    &path_of(i),
                    &path_of(earlier),
                    format!("duplicate {kind} id {id:?}: {kind} {earlier} has it too"),
                );
            } else {
                first.insert(id, i);
            }
        }
        first
    }
}

/// The name of the field at the end of `path`.
fn field_name(path: &[Seg]) -> &'static str {
    match path.last() {
        Some(Seg::Field(name)) => name,
        _ => "value",
    }
}

/// A point as `(x, y)`, centimetres.
fn pt(p: PointCm) -> String {
    format!("({}, {})", p.0, p.1)
}

/// What things must stand clear of: the ground's edge and the buildings.
struct Site<'f> {
    /// The ground, if it is a proper rectangle.
    ground: Option<RectCm>,
    /// Buildings with a proper footprint: id and footprint.
    buildings: Vec<(&'f str, RectCm)>,
}

impl Site<'_> {
    /// Why `p` is not a place to stand, if it is not.
    fn misplaced(&self, p: PointCm) -> Option<String> {
        if let Some(ground) = &self.ground
            && !rect_contains(ground, p)
        {
            return Some(format!("is outside the ground {} to {}", pt(ground.min), pt(ground.max)));
        }
        self.buildings
            .iter()
            .find(|(_, footprint)| rect_contains(footprint, p))
            .map(|(id, _)| format!("is inside building {id:?}"))
    }

    /// Checks that `p` is on the ground and outside every building.
    /// Reports `what` (`sign "s1" at`) at `p` if it is off the ground (where the ground is a
    /// proper rectangle).
    fn check_on_ground(&self, c: &mut Checker<'_>, path: &[Seg], what: &str, p: PointCm) {
        if let Some(ground) = &self.ground
            && !rect_contains(ground, p)
        {
            c.report(path, format!("{what} {} is outside the ground", pt(p)));
        }
    }

    fn check_point(&self, c: &mut Checker<'_>, path: &[Seg], who: &str, p: PointCm) {
        if let Some(why) = self.misplaced(p) {
            c.report(path, format!("{who} at {} {why}", pt(p)));
        }
    }
}
