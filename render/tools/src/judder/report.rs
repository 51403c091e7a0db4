//! The report of `fixstep judder`: one row per kind of entity and one for all, as plain
//! aligned text.

use std::fmt;
use std::path::PathBuf;

use super::local::LocalMeasures;
use super::measures::{
    EntityStats, JUMP_WINDOW_MS, MISPLACED_M, MOVING_M_S, MS_PER_S, Summary, Tally,
};

/// The measures of all the entities of one kind (or of every kind, for the "all" row).
#[derive(Debug, Clone, PartialEq)]
pub struct KindRow {
    /// The kind, or `"all"`.
    pub kind: String,
    /// How many entities the drawn log draws of it.
    pub entities: usize,
    /// Their counts and samples together.
    pub tally: Tally,
}

/// What `fixstep judder` found. Its `Display` is the table it prints.
#[derive(Debug, Clone, PartialEq)]
pub struct JudderReport {
    /// The drawn log measured.
    pub drawn: PathBuf,
    /// The truth it was measured against.
    pub truth: PathBuf,
    /// Frames in the drawn log.
    pub frames: usize,
    /// One row per kind, in the kinds' alphabetical order.
    pub kinds: Vec<KindRow>,
    /// Every entity together.
    pub all: KindRow,
    /// Every entity's own measures, worst first: by [`Tally::score`], then by id.
    pub entities: Vec<EntityStats>,
    /// How many of the worst entities to list (and plot).
    pub worst: usize,
    /// Where the plot was written, if one was asked for.
    pub plot: Option<PathBuf>,
    /// The local player's own character: input latency and camera standoff.
    pub local: LocalMeasures,
}

impl JudderReport {
    /// Builds the rows from the entities' measures (in any order).
    #[must_use]
    pub fn new(
        drawn: PathBuf,
        truth: PathBuf,
        frames: usize,
        mut entities: Vec<EntityStats>,
        worst: usize,
    ) -> Self {
        entities.sort_by(|a, b| b.tally.score().cmp(&a.tally.score()).then(a.id.cmp(&b.id)));
        let mut kinds: Vec<KindRow> = Vec::new();
        let mut all = KindRow { kind: "all".to_owned(), entities: 0, tally: Tally::default() };
        let mut names: Vec<&str> = entities.iter().map(|e| e.kind.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            let mut row = KindRow { kind: name.to_owned(), entities: 0, tally: Tally::default() };
            for entity in entities.iter().filter(|e| e.kind == name) {
                row.entities += 1;
                row.tally.merge(&entity.tally);
            }
            all.entities += row.entities;
            all.tally.merge(&row.tally);
            kinds.push(row);
        }
        Self {
            drawn,
            truth,
            frames,
            kinds,
            all,
            entities,
            worst,
            plot: None,
            local: LocalMeasures::default(),
        }
    }

    /// The row of a kind.
    #[must_use]
    pub fn kind(&self, kind: &str) -> Option<&KindRow> {
        self.kinds.iter().find(|row| row.kind == kind)
    }

    /// An entity's own measures.
    #[must_use]
    pub fn entity(&self, id: u64) -> Option<&EntityStats> {
        self.entities.iter().find(|e| e.id == id)
    }

    /// The worst entities, worst first: at most [`JudderReport::worst`] of them.
    #[must_use]
    pub fn worst_entities(&self) -> &[EntityStats] {
        &self.entities[..self.worst.min(self.entities.len())]
    }
}

/// A column of the table: its heading, the group heading above it (if any), and whether its
/// cells are text (left-aligned) rather than numbers.
struct Column {
    group: &'static str,
    heading: &'static str,
    text: bool,
}

/// The table's columns, left to right.
const COLUMNS: [Column; 18] = [
    Column { group: "", heading: "kind", text: true },
    Column { group: "", heading: "entities", text: false },
    Column { group: "", heading: "frames", text: false },
    Column { group: "off pace", heading: "count", text: false },
    Column { group: "off pace", heading: "%", text: false },
    Column { group: "position error (m)", heading: "p50", text: false },
    Column { group: "position error (m)", heading: "p99", text: false },
    Column { group: "position error (m)", heading: "max", text: false },
    Column { group: "delay (ms)", heading: "p50", text: false },
    Column { group: "delay (ms)", heading: "min", text: false },
    Column { group: "delay (ms)", heading: "max", text: false },
    Column { group: "", heading: "pops", text: false },
    Column { group: "", heading: "reversals", text: false },
    Column { group: "", heading: "slides", text: false },
    Column { group: "", heading: "misplaced", text: false },
    Column { group: "", heading: "early", text: false },
    Column { group: "", heading: "long-way", text: false },
    Column { group: "", heading: "anim-back", text: false },
];

/// Spaces between columns (characters): two, so neighbouring numbers never read as one.
const GAP: usize = 2;

fn cells(row: &KindRow) -> Vec<String> {
    let t = &row.tally;
    let error = Summary::of(&t.position_errors_m);
    let delay = Summary::of(&t.delays_ms);
    let fixed = |value: Option<f64>, places: usize| {
        value.map_or_else(|| "-".to_owned(), |v| format!("{v:.places$}"))
    };
    vec![
        row.kind.clone(),
        row.entities.to_string(),
        t.frames.to_string(),
        t.off_pace.to_string(),
        fixed(t.off_pace_percent(), 1),
        fixed(error.map(|s| s.p50), 3),
        fixed(error.map(|s| s.p99), 3),
        fixed(error.map(|s| s.max), 3),
        fixed(delay.map(|s| s.p50), 1),
        fixed(delay.map(|s| s.min), 1),
        fixed(delay.map(|s| s.max), 1),
        t.pops.to_string(),
        t.reversals.to_string(),
        t.slides.to_string(),
        t.misplaced.to_string(),
        t.early.to_string(),
        t.long_way_turns.to_string(),
        t.anim_backsteps.to_string(),
    ]
}

