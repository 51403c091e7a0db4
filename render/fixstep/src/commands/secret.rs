//! What a network command is told of a session's secret: `--password` or `--password-file`,
//! made a netcode key; and where a player keeps its rejoin secrets.

use std::path::{Path, PathBuf};

pub use fixstep_netplay::rejoin_file;

use anyhow::Result;
use clap::Args;
use fixstep_net::{Access, Admission, SessionKey};

use super::bad_input;

/// A session's password, as `host`, `join` and `spectate` take it.
#[derive(Clone, Debug, Default, Args)]
pub struct PasswordArgs {
    /// The session's password: only peers that know it can join, and every packet is
    /// encrypted and authenticated with a key made from it. Without one the session is open
    /// (fine on a LAN you trust, not on the internet). A password on the command line shows
    /// in the process list: `--password-file` keeps it out.
    #[arg(long, value_name = "PASSWORD", conflicts_with = "password_file")]
    pub password: Option<String>,
    /// Read the password from the first line of this file.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
}

impl PasswordArgs {
    /// The session key the password makes, if one was given.
    ///
    /// # Errors
    ///
    /// A password file that cannot be read or holds no password, or an empty password.
    pub fn key(&self) -> Result<Option<SessionKey>> {
        let password = match (&self.password, &self.password_file) {
            (Some(password), _) => password.clone(),
            (None, Some(file)) => read_password(file)?,
            (None, None) => return Ok(None),
        };
        let key = SessionKey::from_password(&password).map_err(bad_input)?;
        Ok(Some(key))
    }

    /// What a host asks of its peers.
    ///
    /// # Errors
    ///
    /// As [`key`](Self::key).
    pub fn access(&self) -> Result<Access> {
        Ok(self.key()?.map_or(Access::Open, Access::Key))
    }

    /// What a peer presents.
    ///
    /// # Errors
    ///
    /// As [`key`](Self::key).
    pub fn admission(&self) -> Result<Admission> {
        Ok(self.key()?.map_or(Admission::Open, Admission::Key))
    }
}

/// A password file: its first line is the password, a passphrase of a few words; the rest
/// may hold a comment. More than this is not a password file.
const PASSWORD_FILE: fixstep_runtime::file::FileKind =
    fixstep_runtime::file::FileKind::new("password file", 4_000);

/// The password on the first line of `file`.
fn read_password(file: &Path) -> Result<String> {
    let text = fixstep_runtime::file::read_text(file, PASSWORD_FILE).map_err(bad_input)?;
    let Some(password) = fixstep_net::password_in_file(&text) else {
        return Err(bad_input(anyhow::anyhow!(
            "{}:1: the password file's first line is empty",
            file.display()
        )));
    };
    Ok(password.to_owned())
}
