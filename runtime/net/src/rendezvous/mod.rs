//! Reaching a host behind a home router by a code: a rendezvous lists hosts under join codes
//! ([`crate::join_code`]), tells a joiner where its host may be reached and the host where its
//! joiner may be, and both then probe each other's addresses at once. A datagram sent out
//! through a router opens the way back for its answer, so when each side sends to the other,
//! the usual home routers (one public port for all of a socket's destinations) each let the
//! other's datagrams in: hole punching. The session then runs on the socket the probes went
//! from, directly.
//!
//! ```text
//! host                      rendezvous                     joiner
//!  |-- List {secret, cands} -->|                              |
//!  |<-- Listed {code, seen} ---|                              |
//!  |                           |<-- Lookup {code, cands} -----|
//!  |<-- Wanted {joiner cands} -|--- Found {host cands} ------>|
//!  |-- probe ------------------------------------------------>|   (opens the host's router)
//!  |<------------------------------------------------ probe --|   (opens the joiner's)
//!  |-- answer ----------------------------------------------->|   the joiner dials it
//! ```
//!
//! The rendezvous holds only who is waiting for whom: it never sees a session's packets, and
//! knows nothing of the game. Everything here is sans-IO but [`serve`] and [`dial`], which
//! drive [`RendezvousServer`] and [`Dial`] on a socket.

mod dial;
mod listing;
mod message;
mod server;

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use dial::{Dial, DialError, Dialled};
pub use listing::{Listing, ListingEvent};
pub use message::{
    Answer, Candidate, ListingSecret, MAX_CANDIDATES, PathKind, Probe, REQUEST_BYTES, Request,
    is_rendezvous,
};
pub use server::{
    LISTING_TIMEOUT, MAX_LISTINGS, MAX_LISTINGS_PER_IP, REQUESTS_PER_SECOND, RendezvousServer,
};

use crate::join_code::JoinCode;
use crate::stun::{StunQuery, is_stun};

/// The port a rendezvous listens on unless told: next to the game's ports
/// ([`crate::lan::LAN_PORTS`]), unassigned by IANA.
pub const DEFAULT_RENDEZVOUS_PORT: u16 = 7480;

/// How often a listed host renews its listing: every 5 seconds, which also keeps its router's
/// mapping towards the rendezvous open (home routers forget an idle UDP mapping after 30 s
/// or more), so the joiners' news reaches it.
pub const LIST_EVERY: Duration = Duration::from_secs(5);

/// How often each side probes the other's addresses while punching: every 100 ms, a tick,
/// so a path opens within a round trip and a tenth of a second of the later side's first
/// probe, at a few hundred bytes a second.
pub const PROBE_EVERY: Duration = Duration::from_millis(100);

/// How long a host punches towards a joiner after the rendezvous announced it: 5 seconds,
/// renewed while the joiner keeps looking up.
pub const PUNCH_FOR: Duration = Duration::from_secs(5);

/// How often a joiner asks the rendezvous until it answers: four times a second, so a lost
/// datagram costs a quarter of a second.
pub const LOOKUP_EVERY: Duration = Duration::from_millis(250);

/// How long a joiner dials before it gives up: 10 seconds, as long as it waits for a host's
/// welcome once connected; a path that opens at all opens within a second.
pub const DIAL_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a joiner waits for a direct path once a relay answered: a second from its first
/// probe. A relay answers as soon as a direct path would, and costs a detour, so a direct
/// path that opens within a second (a round trip after the host's first punch) is taken.
pub const RELAY_GRACE: Duration = Duration::from_secs(1);

/// The longest datagram a dialling joiner reads, bytes: an Ethernet frame's payload, more
/// than any rendezvous answer, probe or STUN answer.
const MAX_DATAGRAM_BYTES: usize = 1_500;

/// How long a socket loop waits for a datagram before it looks at its timers: 10 ms, far
/// finer than [`PROBE_EVERY`].
const WAIT: Duration = Duration::from_millis(10);

/// Whether a socket's error only means nothing came: a read timed out or was interrupted, or
/// an earlier datagram's destination was unreachable (a probe of a candidate that leads
/// nowhere).
fn nothing_now(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock
            | io::ErrorKind::TimedOut
            | io::ErrorKind::Interrupted
            | io::ErrorKind::ConnectionReset
    )
}