/// Lays out the table: a line of group headings, a line of headings, one line per row.
fn table(rows: &[&KindRow]) -> String {
    let body: Vec<Vec<String>> = rows.iter().map(|row| cells(row)).collect();
    let mut widths: Vec<usize> = COLUMNS.iter().map(|c| c.heading.len()).collect();
    for line in &body {
        for (width, cell) in widths.iter_mut().zip(line) {
            *width = (*width).max(cell.chars().count());
        }
    }
    // A group heading wider than its columns widens the group's last column.
    let mut start = 0;
    while start < COLUMNS.len() {
        let group = COLUMNS[start].group;
        let end = COLUMNS[start..].iter().take_while(|c| c.group == group).count() + start;
        let span: usize = widths[start..end].iter().sum::<usize>() + GAP * (end - start - 1);
        if group.len() > span {
            widths[end - 1] += group.len() - span;
        }
        start = end;
    }

    let mut out = String::new();
    let mut groups = String::new();
    let mut start = 0;
    while start < COLUMNS.len() {
        let group = COLUMNS[start].group;
        let end = COLUMNS[start..].iter().take_while(|c| c.group == group).count() + start;
        let span: usize = widths[start..end].iter().sum::<usize>() + GAP * (end - start - 1);
        if start > 0 {
            groups.push_str(&" ".repeat(GAP));
        }
        groups.push_str(&format!("{group:^span$}"));
        start = end;
    }
    out.push_str(groups.trim_end());
    out.push('\n');
    let headings: Vec<String> = COLUMNS.iter().map(|c| c.heading.to_owned()).collect();
    for line in std::iter::once(&headings).chain(&body) {
        let mut text = String::new();
        for (i, (cell, column)) in line.iter().zip(&COLUMNS).enumerate() {
            let width = widths[i];
            if i > 0 {
                text.push_str(&" ".repeat(GAP));
            }
            if column.text {
                text.push_str(&format!("{cell:<width$}"));
            } else {
                text.push_str(&format!("{cell:>width$}"));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

impl fmt::Display for JudderReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "judder: {} frames of {} against {}: {} entities",
            self.frames,
            self.drawn.display(),
            self.truth.display(),
            self.all.entities,
        )?;
        writeln!(f)?;
        let mut rows: Vec<&KindRow> = self.kinds.iter().collect();
        rows.push(&self.all);
        f.write_str(&table(&rows))?;
        writeln!(f)?;
        writeln!(
            f,
            "frames: consecutive frame pairs drawing the entity, with truth at both ends; off pace %: \
             of the {} where it truly moves over {MOVING_M_S} m/s",
            self.all.tally.paced,
        )?;
        writeln!(
            f,
            "misplaced: over {MISPLACED_M} m from the truth within {:.0} s of a jump; early: drawn at a \
             tick before the trace measured it; long-way: yaw turned the other way round; \
             anim-back: animation frame went back, not a loop wrap",
            JUMP_WINDOW_MS / MS_PER_S,
        )?;
        if self.all.tally.unmatched > 0 {
            writeln!(
                f,
                "not measured: {} frame pairs whose entity the truth does not have at the time shown",
                self.all.tally.unmatched,
            )?;
        }
        let worst = self.worst_entities();
        if !worst.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "worst {} (off pace + 10 x (pops + reversals + misplaced + early)):",
                worst.len()
            )?;
            for entity in worst {
                let t = &entity.tally;
                writeln!(
                    f,
                    "  {} {}: score {}; off pace {} of {}, pops {}, reversals {}, misplaced {}, \
                     early {}, slides {}, long-way {}, anim-back {}",
                    entity.kind,
                    entity.id,
                    t.score(),
                    t.off_pace,
                    t.paced,
                    t.pops,
                    t.reversals,
                    t.misplaced,
                    t.early,
                    t.slides,
                    t.long_way_turns,
                    t.anim_backsteps,
                )?;
            }
        }
        if let Some(id) = self.local.id {
            writeln!(f)?;
            match self.local.latency() {
                Some(l) => writeln!(
                    f,
                    "local character {id}: input latency over {} changes of the held input: \
                     p50 {:.1} ms, min {:.1} ms, max {:.1} ms, latest on frame {} after it \
                     ({} showed nothing)",
                    self.local.latencies_ms.len(),
                    l.p50,
                    l.min,
                    l.max,
                    self.local.frames_to_show.iter().max().unwrap_or(&0),
                    self.local.unseen_changes,
                )?,
                None => writeln!(
                    f,
                    "local character {id}: no change of the held input to measure ({} showed nothing)",
                    self.local.unseen_changes
                )?,
            }
            if let Some(s) = self.local.standoff() {
                writeln!(
                    f,
                    "camera standoff (change of its distance to the local character, frame to \
                     frame): p50 {:.4} m, p99 {:.4} m, max {:.4} m",
                    s.p50, s.p99, s.max,
                )?;
            }
        }
        if let Some(plot) = &self.plot {
            writeln!(f)?;
            writeln!(f, "plot: {}", plot.display())?;
        }
        Ok(())
    }
}
