//! What the host measured of one entity at one tick.

use glam::Vec3;

/// How an entity moves between measurements, which decides how it is drawn there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Motion {
    /// A car: its velocity changes smoothly, so it is drawn on a cubic Hermite curve through
    /// both measured positions with both measured velocities, and its drawn velocity is
    /// continuous at every measurement.
    Vehicle,
    /// A person or an animal: its velocity changes within two or three ticks at moments the
    /// measurements do not tell, so it is drawn on straight segments at each segment's average
    /// speed.
    Walker,
}

/// One measurement of an entity's pose by the host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// The host tick at which it was measured.
    pub tick: u32,
    /// Position, world metres (y up).
    pub pos: Vec3,
    /// Velocity, metres per second.
    pub vel: Vec3,
    /// Heading, radians counter-clockwise seen from above, 0 along +x.
    pub yaw: f32,
    /// The host's own rule: the entity is standing still. The host sends a start and a stop
    /// at once, whatever the entity's turn, and does not send an entity again while it rests.
    pub at_rest: bool,
    /// The entity's snapshot period in ticks (its distance tier): 1, 2 or 4.
    pub tier: u8,
    /// How many times the host has put the entity somewhere new (teleport, respawn, placed).
    pub jumps: u32,
}

impl Measurement {
    /// A measurement of an entity standing still at `pos`, facing `yaw`, in tier 1.
    #[must_use]
    pub const fn at_rest(tick: u32, pos: Vec3, yaw: f32, jumps: u32) -> Self {
        Self { tick, pos, vel: Vec3::ZERO, yaw, at_rest: true, tier: 1, jumps }
    }

    /// A measurement of an entity moving at `vel` (m/s), in tier 1.
    #[must_use]
    pub const fn moving(tick: u32, pos: Vec3, vel: Vec3, yaw: f32, jumps: u32) -> Self {
        Self { tick, pos, vel, yaw, at_rest: false, tier: 1, jumps }
    }

    /// The same measurement in another tier.
    #[must_use]
    pub const fn in_tier(mut self, tier: u8) -> Self {
        self.tier = tier;
        self
    }
}
