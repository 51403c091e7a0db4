//! What renet may read: every payload netcode decrypted is checked here before renet sees it.
//!
//! netcode's encryption keeps strangers out, not a connected peer that means harm, and such a
//! peer chooses every byte renet reads. renet 2.0 trusts some of them:
//!
//! - a reliable or unreliable slice's index is not checked against its message's slice count,
//!   and one past the last slice indexes out of bounds (a panic);
//! - its memory count takes a message's slice count from its first slice and gives it back
//!   by its last one's, so slices that disagree overflow the count (a panic, as overflow
//!   checks are on in every profile), at once or seconds later when an unfinished message is
//!   dropped, or leave it too low, so that the memory limit no longer holds;
//! - a reliable message is kept whatever its id, so zero-length messages with ids far ahead
//!   grow the channel's store without bound, the memory limit counting them as nothing.
//!
//! A [`PayloadGuard`] per connection turns those away: unreliable slices are dropped (the
//! protocol never sends one: no unreliable message is longer than renet's slice), and a
//! reliable slice numbered past its message's last, one whose count differs from the first
//! slice's or exceeds the largest message, or a reliable message too far ahead of the ones
//! handed on, ends the connection (only a peer that means harm sends them). Everything else
//! renet reads or refuses without panicking (`runtime/net/tests/renet_payloads.rs`).

use std::collections::HashMap;

use fixstep_runtime::net::wire::MAX_RELIABLE_BYTES;
use renet::{ClientId, RenetClient, RenetServer};

/// renet 2.0's packet type (a payload's first byte) of a packet of small reliable messages.
const SMALL_RELIABLE: u8 = 0;

/// renet 2.0's packet type of a slice of a reliable message.
const RELIABLE_SLICE: u8 = 2;

/// renet 2.0's packet type of a slice of an unreliable message.
const UNRELIABLE_SLICE: u8 = 3;

/// renet 2.0's packet type of a packet of acknowledgements.
pub const ACK: u8 = 4;

/// renet 2.0's slice, bytes: a longer message is sent in slices of this size.
const SLICE_BYTES: usize = 1_200;

/// The most slices of a reliable message: the largest message the protocol sends, in slices.
const MAX_SLICES: u64 = MAX_RELIABLE_BYTES.div_ceil(SLICE_BYTES) as u64;

/// How far ahead of the oldest reliable message not yet handed on a message's id may be:
/// 1,024. A game sends ten or twenty a second each way, and a peer silent for five seconds is
/// dropped, so a link worth playing on never has more than a few hundred in flight.
const MAX_RELIABLE_AHEAD: u64 = 1_024;

/// What to do with a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// renet may read it.
    Read,
    /// Drop it unread (and count it): it is no part of the protocol, but a lost datagram could
    /// look the same.
    Drop,
    /// End the connection: only a peer that means harm sends this.
    Disconnect,
}

/// What became of a payload a host's guard checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// renet read it.
    Read,
    /// It was dropped unread.
    Dropped,
    /// It was dropped, and showed the peer means harm: nothing more of its is read, and the
    /// host should end its connection (telling it why).
    CutOff,
}

/// One connection's checks of what renet reads; see the [module documentation](self).
#[derive(Debug, Default)]
pub struct PayloadGuard {
    /// A payload showed the peer means harm: nothing more of its is read.
    cut: bool,
    /// The slice count of each reliable message being assembled, as its first slice gave it.
    slice_counts: HashMap<u64, u64>,
    /// Reliable messages handed on: the id of the oldest one not yet (the channel is ordered).
    taken: u64,
    /// A reliable packet came since the last acknowledgement went.
    owes_ack: bool,
}

impl PayloadGuard {
    /// A new connection's guard.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether an acknowledgement is owed, and so to send renet's next one: true once after
    /// a reliable packet came. renet writes one every time it is asked for its packets, a
    /// datagram every look at the socket however little there is to say; only the other end's
    /// reliable messages need them (their resends stop on them), and the steady traffic
    /// (frames, sent unreliably) repeats what was not acknowledged on its own.
    pub fn owes_ack(&mut self) -> bool {
        core::mem::take(&mut self.owes_ack)
    }

