//! What the fuzz targets share: reading a fuzz input as a run of fields, the identity the
//! session targets play under, the scripts of operations they drive a session with, and the
//! settings model compiled from the window crate's own file.
//!
//! The seed generator (`examples/seeds.rs`) writes the same formats with the writers here, so
//! a seed and the target that reads it cannot drift apart.

use std::path::PathBuf;

use fixstep_runtime::ContentDigest;
use fixstep_runtime::net::{Delivery, Identity, PROTOCOL_VERSION};

/// The player's settings as `render/window/src/settings.rs` reads them: the very file, compiled
/// here without the window, its GPU and its menus.
#[path = "../../../render/window/src/settings.rs"]
pub mod settings;

/// The repository's `assets/` folder, which the level, rink and replay targets read the files
/// a level names from, as the program does.
#[must_use]
pub fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

/// The identity every session target's host and peers share: any will do, as long as the
/// seeds' hellos carry the same.
pub const IDENTITY: Identity =
    Identity { protocol: PROTOCOL_VERSION, sim_version: 1, level: ContentDigest(0x5eed) };

/// A fuzz input read front to back: each field takes what it needs, and a field past the end
/// is `None`, which ends the target's reading.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader of `bytes`.
    #[must_use]
    pub const fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// The next byte.
    pub fn byte(&mut self) -> Option<u8> {
        let (&first, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        Some(first)
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes([self.byte()?, self.byte()?]))
    }

    /// A run of bytes: its length (two bytes, little-endian) and then as many bytes as there
    /// are of it, up to that length.
    pub fn chunk(&mut self) -> Option<&'a [u8]> {
        let len = usize::from(self.u16()?);
        let (taken, rest) = self.bytes.split_at(len.min(self.bytes.len()));
        self.bytes = rest;
        Some(taken)
    }

    /// Everything not read yet.
    #[must_use]
    pub const fn rest(self) -> &'a [u8] {
        self.bytes
    }
}

/// Writes a run of bytes as [`Reader::chunk`] reads it.
///
/// # Panics
///
/// If `bytes` is longer than a chunk's two-byte length says (only a seed's own bug).
pub fn push_chunk(out: &mut Vec<u8>, bytes: &[u8]) {
    let len = u16::try_from(bytes.len()).expect("a chunk of at most 65,535 bytes");
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The delivery a byte says: even reliable, odd unreliable.
#[must_use]
pub const fn delivery_of(byte: u8) -> Delivery {
    if byte % 2 == 0 { Delivery::Reliable } else { Delivery::Unreliable }
}

/// The byte that says `delivery`, as [`delivery_of`] reads it.
#[must_use]
pub const fn delivery_byte(delivery: Delivery) -> u8 {
    match delivery {
        Delivery::Reliable => 0,
        Delivery::Unreliable => 1,
    }
}

/// The state hash total the session targets say a tick has, on the host and on every honest
/// peer alike: a report that differs is a desync.
#[must_use]
pub const fn tick_hash(tick: u32) -> u64 {
    (tick as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// What the host session target does, one operation at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostOp<'a> {
    /// The transport connected peer `peer`.
    Connect(u8),
    /// Bytes from `peer` with a delivery.
    Receive {
        /// The peer.
        peer: u8,
        /// How they came.
        delivery: Delivery,
        /// The message.
        bytes: &'a [u8],
    },
    /// The host fixes the next tick and runs it (its hash is [`tick_hash`]).
    FixTick,
    /// Time passes, milliseconds, and the host looks for silent peers.
    Wait(u16),
    /// The transport lost `peer`.
    Disconnect(u8),
    /// The match ends.
    EndMatch,
}

/// Operations of the host session target, in the order the target reads them.
const HOST_OPS: u8 = 6;

impl<'a> HostOp<'a> {
    /// The next operation of `input`.
    pub fn read(input: &mut Reader<'a>) -> Option<Self> {
        Some(match input.byte()? % HOST_OPS {
            0 => Self::Connect(input.byte()?),
            1 => {
                let peer = input.byte()?;
                let delivery = delivery_of(input.byte()?);
                Self::Receive { peer, delivery, bytes: input.chunk()? }
            }
            2 => Self::FixTick,
            3 => Self::Wait(input.u16()?),
            4 => Self::Disconnect(input.byte()?),
            _ => Self::EndMatch,
        })
    }

    /// Appends the operation as [`read`](Self::read) reads it.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Self::Connect(peer) => out.extend_from_slice(&[0, *peer]),
            Self::Receive { peer, delivery, bytes } => {
                out.extend_from_slice(&[1, *peer, delivery_byte(*delivery)]);
                push_chunk(out, bytes);
            }
            Self::FixTick => out.push(2),
            Self::Wait(ms) => {
                out.push(3);
                out.extend_from_slice(&ms.to_le_bytes());
            }
            Self::Disconnect(peer) => out.extend_from_slice(&[4, *peer]),
            Self::EndMatch => out.push(5),
        }
    }
}

/// What the peer session target does, one operation at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerOp<'a> {
    /// Bytes from the host with a delivery.
    Receive {
        /// How they came.
        delivery: Delivery,
        /// The message.
        bytes: &'a [u8],
    },
    /// The peer's player gives its command for the next tick it has not given one for.
    Input,
    /// The peer sends a frame.
    SendFrame,
    /// Time passes, milliseconds.
    Wait(u16),
    /// The peer repeats its newest input.
    Repeat,
}

/// Operations of the peer session target, in the order the target reads them.
const PEER_OPS: u8 = 5;

impl<'a> PeerOp<'a> {
    /// The next operation of `input`.
    pub fn read(input: &mut Reader<'a>) -> Option<Self> {
        Some(match input.byte()? % PEER_OPS {
            0 => {
                let delivery = delivery_of(input.byte()?);
                Self::Receive { delivery, bytes: input.chunk()? }
            }
            1 => Self::Input,
            2 => Self::SendFrame,
            3 => Self::Wait(input.u16()?),
            _ => Self::Repeat,
        })
    }

    /// Appends the operation as [`read`](Self::read) reads it.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Self::Receive { delivery, bytes } => {
                out.extend_from_slice(&[0, delivery_byte(*delivery)]);
                push_chunk(out, bytes);
            }
            Self::Input => out.push(1),
            Self::SendFrame => out.push(2),
            Self::Wait(ms) => {
                out.push(3);
                out.extend_from_slice(&ms.to_le_bytes());
            }
            Self::Repeat => out.push(4),
        }
    }
}

pub mod sessions;
