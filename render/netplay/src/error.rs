//! What can stop a network game.

use std::path::PathBuf;

use fixstep_net::NetError;
use fixstep_runtime::net::{Goodbye, Role};

/// Why a network game cannot go on, or a report cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum NetPlayError {
    /// The socket or the connection failed.
    #[error(transparent)]
    Net(#[from] NetError),
    /// The host refused this peer, and said why: a screen tells a wrong password from a
    /// full game by the goodbye, not by its words.
    #[error("the host refused this {role}: {goodbye}")]
    Refused {
        /// What this peer asked to be.
        role: Role,
        /// The host's reason.
        goodbye: Goodbye,
    },
    /// The state the host sent does not decode.
    #[error("the host's state does not decode: {0}")]
    StateDecode(#[source] postcard::Error),
    /// The state the host sent decodes to another hash than the host said.
    #[error(
        "the host's state arrived damaged: hash {ours:016x} at tick {our_tick} where the host \
         said {theirs:016x} at tick {their_tick}"
    )]
    StateDamaged {
        /// The hash of the state as it arrived.
        ours: u64,
        /// Its tick.
        our_tick: u32,
        /// The hash the host said.
        theirs: u64,
        /// The tick the host said.
        their_tick: u32,
    },
    /// The state the host sent decodes but breaks the rules' invariants for this content (an
    /// index past a list, a reference to nothing): restoring it, or the ticks after, would
    /// fail.
    #[error("the host's state does not fit the rules: {0}")]
    StateRefused(#[source] fixstep_runtime::StateError),
    /// A tick did not run (a wrong tick or number of commands: a bug, or a host that sent
    /// what it should not).
    #[error("a tick does not run: {0}")]
    Tick(#[from] fixstep_runtime::Error),
    /// A state does not encode (a bug).
    #[error("the state does not encode: {0}")]
    Encode(#[source] postcard::Error),
    /// A desync report cannot be written.
    #[error("cannot write the desync report {path}: {source}")]
    Report {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A state in a desync report does not decode or does not serialize as RON.
    #[error("the {whose}'s state of the desync report: {source}")]
    ReportState {
        /// "host" or "peer".
        whose: &'static str,
        /// What is wrong: the state does not decode, or does not serialize as RON.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The metrics' HTTP server cannot listen.
    #[error("cannot serve the metrics on {addr}: {source}")]
    Metrics {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The match's replay cannot be recorded.
    #[error(transparent)]
    Record(#[from] crate::recording::RecordError),
    /// The serving thread could not be started.
    #[error("cannot start the thread serving the socket: {0}")]
    Thread(std::io::Error),
    /// The host was silent for longer than its players wait (its process stopped, its link
    /// down) and they took the match over: it fixes nothing more.
    #[error(
        "this host was silent for over a second and its players took the match over: the match \
         goes on without it"
    )]
    Superseded,
}
