//! renet reads what netcode decrypted, and a peer that completed netcode's handshake chooses
//! every byte of it: the host's renet reads a connected peer's payloads, a peer's renet the
//! host's. Neither may panic on any bytes, or one player brings down the host (and a host, its
//! players). renet 2.0 alone does (three ways, all in putting slices back together), so the
//! transports check each payload with a `PayloadGuard` first, and so do these endpoints.
//!
//! The floods read random payloads and mutations of real packets (bit flips, cuts,
//! extensions, swapped bytes, header bytes set to the edges of renet's fields) into renet
//! endpoints configured as the transports configure theirs, between the packets of real
//! traffic, so that the channels hold state (half-assembled messages, packets awaiting their
//! acknowledgement) when the bad ones arrive. The inputs follow from a fixed seed: a failure
//! names the input that panicked, and the same run reproduces it. The crafted cases are the
//! shapes the floods found, each alone.

use std::any::Any;
use std::collections::VecDeque;
use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use fixstep_net::connection_config;
use fixstep_net::renet_guard::{Kept, PayloadGuard};
use renet::{ChannelConfig, ClientId, RenetClient, RenetServer, SendType};

/// The peer's client id on the host: any, as the host's renet only keys connections by it.
const PEER: ClientId = 7;

/// Fuzz inputs each flood reads, not counting the real traffic around them: enough that
/// every mutation of every packet shape occurs many times over.
const INPUTS: usize = 200_000;

/// The seed of the flood of the host: fixed, so that a failure reproduces.
const HOST_SEED: u64 = 0x0f1c_57e9_0000_0001;

/// The seed of the flood of a peer: fixed, so that a failure reproduces.
const PEER_SEED: u64 = 0x0f1c_57e9_0000_0002;

/// The longest random payload plus one, bytes: netcode's largest packet, longer than any
/// payload it hands renet (1,300 bytes), so that no length is left out.
const MAX_RANDOM_BYTES: usize = 1_400;

/// renet's packet types: 0 to 4 (small reliable, small unreliable, reliable slice,
/// unreliable slice, acknowledgements). Half the random payloads start with one, so that
/// their random rest is parsed rather than refused at the first byte.
const PACKET_TYPES: usize = 5;

/// renet's slice, bytes: a message longer than this is sent in slices of it.
const SLICE_BYTES: usize = 1_200;

/// renet's slice as the crafted packets write its length, a `u16`.
const SLICE: u16 = SLICE_BYTES as u16;

/// The longest small message, bytes: several share a packet.
const SMALL_MAX: usize = 300;

/// The longest message sent in slices, bytes: four slices, so that a slice has other slices
/// of its message in flight for a mutation of one to meet.
const SLICED_MAX: usize = 4 * SLICE_BYTES;

/// Real packets kept for mutating, the most recent: a few rounds of traffic, so that
/// mutations of one slice meet the other slices of its message.
const CORPUS: usize = 64;

/// The first bytes of a packet, bytes: where renet reads its type, sequence, channel, message
/// id, slice index and count, and lengths. Half the mutations land there, as a flip in a
/// message's body only changes what the message says.
const HEADER_BYTES: usize = 16;

/// The most mutations stacked on one packet.
const MAX_MUTATIONS: usize = 3;

/// The most bytes an extension adds.
const MAX_EXTENSION: usize = 64;

/// Byte values at the edges of the fields renet reads: its packet types and the first unknown
/// one, and first bytes that make a QUIC variable-length integer one, two, four or eight bytes
/// long, with the smallest and largest value of each.
const EDGE_BYTES: [u8; 14] = [0, 1, 2, 3, 4, 5, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xfe, 0xff];

/// One packet of the real traffic in this many is lost, both ways, so that renet resends and
/// its acknowledgements have gaps.
const LOSS_ONE_IN: usize = 8;

/// Payloads the tested end reads between two updates of both ends.
const UPDATE_EVERY: usize = 8;

/// The step of an update: 1 ms, less than the host's socket thread waits between two reads,
/// so that renet's clocks move as little between payloads as on a busy link.
const TICK: Duration = Duration::from_millis(1);