/// Dials `code` at `rendezvous` on `socket` (the joiner's session then runs on it), giving
/// `candidates` besides the address the rendezvous sees, and the public address the STUN
/// servers `stun` see once one answers: blocks until a path to the host answers, or for at
/// most [`DIAL_TIMEOUT`].
///
/// # Errors
///
/// Why no path was found, or the socket's failure.
pub fn dial(
    socket: &UdpSocket,
    rendezvous: SocketAddr,
    code: JoinCode,
    candidates: Vec<Candidate>,
    stun: Vec<SocketAddr>,
) -> Result<Dialled, DialError> {
    let mut dial = Dial::new(rendezvous, code, candidates);
    let mut query = StunQuery::new(stun);
    let start = Instant::now();
    socket.set_read_timeout(Some(WAIT)).map_err(DialError::Socket)?;
    let mut buffer = [0u8; MAX_DATAGRAM_BYTES];
    loop {
        let sends = dial.poll(start.elapsed()).into_iter().chain(query.poll(start.elapsed()));
        for (to, datagram) in sends {
            // An address that cannot be sent to (another network's) is one candidate less.
            let _ = socket.send_to(&datagram, to);
        }
        if let Some(outcome) = dial.outcome() {
            return outcome;
        }
        match socket.recv_from(&mut buffer) {
            Ok((len, from)) if is_stun(&buffer[..len]) => {
                if query.receive(from, &buffer[..len])
                    && let Some((address, _)) = query.learned()
                {
                    dial.add_candidate(Candidate { kind: PathKind::Public, address });
                }
            }
            Ok((len, from)) => {
                if let Some((to, answer)) = dial.receive(from, &buffer[..len], start.elapsed()) {
                    let _ = socket.send_to(&answer, to);
                }
            }
            Err(e) if nothing_now(&e) => {}
            Err(e) => return Err(DialError::Socket(e)),
        }
    }
}

/// Dials `code` at `rendezvous` as [`dial`] does, from a socket bound for it on every local
/// address (the session then runs on it, returned with where the host answered), giving its
/// address on this machine's network as a candidate for a host on the same network.
///
/// # Errors
///
/// If no socket can be bound, or no path was found.
pub fn dial_anew(
    rendezvous: SocketAddr,
    code: JoinCode,
    stun: Vec<SocketAddr>,
) -> Result<(UdpSocket, Dialled), DialError> {
    let socket = UdpSocket::bind(crate::transport::any_address_towards(rendezvous))
        .map_err(DialError::Socket)?;
    let port = socket.local_addr().map_err(DialError::Socket)?.port();
    let local = crate::lan::lan_address()
        .map(|ip| Candidate { kind: PathKind::Local, address: SocketAddr::new(ip, port) });
    let dialled = dial(&socket, rendezvous, code, local.into_iter().collect(), stun)?;
    Ok((socket, dialled))
}

/// Serves a rendezvous on `socket` until `stop` is set: every datagram to
/// [`RendezvousServer::receive`], the lapsed listings forgotten once a second.
///
/// # Errors
///
/// If the socket fails.
pub fn serve(
    socket: &UdpSocket,
    server: &mut RendezvousServer,
    stop: &AtomicBool,
) -> io::Result<()> {
    /// How often lapsed listings are looked for: once a second, a twentieth of their life.
    const EXPIRE_EVERY: Duration = Duration::from_secs(1);
    let start = Instant::now();
    let mut expired_at = Duration::ZERO;
    socket.set_read_timeout(Some(WAIT.max(Duration::from_millis(100))))?;
    let mut buffer = [0u8; REQUEST_BYTES + 1];
    while !stop.load(Ordering::Relaxed) {
        match socket.recv_from(&mut buffer) {
            Ok((len, from)) => {
                for (to, datagram) in server.receive(from, &buffer[..len], start.elapsed()) {
                    let _ = socket.send_to(&datagram, to);
                }
            }
            Err(e) if nothing_now(&e) => {}
            Err(e) => return Err(e),
        }
        let now = start.elapsed();
        if now.saturating_sub(expired_at) >= EXPIRE_EVERY {
            server.expire(now);
            expired_at = now;
        }
    }
    Ok(())
}
