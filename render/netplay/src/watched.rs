//! A spectator's record of the match it watches.
//!
//! A spectator that asks to record joins as a recorder: the host's welcome brings the state
//! spectators watch from (the spectator delay behind the match, if the host holds spectators
//! back), and every tick after it comes whole, in order. [`WatchedMatch`] runs those ticks on
//! its own simulation and records them with the names the roster gives, so a watched match is
//! kept in the same replay format as a played one, and never newer than the host lets
//! spectators see.

use std::path::Path;
use std::sync::Arc;

use fixstep_runtime::net::Welcome;
use fixstep_runtime::replay::RecordedBy;
use fixstep_runtime::rules::CommandOf;
use fixstep_runtime::{Simulation, TickRecord};

use crate::peer::restore_state;
use crate::recording::{Recording, keep_going};
use crate::{NetPlayError, NetRules};

/// The match as a recorder watches it, run and recorded.
pub struct WatchedMatch<G: NetRules> {
    sim: G::Sim,
    /// The replay, while it is recorded: a file that fails is said once, and watching goes on.
    recording: Option<Recording<G>>,
    /// Every seat's name as the roster last said, a free seat's empty.
    names: Vec<String>,
}

impl<G: NetRules> std::fmt::Debug for WatchedMatch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchedMatch").field("recording", &self.recording).finish_non_exhaustive()
    }
}

impl<G: NetRules> WatchedMatch<G> {
    /// The match from `welcome`'s state, recorded into `path`. `None` when the welcome brings
    /// no state (a host that does not send recorders one) or the file cannot be made: said
    /// once, and the spectator watches on unrecorded.
    ///
    /// # Errors
    ///
    /// A state that does not decode, or does not hash as the host said.
    pub fn start(
        content: &Arc<G::Content>,
        welcome: &Welcome,
        path: &Path,
    ) -> Result<Option<Self>, NetPlayError> {
        if welcome.state.is_empty() {
            tracing::warn!("the host sent no state to record from; watching unrecorded");
            return Ok(None);
        }
        let sim = restore_state::<G>(content, &welcome.state, welcome.hash, welcome.tick)?;
        let recording = Recording::create(path, &**content, &sim, None, RecordedBy::Spectator)
            .map_err(|error| tracing::warn!("{error}; watching unrecorded"))
            .ok();
        Ok(recording.map(|recording| Self { sim, recording: Some(recording), names: Vec::new() }))
    }

    /// The match's next host welcomed this recorder with `welcome` (its host went, and it
    /// followed): the state it watches from there. The same state as its own goes on as it
    /// was; another (the new host watches from a later tick, or holds spectators back
    /// otherwise) is recorded as a state that replaced the match's, and the ticks go on from
    /// it.
    ///
    /// # Errors
    ///
    /// A state that does not decode, or does not hash as the host said.
    pub fn welcomed_again(
        &mut self,
        content: &Arc<G::Content>,
        welcome: &Welcome,
    ) -> Result<(), NetPlayError> {
        let same =
            welcome.tick == self.sim.next_tick() && welcome.hash == self.sim.state_hash().total();
        if same || welcome.state.is_empty() {
            return Ok(());
        }
        self.sim = restore_state::<G>(content, &welcome.state, welcome.hash, welcome.tick)?;
        let sim = &self.sim;
        keep_going(&mut self.recording, |r| r.replaced(sim));
        Ok(())
    }

    /// Runs and records the next tick watched.
    ///
    /// # Errors
    ///
    /// A tick that is not the next or does not run: the host sent what no match could.
    pub fn tick(&mut self, record: &TickRecord<CommandOf<G>>) -> Result<(), NetPlayError> {
        record.run(&mut self.sim)?;
        let (sim, hash) = (&self.sim, self.sim.state_hash().total());
        keep_going(&mut self.recording, |r| r.tick(record, hash, sim));
        Ok(())
    }

    /// Records who sits where, from the host's latest roster: a name where a seat was free
    /// joined, an empty name freed its seat, another name replaced the one before.
    pub fn roster(&mut self, names: &[String]) {
        let tick = self.sim.next_tick();
        keep_going(&mut self.recording, |r| r.roster_names(tick, &self.names, names));
        self.names = names.to_vec();
    }

    /// The replay being written, while it is.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.recording.as_ref().map(Recording::path)
    }

    /// The match as watched so far.
    #[must_use]
    pub const fn sim(&self) -> &G::Sim {
        &self.sim
    }
}