/// One update in this many is a long pause instead of a tick.
const PAUSE_ONE_IN: usize = 64;

/// A long pause: past the 3 s after which renet drops an unfinished unreliable message and
/// forgets a packet never acknowledged, so that those paths run on fuzzed state too.
const PAUSE: Duration = Duration::from_secs(4);

/// The fuzz inputs before a panicking one that its report shows: the state they left may be
/// what panicked.
const REPORTED_HISTORY: usize = 4;

/// splitmix64 (Steele, Lea and Flood, 2014), written here so that the inputs never change
/// with a dependency's version.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`, which is not 0.
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn byte(&mut self) -> u8 {
        self.next_u64().to_le_bytes()[0]
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(len + 8);
        while bytes.len() < len {
            bytes.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        bytes.truncate(len);
        bytes
    }
}

/// An end of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Host,
    Peer,
}

impl End {
    const fn other(self) -> Self {
        match self {
            Self::Host => Self::Peer,
            Self::Peer => Self::Host,
        }
    }
}

/// The host's transport hands renet a payload netcode decrypted from the peer, through the
/// guard it keeps for the peer: the call `netcode.rs` makes. A peer cut off is disconnected,
/// as the host's session does once its goodbye is sent.
fn host_reads(host: &mut RenetServer, guard: &mut PayloadGuard, payload: &[u8]) {
    if guard.to_server(host, PEER, payload) == Kept::CutOff {
        host.disconnect(PEER);
    }
}

/// A peer's transport hands renet a payload netcode decrypted from the host, through its
/// guard: the call `netcode.rs` makes.
fn peer_reads(peer: &mut RenetClient, guard: &mut PayloadGuard, payload: &[u8]) {
    guard.to_client(peer, payload);
}

fn is_reliable(send_type: &SendType) -> bool {
    !matches!(send_type, SendType::Unreliable)
}

/// A host's renet and a connected peer's, configured as the transports configure theirs,
/// with this test as the network between them.
struct Pair {
    host: RenetServer,
    peer: RenetClient,
    /// The channels the host sends on and the peer reads, with their deliveries.
    host_channels: Vec<(u8, SendType)>,
    /// The channels the peer sends on and the host reads.
    peer_channels: Vec<(u8, SendType)>,
    /// The host's checks of what its renet reads, as its transport keeps them.
    host_guard: PayloadGuard,
    /// The peer's.
    peer_guard: PayloadGuard,
}

fn channels(configs: &[ChannelConfig]) -> Vec<(u8, SendType)> {
    configs.iter().map(|c| (c.channel_id, c.send_type.clone())).collect()
}

impl Pair {
    fn new() -> Self {
        let config = connection_config();
        let host_channels = channels(&config.server_channels_config);
        let peer_channels = channels(&config.client_channels_config);
        let mut host = RenetServer::new(config.clone());
        // What the host's transport does when netcode says the peer connected.
        host.add_connection(PEER);
        let mut peer = RenetClient::new(config);
        peer.set_connected();
        let (host_guard, peer_guard) = (PayloadGuard::new(), PayloadGuard::new());
        Self { host, peer, host_channels, peer_channels, host_guard, peer_guard }
    }

    fn connected(&self, end: End) -> bool {
        match end {
            End::Host => self.host.is_connected(PEER),
            End::Peer => self.peer.is_connected(),
        }
    }

    /// `end` reads `payload`, then takes every message it completed, as the transports do
    /// each frame; returns how many it took.
    fn read(&mut self, end: End, payload: &[u8]) -> usize {
        let mut taken = 0;
        self.read_each(end, payload, |_| taken += 1);
        taken
    }

