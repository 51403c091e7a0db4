//! The trace and truth files, as JSON Lines in the traces' format.
//!
//! Positions, velocities, headings and speeds are written to a millionth (a micrometre, a
//! microradian): far finer than anything drawn, and the same number in the trace and the
//! truth, as both round the one state the same way.

use std::io::{self, Write};

use fixstep_present::format::{
    TRACE_FORMAT, TraceEntityLine, TraceEventLine, TraceFrame, TraceHeader, TraceHeaderLine,
    TraceSnapshot, TruthEntity, TruthLine,
};
use serde::Serialize;

use super::host::{Measured, Snapshot};
use super::world::{State, TICK_MS, TRUTH_STEP_MS, World};

/// Microseconds in a millisecond.
const MICROS_PER_MS: f64 = 1000.0;

/// What numbers are rounded to: a millionth.
const ROUNDING: f64 = 1e6;

/// `x` to a millionth, and never `-0` (which would print as `-0.0`).
fn round6(x: f64) -> f64 {
    (x * ROUNDING).round() / ROUNDING + 0.0
}

fn round3(v: [f64; 3]) -> [f64; 3] {
    v.map(round6)
}

fn entity_json(m: &Measured) -> TraceEntityLine {
    let s: &State = &m.state;
    TraceEntityLine {
        id: m.id,
        kind: m.kind.as_str().to_owned(),
        pos: round3(s.pos),
        vel: round3(s.vel()),
        yaw: round6(s.yaw),
        at_rest: s.at_rest(),
        tier: m.tier,
        jumps: s.jumps,
    }
}

fn line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

fn ms(us: i64) -> f64 {
    // Client times are under an hour: exact in an f64 of microseconds.
    us as f64 / MICROS_PER_MS
}

/// Writes the trace: the header, then the snapshots at their arrival times and the frames,
/// in time order. A snapshot arriving at the very microsecond of a frame comes first, so that
/// frame sees it.
///
/// # Errors
///
/// Writing fails.
pub fn trace(
    out: &mut impl Write,
    snapshots: &[Snapshot],
    arrivals_us: &[i64],
    frames_us: &[i64],
) -> io::Result<()> {
    let header = TraceHeader { format: TRACE_FORMAT, tick_ms: f64::from(TICK_MS) };
    line(out, &TraceHeaderLine { header })?;
    let frame = |at_us: i64| TraceEventLine {
        at_ms: ms(at_us),
        snapshot: None,
        frame: Some(TraceFrame {}),
    };
    let mut frames = frames_us.iter().peekable();
    for (snapshot, &at_us) in snapshots.iter().zip(arrivals_us) {
        while let Some(&&frame_us) = frames.peek()
            && frame_us < at_us
        {
            line(out, &frame(frame_us))?;
            frames.next();
        }
        let entities = snapshot.entities.iter().map(entity_json).collect();
        let measured = TraceSnapshot { tick: snapshot.tick, entities, gone: snapshot.gone.clone() };
        line(out, &TraceEventLine { at_ms: ms(at_us), snapshot: Some(measured), frame: None })?;
    }
    for &frame_us in frames {
        line(out, &frame(frame_us))?;
    }
    Ok(())
}

/// Writes the truth: a line every [`TRUTH_STEP_MS`] of host time over the whole world, with
/// every entity that exists then, in id order.
///
/// # Errors
///
/// Writing fails.
pub fn truth(out: &mut impl Write, world: &World) -> io::Result<()> {
    let mut t_ms = 0;
    while t_ms <= world.ticks * TICK_MS {
        let entities = world
            .entities
            .iter()
            .filter(|e| e.exists_at_ms(t_ms))
            .map(|e| {
                let s = e.state_at_ms(t_ms);
                TruthEntity {
                    id: e.id,
                    pos: round3(s.pos),
                    yaw: round6(s.yaw),
                    speed: round6(s.speed),
                    jumps: s.jumps,
                    leg: Some(s.leg),
                }
            })
            .collect();
        line(out, &TruthLine { t_ms: f64::from(t_ms), entities })?;
        t_ms += TRUTH_STEP_MS;
    }
    Ok(())
}
