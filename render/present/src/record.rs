//! Writing what was drawn and what was true, as the drawn log and the truth file of
//! [`format`](crate::format): the measures `fixstep judder` takes of a game's smoothness.
//!
//! Every entity of a game gets one integer id across its kinds, the same in both files (the
//! game's [`Game::truth`] and [`Presentation::record`] give them).

use std::io::Write;
use std::sync::Arc;

use fixstep_runtime::Tick;
use fixstep_runtime::tick::TICK_MICROS;

use crate::format::{DrawnFrame, TruthLine};
use crate::game::{Game, Presentation, SnapshotOf};

/// Milliseconds in a tick, as the truth's times count them.
const TICK_MS: f64 = (TICK_MICROS / 1_000) as f64;

/// What the local player held at a frame, for a drawn log: the held input as its game writes
/// it ([`Game::held_numbers`]) and the time it last changed, from which `fixstep judder`
/// measures the own character's input latency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldMark {
    /// Real time of the latest change of the held input, milliseconds.
    pub since_ms: f64,
    /// What is held.
    pub held: [i32; 4],
}

/// Writes one drawn-log line per frame.
#[derive(Debug)]
pub struct DrawnLog<W: Write> {
    out: W,
    line: DrawnFrame,
}

impl<W: Write> DrawnLog<W> {
    /// A drawn log writing to `out`.
    pub fn new(out: W) -> Self {
        Self { out, line: DrawnFrame::default() }
    }

    /// Writes the line of the frame `presentation` drew last, drawn at `at_ms` of real time,
    /// with what the local player held (marked on the entity the presentation drew as its
    /// own).
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn frame<G: Game>(
        &mut self,
        at_ms: f64,
        presentation: &G::Presentation,
        held: Option<&HeldMark>,
    ) -> std::io::Result<()> {
        self.write(at_ms, held, |line| presentation.record(line))
    }

    /// Writes the line of a frame drawn at `at_ms` that `record` fills in (its render tick,
    /// camera and entities).
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn write(
        &mut self,
        at_ms: f64,
        held: Option<&HeldMark>,
        record: impl FnOnce(&mut DrawnFrame),
    ) -> std::io::Result<()> {
        let line = &mut self.line;
        line.entities.clear();
        line.camera = None;
        record(line);
        line.at_ms = at_ms;
        line.input_ms = held.map(|mark| mark.since_ms);
        if let Some(mark) = held {
            for entity in line.entities.iter_mut().filter(|e| e.local) {
                entity.held = Some(mark.held);
            }
        }
        serde_json::to_writer(&mut self.out, line).map_err(std::io::Error::from)?;
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the destination.
    ///
    /// # Errors
    ///
    /// If flushing fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes one truth line per tick: where everything authoritatively is.
pub struct TruthLog<G: Game, W: Write> {
    out: W,
    content: Arc<G::Content>,
    previous: Option<Arc<SnapshotOf<G>>>,
    line: TruthLine,
}

impl<G: Game, W: Write> std::fmt::Debug for TruthLog<G, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TruthLog").field("t_ms", &self.line.t_ms).finish_non_exhaustive()
    }
}

impl<G: Game, W: Write> TruthLog<G, W> {
    /// A truth log of a game of `content`, writing to `out`.
    pub fn new(out: W, content: Arc<G::Content>) -> Self {
        Self { out, content, previous: None, line: TruthLine::default() }
    }

    /// Writes the line of `snapshot`, the state after `ticks` ticks (`t_ms` = 100 × `ticks`).
    ///
    /// # Errors
    ///
    /// If writing fails.
    pub fn snapshot(&mut self, ticks: Tick, snapshot: &Arc<SnapshotOf<G>>) -> std::io::Result<()> {
        self.line.t_ms = f64::from(ticks.0) * TICK_MS;
        self.line.entities.clear();
        G::truth(&self.content, self.previous.as_deref(), snapshot, &mut self.line.entities);
        self.previous = Some(Arc::clone(snapshot));
        serde_json::to_writer(&mut self.out, &self.line).map_err(std::io::Error::from)?;
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the destination.
    ///
    /// # Errors
    ///
    /// If flushing fails.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