    /// [`read`](Self::read), handing each message taken to `took`, channel by channel in the
    /// order the channels were configured.
    fn read_each(&mut self, end: End, payload: &[u8], mut took: impl FnMut(&[u8])) {
        match end {
            End::Host => {
                host_reads(&mut self.host, &mut self.host_guard, payload);
                for (channel, send_type) in &self.peer_channels {
                    while let Some(message) = self.host.receive_message(PEER, *channel) {
                        if is_reliable(send_type) {
                            self.host_guard.took_reliable();
                        }
                        took(&message);
                    }
                }
            }
            End::Peer => {
                peer_reads(&mut self.peer, &mut self.peer_guard, payload);
                for (channel, send_type) in &self.host_channels {
                    while let Some(message) = self.peer.receive_message(*channel) {
                        if is_reliable(send_type) {
                            self.peer_guard.took_reliable();
                        }
                        took(&message);
                    }
                }
            }
        }
    }

    /// `end` queues a few messages on each of its channels: mostly small, some long enough
    /// to be sliced, unreliable ones too, as a peer that means harm sends whatever it likes.
    fn queue(&mut self, end: End, rng: &mut Rng) {
        let channels = match end {
            End::Host => self.host_channels.len(),
            End::Peer => self.peer_channels.len(),
        };
        for i in 0..channels {
            for _ in 0..rng.below(3) {
                let len = if rng.one_in(4) {
                    SLICE_BYTES + 1 + rng.below(SLICED_MAX - SLICE_BYTES)
                } else {
                    1 + rng.below(SMALL_MAX)
                };
                // renet never looks inside a message: one repeated byte is as good as any.
                let message = vec![rng.byte(); len];
                match end {
                    End::Host => {
                        let channel = self.host_channels[i].0;
                        self.host.send_message(PEER, channel, message);
                    }
                    End::Peer => self.peer.send_message(self.peer_channels[i].0, message),
                }
            }
        }
    }

    /// What `end` sends now.
    fn packets(&mut self, end: End) -> Vec<Vec<u8>> {
        match end {
            End::Host => self.host.get_packets_to_send(PEER).unwrap_or_default(),
            End::Peer => self.peer.get_packets_to_send(),
        }
    }

    fn update(&mut self, step: Duration) {
        self.host.update(step);
        self.peer.update(step);
        // The transport hands the host's events to its session; here nobody needs them.
        while self.host.get_event().is_some() {}
    }
}

/// Runs `f`, turning a panic into what it said.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| panic_message(&*payload))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(2 * bytes.len()), |mut text, byte| {
        let _ = write!(text, "{byte:02x}");
        text
    })
}

/// A payload for the tested end: real, or a fuzz input and how it was made.
struct Input {
    bytes: Vec<u8>,
    /// How a fuzz input was made; `None` for a real packet.
    made: Option<String>,
}

impl Input {
    fn describe(&self) -> String {
        let made = self.made.as_deref().unwrap_or("a real packet");
        format!("{made}: {}", hex(&self.bytes))
    }
}

/// Random bytes, or a real packet mutated.
fn fuzz_input(rng: &mut Rng, corpus: &VecDeque<Vec<u8>>) -> Input {
    if corpus.is_empty() || rng.one_in(4) {
        let len = rng.below(MAX_RANDOM_BYTES);
        let mut bytes = rng.bytes(len);
        if let Some(first) = bytes.first_mut()
            && rng.one_in(2)
        {
            *first = rng.below(PACKET_TYPES) as u8;
        }
        return Input { bytes, made: Some(format!("{len} random bytes")) };
    }
    let packet = &corpus[rng.below(corpus.len())];
    let mut bytes = packet.clone();
    let mut done = Vec::new();
    for _ in 0..=rng.below(MAX_MUTATIONS) {
        let len = bytes.len();
        match rng.below(5) {
            0 if len > 0 => {
                let (at, bit) = (place(rng, len), rng.below(8));
                bytes[at] ^= 1 << bit;
                done.push(format!("bit {bit} of byte {at} flipped"));
            }
            1 if len > 0 => {
                let cut = rng.below(len);
                bytes.truncate(cut);
                done.push(format!("cut to {cut} bytes"));
            }
            2 => {
                let more = 1 + rng.below(MAX_EXTENSION);
                bytes.extend(rng.bytes(more));
                done.push(format!("{more} random bytes added"));
            }
            3 if len > 1 => {
                let (a, b) = (place(rng, len), place(rng, len));
                bytes.swap(a, b);
                done.push(format!("bytes {a} and {b} swapped"));
            }
            4 if len > 0 => {
                let (at, value) = (place(rng, len), EDGE_BYTES[rng.below(EDGE_BYTES.len())]);
                bytes[at] = value;
                done.push(format!("byte {at} set to {value:#04x}"));
            }
            _ => {}
        }
    }
    let made = format!("a real {}-byte packet, {}", packet.len(), done.join(", "));
    Input { bytes, made: Some(made) }
}

