//! What the host puts in each tick's snapshot.
//!
//! The host measures every entity at every tick, and sends an entity when its tier's turn
//! comes (tier 1 every tick, tier 2 every 2nd, tier 4 every 4th: ticks that are multiples of
//! the tier) and, at once whatever its turn, when it starts, stops, jumps, is placed
//! elsewhere, changes tier or comes into being. An entity at rest is not sent again until it
//! moves. An entity that stops existing is named in the snapshot's `gone`.

use super::world::{Entity, Kind, State, World};

/// One entity as a snapshot carries it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    /// Its id.
    pub id: u64,
    /// What it is.
    pub kind: Kind,
    /// Its state at the snapshot's tick.
    pub state: State,
    /// Its tier at that tick.
    pub tier: u8,
}

/// One tick's snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The host tick it was measured at.
    pub tick: u32,
    /// The entities sent, in id order.
    pub entities: Vec<Measured>,
    /// The ids that stopped existing at this tick, in id order.
    pub gone: Vec<u64>,
}

/// Whether the host sends `entity` in the snapshot of `tick` (it exists then).
fn sends(entity: &Entity, tick: u32) -> bool {
    let now = entity.state_at(tick);
    let tier = entity.tier_at(tick);
    if tick == 0 || entity.born_at(tick) {
        return true;
    }
    let before = entity.state_at(tick - 1);
    let started_or_stopped = now.at_rest() != before.at_rest();
    let moved_elsewhere = now.leg != before.leg;
    let new_tier = tier != entity.tier_at(tick - 1);
    let turn = !now.at_rest() && tick.is_multiple_of(u32::from(tier));
    started_or_stopped || moved_elsewhere || new_tier || turn
}

/// The snapshots of ticks `0..=world.ticks`, one a tick (an empty one too: it still tells
/// the client where the host's clock is).
#[must_use]
pub fn snapshots(world: &World) -> Vec<Snapshot> {
    (0..=world.ticks)
        .map(|tick| {
            let mut snapshot = Snapshot { tick, entities: Vec::new(), gone: Vec::new() };
            for entity in &world.entities {
                if entity.exists_at(tick) {
                    if sends(entity, tick) {
                        snapshot.entities.push(Measured {
                            id: entity.id,
                            kind: entity.kind,
                            state: *entity.state_at(tick),
                            tier: entity.tier_at(tick),
                        });
                    }
                } else if tick > 0 && entity.exists_at(tick - 1) {
                    snapshot.gone.push(entity.id);
                }
            }
            snapshot
        })
        .collect()
}