    /// Whether renet may read `payload`.
    fn check(&mut self, payload: &[u8]) -> Verdict {
        let Some((&kind, rest)) = payload.split_first() else { return Verdict::Read };
        self.owes_ack |= kind == SMALL_RELIABLE || kind == RELIABLE_SLICE;
        match kind {
            UNRELIABLE_SLICE => Verdict::Drop,
            RELIABLE_SLICE => self.check_slice(rest),
            SMALL_RELIABLE => self.check_small(rest),
            _ => Verdict::Read,
        }
    }

    /// Hands `payload` from `client` to the host's renet if it may read it; a payload only
    /// harm sends cuts the client off (the caller ends its connection, saying why).
    pub fn to_server(
        &mut self,
        server: &mut RenetServer,
        client: ClientId,
        payload: &[u8],
    ) -> Kept {
        if self.cut {
            return Kept::Dropped;
        }
        match self.check(payload) {
            // A payload renet cannot read (from a peer that speaks it wrong) is dropped.
            Verdict::Read => drop(server.process_packet_from(payload, client)),
            Verdict::Drop => return Kept::Dropped,
            Verdict::Disconnect => {
                self.cut = true;
                return Kept::CutOff;
            }
        }
        Kept::Read
    }

    /// Hands `payload` from the host to a peer's renet if it may read it; ends the connection
    /// if only harm sends it. Returns whether it was kept from renet.
    pub fn to_client(&mut self, client: &mut RenetClient, payload: &[u8]) -> bool {
        match self.check(payload) {
            Verdict::Read => client.process_packet(payload),
            Verdict::Drop => return true,
            Verdict::Disconnect => {
                client.disconnect_due_to_transport();
                return true;
            }
        }
        false
    }

    /// The reliable channel handed a message on.
    pub fn took_reliable(&mut self) {
        self.slice_counts.remove(&self.taken);
        self.taken += 1;
    }

    /// A reliable slice after its type: sequence, channel, message id, index, count. One that
    /// does not parse is left to renet, which refuses it.
    fn check_slice(&mut self, mut rest: &[u8]) -> Verdict {
        let header = (|| {
            varint(&mut rest)?;
            take(&mut rest, 1)?;
            Some((varint(&mut rest)?, varint(&mut rest)?, varint(&mut rest)?))
        })();
        let Some((message, index, count)) = header else { return Verdict::Read };
        if message < self.taken {
            // Of a message already handed on: renet ignores it.
            return Verdict::Read;
        }
        if index >= count || count > MAX_SLICES || message - self.taken >= MAX_RELIABLE_AHEAD {
            return Verdict::Disconnect;
        }
        if *self.slice_counts.entry(message).or_insert(count) != count {
            return Verdict::Disconnect;
        }
        Verdict::Read
    }

    /// Small reliable messages after their type: sequence, channel, a `u16` count, then each
    /// message's id and its bytes (length first). One that does not parse is left to renet.
    fn check_small(&self, mut rest: &[u8]) -> Verdict {
        let ahead = (|| {
            varint(&mut rest)?;
            take(&mut rest, 1)?;
            let count = take(&mut rest, 2)?;
            let mut ahead = false;
            for _ in 0..u16::from_be_bytes([count[0], count[1]]) {
                let id = varint(&mut rest)?;
                let len = usize::try_from(varint(&mut rest)?).ok()?;
                take(&mut rest, len)?;
                ahead |= id.saturating_sub(self.taken) >= MAX_RELIABLE_AHEAD;
            }
            Some(ahead)
        })();
        if ahead == Some(true) { Verdict::Disconnect } else { Verdict::Read }
    }
}

/// Takes `n` bytes off the front of `bytes`.
fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    let (taken, rest) = bytes.split_at_checked(n)?;
    *bytes = rest;
    Some(taken)
}