/// A place in a payload of `len` bytes, half the time in its header.
fn place(rng: &mut Rng, len: usize) -> usize {
    if rng.one_in(2) { rng.below(len.min(HEADER_BYTES)) } else { rng.below(len) }
}

/// How a flood went.
#[derive(Debug, Default)]
struct Flood {
    /// Fuzz inputs read.
    inputs: usize,
    /// Fuzz inputs after which the connection was still up: renet took them for packets.
    taken: usize,
    /// Connections used: renet ends one on the first payload it cannot read, and the flood
    /// goes on with a new one.
    connections: usize,
    /// Messages the tested end completed and handed on.
    messages: usize,
    /// Of those, messages a fuzz input completed.
    fuzzed_messages: usize,
}

/// Floods `target`'s renet with fuzz inputs between the real packets of a live connection,
/// until [`INPUTS`] are read; a panic ends it, with a report of the payload that caused it.
fn flood(target: End, seed: u64) -> Result<Flood, String> {
    let mut rng = Rng(seed);
    let mut corpus: VecDeque<Vec<u8>> = VecDeque::with_capacity(CORPUS);
    let mut flood = Flood::default();
    let mut reads = 0;
    while flood.inputs < INPUTS {
        let mut pair = Pair::new();
        flood.connections += 1;
        // This connection's fuzz inputs so far: a panic may come of the state one left.
        let mut history: Vec<Input> = Vec::new();
        let inputs_before = flood.inputs;
        let report = |doing: &str, input: Option<&Input>, history: &[Input], message: &str| {
            let mut text = format!(
                "renet panicked on the {target:?}'s end {doing}, after {} fuzz inputs: {message}",
                history.len() + inputs_before
            );
            if let Some(input) = input {
                let _ = write!(text, "\n  the payload, {}", input.describe());
            }
            if !history.is_empty() {
                let n = history.len();
                let _ = write!(text, "\n  after {n} on this connection, the last of them:");
            }
            for earlier in history.iter().rev().take(REPORTED_HISTORY) {
                let _ = write!(text, "\n  {}", earlier.describe());
            }
            text
        };
        'connection: while pair.connected(target) {
            pair.queue(End::Host, &mut rng);
            pair.queue(End::Peer, &mut rng);
            let sent = guarded(|| pair.packets(target))
                .map_err(|m| report("sending", None, &history, &m))?;
            for packet in sent {
                if rng.one_in(LOSS_ONE_IN) {
                    continue;
                }
                guarded(|| pair.read(target.other(), &packet)).map_err(|m| {
                    let input = Input { bytes: packet.clone(), made: None };
                    report("while the other end read its packet", Some(&input), &history, &m)
                })?;
            }
            let arriving = guarded(|| pair.packets(target.other()))
                .map_err(|m| report("while the other end sent", None, &history, &m))?;
            let mut payloads = Vec::new();
            for packet in arriving {
                if corpus.len() == CORPUS {
                    corpus.pop_back();
                }
                corpus.push_front(packet.clone());
                if !rng.one_in(LOSS_ONE_IN) {
                    payloads.push(Input { bytes: packet, made: None });
                }
                if rng.one_in(2) {
                    payloads.push(fuzz_input(&mut rng, &corpus));
                }
            }
            // A round with no traffic still floods.
            payloads.push(fuzz_input(&mut rng, &corpus));
            for input in payloads {
                let messages = guarded(|| pair.read(target, &input.bytes))
                    .map_err(|m| report("reading", Some(&input), &history, &m))?;
                flood.messages += messages;
                let connected = pair.connected(target);
                if input.made.is_some() {
                    flood.inputs += 1;
                    flood.fuzzed_messages += messages;
                    flood.taken += usize::from(connected);
                    history.push(input);
                }
                if !connected || flood.inputs == INPUTS {
                    break 'connection;
                }
                reads += 1;
                if reads % UPDATE_EVERY == 0 {
                    let step = if rng.one_in(PAUSE_ONE_IN) { PAUSE } else { TICK };
                    guarded(|| pair.update(step))
                        .map_err(|m| report("updating", None, &history, &m))?;
                }
            }
        }
    }
    Ok(flood)
}

