//! Who may join a host: an open session, or one sealed by a shared secret.
//!
//! netcode connects a peer with a connect token: a public part the peer keeps (the keys its
//! packets are sealed with) and a private part sealed with the host's private key, which the
//! host opens to learn those keys. Whoever holds the private key can mint tokens, so it is the
//! one secret of a session:
//!
//! - an open session ([`Access::Open`]) uses the all-zero key every build knows: packets are
//!   still sealed, but anyone who reaches the port can join, read them and forge them;
//! - a password session ([`Access::Key`]) derives the key from a password
//!   ([`SessionKey::from_password`]); each peer mints its own token with it
//!   ([`Admission::Key`]), so every packet is encrypted and authenticated with keys no one
//!   without the password can learn;
//! - a matchmaker that holds the key could mint tokens and hand them out instead
//!   ([`Admission::Token`]): the host cannot tell the difference, and players never see the
//!   key.
//!
//! A host also reads every connection request's sealed part itself before netcode does
//! ([`check_request`]), to answer a peer whose token it cannot open (another password, or
//! none) or that came too late ([`Refusal`]) instead of leaving it to time out.

use std::net::SocketAddr;
use std::time::Duration;

use chacha20poly1305::aead::AeadInPlace;
use chacha20poly1305::{KeyInit, Tag, XChaCha20Poly1305, XNonce};
use renetcode::{ConnectToken, NETCODE_KEY_BYTES, generate_random_bytes};

use crate::NetError;
use crate::transport::NETCODE_PROTOCOL_ID;

/// The salt of the password hash: Fixstep's own, so a password's key here is not its key in
/// any other program. It cannot be a session's own: a peer knows nothing of the host before
/// it connects, and the host's address differs behind a NAT or a proxy.
const PASSWORD_SALT: &[u8] = b"fixstep session key from a password, v1";

/// How long a token a peer mints is good for, seconds: two minutes. It is used within a
/// second of minting; the rest allows for the host's clock running ahead of the peer's.
pub const TOKEN_EXPIRE_SECONDS: u64 = 120;

/// How long netcode waits for a packet before it drops a connection, seconds: 15, netcode's
/// own default. The lockstep session drops a silent peer after 5 s, sooner, and with a
/// reason.
pub const TOKEN_TIMEOUT_SECONDS: i32 = 15;

/// The address every password token lists beside the one the peer dials, and every password
/// host answers to. netcode's host checks that a token names one of its addresses (so that a
/// matchmaker's token for one server is no good at another); a peer minting its own token
/// cannot know every address the host is reached at (a LAN address, a NAT's, a proxy's), and
/// any host with the password would accept its tokens anyway. Port 0 is never dialled.
const ANY_HOST: SocketAddr =
    SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), 0);

/// The key netcode seals connect tokens with.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionKey([u8; NETCODE_KEY_BYTES]);

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A key is never written to a log.
        f.write_str("SessionKey(..)")
    }
}

impl SessionKey {
    /// The all-zero key of an open session, which every build knows.
    pub const OPEN: Self = Self([0; NETCODE_KEY_BYTES]);

    /// The key a password gives: Argon2id with its recommended costs (19 MiB, two passes),
    /// a few tens of milliseconds once per process, and a great deal for whoever tries
    /// passwords against a captured token.
    ///
    /// # Errors
    ///
    /// If the password is empty.
    pub fn from_password(password: &str) -> Result<Self, NetError> {
        if password.is_empty() {
            return Err(NetError::EmptyPassword);
        }
        let mut key = [0; NETCODE_KEY_BYTES];
        argon2::Argon2::default()
            .hash_password_into(password.as_bytes(), PASSWORD_SALT, &mut key)
            .map_err(NetError::Password)?;
        Ok(Self(key))
    }

    /// A key given as bytes (a matchmaker's).
    #[must_use]
    pub const fn from_bytes(bytes: [u8; NETCODE_KEY_BYTES]) -> Self {
        Self(bytes)
    }

    /// A connect token for the host at `host`, good for [`TOKEN_EXPIRE_SECONDS`] from `now`
    /// (since the Unix epoch), for a connection of a fresh random id.
    ///
    /// # Errors
    ///
    /// If netcode cannot seal it.
    pub fn mint(&self, host: SocketAddr, now: Duration) -> Result<ConnectToken, NetError> {
        let client_id = u64::from_le_bytes(generate_random_bytes());
        ConnectToken::generate(
            now,
            NETCODE_PROTOCOL_ID,
            TOKEN_EXPIRE_SECONDS,
            client_id,
            TOKEN_TIMEOUT_SECONDS,
            vec![host, ANY_HOST],
            None,
            &self.0,
        )
        .map_err(|source| NetError::Token { host, source })
    }

