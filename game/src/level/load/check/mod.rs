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
    fn check_point(&self, c: &mut Checker<'_>, path: &[Seg], who: &str, p: PointCm) {
        if let Some(why) = self.misplaced(p) {
            c.report(path, format!("{who} at {} {why}", pt(p)));
        }
    }
}