/// What a flood must show besides surviving: it reached renet's channels and reassembly,
/// rather than being refused at the first byte every time.
fn assert_reached_the_channels(flood: &Flood) {
    assert_eq!(flood.inputs, INPUTS, "{flood:?}");
    assert!(flood.taken * 10 > flood.inputs, "renet took few inputs for packets: {flood:?}");
    assert!(flood.fuzzed_messages * 100 > flood.inputs, "few fuzzed messages: {flood:?}");
}

#[test]
fn the_hosts_renet_survives_any_payload_from_a_connected_peer() {
    let flood = flood(End::Host, HOST_SEED).unwrap_or_else(|report| panic!("{report}"));
    assert_reached_the_channels(&flood);
}

#[test]
fn a_peers_renet_survives_any_payload_from_its_host() {
    let flood = flood(End::Peer, PEER_SEED).unwrap_or_else(|report| panic!("{report}"));
    assert_reached_the_channels(&flood);
}

/// Rounds of genuine traffic the guards must pass whole.
const GENUINE_ROUNDS: usize = 200;

/// The guards keep nothing genuine from renet: reliable messages of every size, sliced ones
/// among them (a late joiner's state is), all arrive, in order, and neither end is
/// disconnected. A guard that refused a genuine slice would pass every flood above and break
/// every late join.
#[test]
fn the_guards_pass_genuine_traffic_whole_both_ways() {
    let mut pair = Pair::new();
    let reliable = |channels: &[(u8, SendType)]| {
        channels
            .iter()
            .find(|(_, t)| is_reliable(t))
            .map(|(id, _)| *id)
            .expect("a reliable channel")
    };
    let (to_peer, to_host) = (reliable(&pair.host_channels), reliable(&pair.peer_channels));
    let mut rng = Rng(3);
    let (mut sent_up, mut sent_down) = (Vec::new(), Vec::new());
    let (mut got_up, mut got_down) = (Vec::new(), Vec::new());
    for round in 0..GENUINE_ROUNDS + 20 {
        if round < GENUINE_ROUNDS {
            for _ in 0..rng.below(3) {
                let len = 1 + rng.below(SLICED_MAX);
                let down = rng.bytes(len);
                pair.host.send_message(PEER, to_peer, down.clone());
                sent_down.push(down);
                let len = 1 + rng.below(SLICED_MAX);
                let up = rng.bytes(len);
                pair.peer.send_message(to_host, up.clone());
                sent_up.push(up);
            }
        }
        for packet in pair.packets(End::Peer) {
            pair.read_each(End::Host, &packet, |m| got_up.push(m.to_vec()));
        }
        for packet in pair.packets(End::Host) {
            pair.read_each(End::Peer, &packet, |m| got_down.push(m.to_vec()));
        }
        pair.update(Duration::from_millis(10));
    }
    assert!(pair.connected(End::Host) && pair.connected(End::Peer), "a guard disconnected");
    assert_in_order(&got_up, &sent_up, "up");
    assert_in_order(&got_down, &sent_down, "down");
    assert!(
        sent_up.len() > GENUINE_ROUNDS / 2,
        "too little traffic to say anything: {}",
        sent_up.len()
    );
}