    pub(crate) const fn bytes(&self) -> &[u8; NETCODE_KEY_BYTES] {
        &self.0
    }
}

/// The password a password file's `text` holds (`fixstep host --password-file`): its first
/// line, without the line's end; `None` when that line is empty, as no password is.
#[must_use]
pub fn password_in_file(text: &str) -> Option<&str> {
    let line = text.lines().next().unwrap_or_default().trim_end_matches('\r');
    (!line.is_empty()).then_some(line)
}

/// What a host asks of the peers that connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// Nothing: anyone who reaches the port may join, and packets are sealed with a key
    /// everyone knows. Fine on a LAN one trusts; not on the open internet.
    Open,
    /// A token sealed with this key: a password's, or a matchmaker's.
    Key(SessionKey),
}

impl Access {
    /// The key connect tokens must be sealed with.
    pub(crate) const fn key(&self) -> &SessionKey {
        match self {
            Self::Open => &SessionKey::OPEN,
            Self::Key(key) => key,
        }
    }

    /// The addresses the host answers to beyond its own: a password host any peer's.
    pub(crate) fn extra_addresses(&self) -> Option<SocketAddr> {
        matches!(self, Self::Key(_)).then_some(ANY_HOST)
    }
}

/// What a peer presents to the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Nothing: for an open host.
    Open,
    /// A token the peer mints itself with the session's key (from the password).
    Key(SessionKey),
    /// A token minted by someone who holds the key (a matchmaker).
    Token(Box<ConnectToken>),
}

impl Admission {
    /// Whether it brings a secret (a password's key, or a token).
    #[must_use]
    pub const fn is_sealed(&self) -> bool {
        !matches!(self, Self::Open)
    }

    /// The token to connect to `host` with, at `now` since the Unix epoch.
    pub(crate) fn token(&self, host: SocketAddr, now: Duration) -> Result<ConnectToken, NetError> {
        match self {
            Self::Open => SessionKey::OPEN.mint(host, now),
            Self::Key(key) => key.mint(host, now),
            Self::Token(token) => Ok((**token).clone()),
        }
    }
}

/// A fresh secret for a player's rejoins: 128 bits from the operating system's random source.
#[must_use]
pub fn rejoin_secret() -> fixstep_runtime::net::RejoinSecret {
    fixstep_runtime::net::RejoinSecret(generate_random_bytes())
}

/// Why a host turned a connection request away, as it tells the peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The token is sealed with another key: another password, a password where the host
    /// has none, or none where it has one.
    Key,
    /// The token expired before it arrived: the peer's clock is behind the host's.
    Expired,
}

/// The first bytes of a host's refusal: a first byte no netcode packet has (its low four
/// bits name packet types 0 to 6), so neither end mistakes one for the other.
const REFUSAL_PREFIX: &[u8] = b"\x0ffixstep refuses ";

impl Refusal {
    const fn code(self) -> u8 {
        match self {
            Self::Key => b'k',
            Self::Expired => b'e',
        }
    }

    /// The datagram that says it.
    #[must_use]
    pub fn datagram(self) -> Vec<u8> {
        let mut bytes = REFUSAL_PREFIX.to_vec();
        bytes.push(self.code());
        bytes
    }

    /// The refusal `datagram` says, if it is one.
    #[must_use]
    pub fn read(datagram: &[u8]) -> Option<Self> {
        match datagram.strip_prefix(REFUSAL_PREFIX)? {
            [b'k'] => Some(Self::Key),
            [b'e'] => Some(Self::Expired),
            _ => None,
        }
    }
}

/// A connect token's sealed part, bytes.
const SEALED_BYTES: usize = 1024;

/// A connection request's length, bytes: its type, netcode's version, the protocol id, the
/// expiry, the nonce and the sealed part.
const REQUEST_BYTES: usize = 1 + 13 + 8 + 8 + 24 + SEALED_BYTES;

/// The tag at the end of the sealed part, bytes.
const TAG_BYTES: usize = 16;

/// What the host makes of a connection request before netcode reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestCheck {
    /// Hand it to netcode.
    Pass,
    /// Not for this host (another protocol, a damaged request): drop it unanswered.
    Ignore,
    /// Tell the peer why not.
    Refuse(Refusal),
}