/// Takes one of renet's variable-length integers (QUIC's: the first byte's top two bits make
/// it 1, 2, 4 or 8 bytes long, big-endian) off the front of `bytes`.
fn varint(bytes: &mut &[u8]) -> Option<u64> {
    let first = *bytes.first()?;
    let number = take(bytes, 1 << (first >> 6))?;
    Some(number[1..].iter().fold(u64::from(first & 0x3f), |n, &b| (n << 8) | u64::from(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reliable slice's bytes: type, sequence 0, channel 0, then the three numbers, each in
    /// one byte, and a body of `len` bytes (length in two).
    fn slice(message: u8, index: u8, count: u8, len: u16) -> Vec<u8> {
        let mut bytes = vec![RELIABLE_SLICE, 0, 0, message, index, count];
        bytes.extend_from_slice(&(0x4000 | len).to_be_bytes());
        bytes.resize(bytes.len() + usize::from(len), 0xa5);
        bytes
    }

    #[test]
    fn varints_read_as_quic_writes_them() {
        let mut one: &[u8] = &[0x25, 9];
        assert_eq!(varint(&mut one), Some(0x25));
        assert_eq!(one, [9]);
        let mut two: &[u8] = &[0x7b, 0xbd];
        assert_eq!(varint(&mut two), Some(15_293));
        let mut eight: &[u8] = &[0xc2, 0x19, 0x7c, 0x5e, 0xff, 0x14, 0xe8, 0x8c];
        assert_eq!(varint(&mut eight), Some(151_288_809_941_952_652));
        let mut short: &[u8] = &[0x80, 1];
        assert_eq!(varint(&mut short), None, "four bytes promised, two there");
    }

    #[test]
    fn a_slice_past_its_messages_last_ends_the_connection() {
        let mut guard = PayloadGuard::new();
        assert_eq!(guard.check(&slice(0, 0, 2, 1_200)), Verdict::Read);
        assert_eq!(guard.check(&slice(0, 2, 2, 1_200)), Verdict::Disconnect);
    }

    #[test]
    fn slices_that_disagree_on_their_count_end_the_connection() {
        let mut guard = PayloadGuard::new();
        assert_eq!(guard.check(&slice(0, 0, 2, 1_200)), Verdict::Read);
        assert_eq!(guard.check(&slice(0, 1, 3, 1)), Verdict::Disconnect);
        // Once the message is handed on, its id's slices are renet's to ignore.
        let mut guard = PayloadGuard::new();
        assert_eq!(guard.check(&slice(0, 0, 2, 1_200)), Verdict::Read);
        guard.took_reliable();
        assert_eq!(guard.check(&slice(0, 1, 3, 1)), Verdict::Read);
        assert_eq!(guard.check(&slice(1, 0, 3, 1_200)), Verdict::Read);
    }

    #[test]
    fn unreliable_slices_are_dropped() {
        let mut bytes = slice(0, 0, 2, 1_200);
        bytes[0] = UNRELIABLE_SLICE;
        assert_eq!(PayloadGuard::new().check(&bytes), Verdict::Drop);
    }

    #[test]
    fn a_reliable_message_far_ahead_ends_the_connection() {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "the ids here are at most MAX_RELIABLE_AHEAD, far below 2^31"
        )]
        let small = |id: u64| {
            let mut bytes = vec![SMALL_RELIABLE, 0, 0, 0, 1];
            bytes.extend_from_slice(&(0x8000_0000 | id as u32).to_be_bytes());
            bytes.push(0);
            bytes
        };
        let mut guard = PayloadGuard::new();
        assert_eq!(guard.check(&small(MAX_RELIABLE_AHEAD - 1)), Verdict::Read);
        assert_eq!(guard.check(&small(MAX_RELIABLE_AHEAD)), Verdict::Disconnect);
        guard.took_reliable();
        assert_eq!(guard.check(&small(MAX_RELIABLE_AHEAD)), Verdict::Read);
        // Cut short, it is renet's to refuse.
        assert_eq!(guard.check(&small(MAX_RELIABLE_AHEAD * 2)[..6]), Verdict::Read);
    }
}