/// That `got` is `sent`, message by message in the same order; a failure names the first
/// message that differs rather than printing kilobytes of payload.
fn assert_in_order(got: &[Vec<u8>], sent: &[Vec<u8>], way: &str) {
    if let Some(i) = (0..got.len().min(sent.len())).find(|&i| got[i] != sent[i]) {
        let sent_as = sent.iter().position(|m| *m == got[i]);
        panic!(
            "message {i} {way} differs: {} bytes arrived for {} sent (it is message {sent_as:?} sent)",
            got[i].len(),
            sent[i].len(),
        );
    }
    assert_eq!(
        got.len(),
        sent.len(),
        "messages {way}: {} arrived of {} sent",
        got.len(),
        sent.len()
    );
}

/// A slice packet as renet writes one, for a channel of `send_type`: its type (2 reliable, 3
/// unreliable), sequence 0 (renet only acknowledges it), the channel, one-byte message id,
/// index and count, and `len` bytes of payload behind their two-byte length.
fn slice_packet(
    send_type: &SendType,
    channel: u8,
    id: u8,
    index: u8,
    count: u8,
    len: u16,
) -> Vec<u8> {
    let kind = if matches!(send_type, SendType::Unreliable) { 3 } else { 2 };
    let mut packet = vec![kind, 0, channel, id, index, count];
    // A QUIC variable-length integer: 0b01 in the top bits makes it two bytes long.
    packet.extend_from_slice(&(0x4000 | len).to_be_bytes());
    packet.resize(packet.len() + usize::from(len), 0xa5);
    packet
}

/// Reads `payloads` into a fresh pair's `end`, then lets time pass; says what panicked.
fn survives(end: End, payloads: &[Vec<u8>]) -> Result<(), String> {
    let mut pair = Pair::new();
    for (i, payload) in payloads.iter().enumerate() {
        guarded(|| pair.read(end, payload))
            .map_err(|m| format!("{end:?} reading payload {i}, {}: {m}", hex(payload)))?;
    }
    guarded(|| pair.update(PAUSE)).map_err(|m| format!("{end:?} updating: {m}"))
}

/// Every channel of the transports' configuration, as each end reads it.
fn every_end_and_channel() -> Vec<(End, u8, SendType)> {
    let config = connection_config();
    let host = channels(&config.client_channels_config).into_iter().map(|(c, t)| (End::Host, c, t));
    let peer = channels(&config.server_channels_config).into_iter().map(|(c, t)| (End::Peer, c, t));
    host.chain(peer).collect()
}

#[test]
fn a_slice_numbered_past_the_last_of_its_message_is_survived() {
    for (end, channel, send_type) in every_end_and_channel() {
        // Slice 2 of a message of 2: index out of the message's slices, a full slice long.
        let packet = slice_packet(&send_type, channel, 0, 2, 2, SLICE);
        let result = survives(end, &[packet]);
        assert!(result.is_ok(), "channel {channel} ({send_type:?}): {result:?}");
    }
}

#[test]
fn slices_of_one_message_that_disagree_on_its_slice_count_are_survived() {
    for (end, channel, send_type) in every_end_and_channel() {
        // Slice 0 of a message of 2, then its last slice, claiming a message of 3.
        let first = slice_packet(&send_type, channel, 0, 0, 2, SLICE);
        let last = slice_packet(&send_type, channel, 0, 1, 3, 1);
        let result = survives(end, &[first, last]);
        assert!(result.is_ok(), "channel {channel} ({send_type:?}): {result:?}");
    }
}

#[test]
fn a_slice_count_that_leaves_renet_counting_too_little_memory_is_survived_later() {
    for (end, channel, send_type) in every_end_and_channel() {
        if !matches!(send_type, SendType::Unreliable) {
            continue;
        }
        // Message 5 begun, 4 slices held for it; message 0 begun with 2 and ended claiming
        // 5, which takes more off the count than message 0 added. Nothing panics yet: the
        // pause, renet dropping unfinished message 5, takes its 4 slices off a count that
        // no longer holds them.
        let payloads = [
            slice_packet(&send_type, channel, 5, 0, 4, SLICE),
            slice_packet(&send_type, channel, 0, 0, 2, SLICE),
            slice_packet(&send_type, channel, 0, 1, 5, 1),
        ];
        let result = survives(end, &payloads);
        assert!(result.is_ok(), "channel {channel}: {result:?}");
    }
}