/// Reads connection request `datagram` as netcode would, with `key`, at `now_seconds` since
/// the Unix epoch: whether its sealed part opens, and is still good.
#[must_use]
pub fn check_request(datagram: &[u8], key: &SessionKey, now_seconds: u64) -> RequestCheck {
    if datagram.len() != REQUEST_BYTES {
        return RequestCheck::Ignore;
    }
    let (version, rest) = datagram[1..].split_at(13);
    let (protocol, rest) = rest.split_at(8);
    let (expire, rest) = rest.split_at(8);
    let (nonce, sealed) = rest.split_at(24);
    let protocol = u64::from_le_bytes(protocol.try_into().unwrap_or_default());
    if protocol != NETCODE_PROTOCOL_ID || version != b"NETCODE 1.02\0" {
        return RequestCheck::Ignore;
    }
    let expire_seconds = u64::from_le_bytes(expire.try_into().unwrap_or_default());
    // What netcode authenticates along with the sealed part: the version, protocol id and
    // expiry as they came (the request's bytes 1 to 29).
    let aad = &datagram[1..1 + 13 + 8 + 8];
    let mut plain = [0u8; SEALED_BYTES];
    plain.copy_from_slice(sealed);
    let split = plain.len() - TAG_BYTES;
    let (body, tag) = plain.split_at_mut(split);
    let tag = *Tag::from_slice(tag);
    let cipher = XChaCha20Poly1305::new(key.bytes().into());
    if cipher.decrypt_in_place_detached(XNonce::from_slice(nonce), aad, body, &tag).is_err() {
        return RequestCheck::Refuse(Refusal::Key);
    }
    if now_seconds >= expire_seconds {
        return RequestCheck::Refuse(Refusal::Expired);
    }
    RequestCheck::Pass
}

#[cfg(test)]
mod tests {
    use super::*;
    use renetcode::{ClientAuthentication, NetcodeClient};

    /// A connection request for `token`, as netcode's client sends it first.
    fn request(token: ConnectToken, now: Duration) -> Vec<u8> {
        let authentication = ClientAuthentication::Secure { connect_token: token };
        let mut client = NetcodeClient::new(now, authentication).expect("a client");
        client.update(Duration::ZERO).expect("a request").0.to_vec()
    }

    #[test]
    fn a_request_opens_with_its_password_only_and_only_while_it_is_good() {
        let host: SocketAddr = "127.0.0.1:7465".parse().expect("an address");
        let now = Duration::from_secs(1_800_000_000);
        let key = SessionKey::from_password("hunter2").expect("a key");
        let other = SessionKey::from_password("hunter3").expect("a key");
        assert_ne!(key, other, "another password, another key");
        let sealed = request(key.mint(host, now).expect("a token"), now);
        assert_eq!(check_request(&sealed, &key, now.as_secs()), RequestCheck::Pass);
        let refused = RequestCheck::Refuse(Refusal::Key);
        assert_eq!(check_request(&sealed, &other, now.as_secs()), refused, "another password");
        assert_eq!(check_request(&sealed, &SessionKey::OPEN, now.as_secs()), refused, "none");
        let open = request(SessionKey::OPEN.mint(host, now).expect("a token"), now);
        assert_eq!(check_request(&open, &key, now.as_secs()), refused, "a password asked for");
        let later = now.as_secs() + TOKEN_EXPIRE_SECONDS;
        let expired = RequestCheck::Refuse(Refusal::Expired);
        assert_eq!(check_request(&sealed, &key, later), expired, "a token past its time");
        let mut damaged = sealed.clone();
        damaged[100] ^= 1;
        assert_eq!(check_request(&damaged, &key, now.as_secs()), refused, "a damaged token");
        assert_eq!(check_request(&sealed[..500], &key, now.as_secs()), RequestCheck::Ignore);
        assert!(SessionKey::from_password("").is_err(), "an empty password is refused");
    }

    #[test]
    fn a_refusal_reads_back_and_nothing_else_reads_as_one() {
        for refusal in [Refusal::Key, Refusal::Expired] {
            assert_eq!(Refusal::read(&refusal.datagram()), Some(refusal));
            assert!(!crate::netcode::well_formed(&refusal.datagram()), "never a netcode packet");
        }
        assert_eq!(Refusal::read(b"\x0ffixstep refuses x"), None);
        assert_eq!(Refusal::read(&[0x0f]), None);
    }
}
