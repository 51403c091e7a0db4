//! Joining or watching by join code from a window: the code is dialled at the rendezvous on a
//! thread of its own (it takes a round trip to a second when a relay is the way, up to ten
//! when nothing answers), so the window keeps drawing its front screen meanwhile; the game
//! then starts on the socket the path was opened from.

use std::net::{SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::thread::JoinHandle;

use fixstep_net::Admission;
use fixstep_net::join_code::JoinCode;
use fixstep_net::rendezvous::{DialError, Dialled, dial_anew};
use fixstep_netplay::PeerOptions;

/// A join code to dial, and what to do once its host answers.
#[derive(Clone, Debug)]
pub struct CodeDial {
    /// The code.
    pub code: JoinCode,
    /// The rendezvous to look it up at.
    pub rendezvous: SocketAddr,
    /// The STUN servers asked where the internet sees this player.
    pub stun: Vec<SocketAddr>,
    /// Join or watch.
    pub then: AfterDial,
}

/// What a dialled code leads to.
#[derive(Clone, Debug)]
pub enum AfterDial {
    /// Join as these options say (their host is the dialled address).
    Join(PeerOptions),
    /// Watch.
    Spectate {
        /// The spectator's name.
        name: String,
        /// What it presents to the host.
        admission: Admission,
        /// Where to record the match it watches as a replay, if anywhere.
        record: Option<PathBuf>,
    },
}

/// A code being dialled.
#[derive(Debug)]
pub struct Dialling {
    dial: CodeDial,
    thread: Option<JoinHandle<Result<(UdpSocket, Dialled), DialError>>>,
}

/// A dialled code: where its host answered, on which socket, and what to do now.
#[derive(Debug)]
pub struct Answered {
    /// The socket the path was opened from: the session runs on it.
    pub socket: UdpSocket,
    /// Where and how the host answered.
    pub dialled: Dialled,
    /// Join or watch.
    pub then: AfterDial,
}

impl Dialling {
    /// Starts dialling `dial` on a thread of its own.
    ///
    /// # Errors
    ///
    /// If no socket can be bound or no thread started, in words.
    pub fn start(dial_what: CodeDial) -> Result<Self, String> {
        let (rendezvous, code, stun) =
            (dial_what.rendezvous, dial_what.code, dial_what.stun.clone());
        let thread = std::thread::Builder::new()
            .name("dialling a code".to_owned())
            .spawn(move || dial_anew(rendezvous, code, stun))
            .map_err(|e| e.to_string())?;
        Ok(Self { dial: dial_what, thread: Some(thread) })
    }

    /// The code being dialled.
    #[must_use]
    pub const fn code(&self) -> JoinCode {
        self.dial.code
    }

    /// How the dial ended, once it did (taken: `None` after).
    ///
    /// # Errors
    ///
    /// Why the host was not reached, in words.
    pub fn finished(&mut self) -> Option<Result<Answered, String>> {
        if !self.thread.as_ref()?.is_finished() {
            return None;
        }
        let code = self.dial.code;
        let outcome = match self.thread.take()?.join() {
            Ok(Ok((socket, dialled))) => {
                let mut then = self.dial.then.clone();
                if let AfterDial::Join(options) = &mut then {
                    options.host = dialled.host.address;
                }
                Ok(Answered { socket, dialled, then })
            }
            Ok(Err(error)) => Err(format!("cannot reach the match {code}: {error}")),
            Err(_) => Err(format!("dialling {code} failed")),
        };
        Some(outcome)
    }
}
