//! A lab of Linux network namespaces for NAT traversal tests: a friend behind one home router
//! joins a host behind another, across a small internet with a rendezvous and TURN server on
//! it. Each [`Lab`] is five namespaces of its own, named after the process and a counter
//! (`fxl{pid}-{n}-…`), so that the tests of one binary, run in parallel threads, and
//! concurrent runs never share one; [`Lab::exec`] runs a program inside any of them.
//!
//! ```text
//!  lan A  eth0 192.0.2.2      ── lan 192.0.2.1     router A  wan 203.0.113.10 ──┐
//!                                                                      internet br0 203.0.113.1
//!                                                                               203.0.113.2
//!                                                                               203.0.113.3
//!  lan B  eth0 198.51.100.2   ── lan 198.51.100.1  router B  wan 203.0.113.20 ──┘
//! ```
//!
//! Every address is one of the documentation ranges: the internet is 203.0.113.0/24, one
//! layer-2 segment (a bridge in the `internet` namespace, which is also the servers' host), so
//! that the routers reach each other directly, as two homes' public addresses do. Home A's LAN
//! is 192.0.2.0/24 and home B's 198.51.100.0/24: different, so that a peer trying the other
//! home's LAN address reaches nothing (no namespace routes it), as on the real internet.
//!
//! # The NATs
//!
//! Each router masquerades what its LAN sends out of its WAN interface (its own traffic keeps
//! its address untranslated, as a real router's does); the kind of NAT ([`NatKind`]) is the
//! masquerade's port choice:
//!
//! - [`NatKind::EndpointIndependent`]: plain `masquerade`, which keeps a LAN socket's port
//!   while it is free and so gives one public port to every destination of that socket.
//! - [`NatKind::Symmetric`]: `masquerade fully-random`, a random public port for every new
//!   conntrack entry, which is every new destination: two destinations see two ports (equal
//!   only by a 1 in 64,512 chance).
//!
//! Both filter by address and port, which is conntrack's own behaviour: a datagram to the WAN
//! address is translated back to the LAN only as the reply of an existing entry, that is from
//! the very address and port the LAN socket sent to; anything else is the router's own and
//! answered with an ICMP error. The forward chain's drop of what comes in from the WAN
//! (neither a reply nor a UPnP mapping) keeps the internet from reaching the LAN by routing.
//! [`Lab::forget_mappings`] flushes a router's conntrack table, as a router's reboot or a
//! mapping's expiry would.
//!
//! # UPnP and NAT-PMP on router A
//!
//! miniupnpd (2.3.1, Debian's `miniupnpd-nftables`) refuses port forwarding when its WAN
//! address is reserved ("Reserved / private IP address … Port forwarding is impossible"), and
//! its list of reserved blocks holds all three documentation ranges; `ext_ip=` with such an
//! address is refused outright. What it does accept is `ext_perform_stun=yes`: it then asks a
//! STUN server from four sockets, three of them with RFC 5780's CHANGE-REQUEST (answer from the
//! other address, the other port, both), and enables forwarding whatever its own address when
//! all four answers come back with the socket's own address and port, the mark of a router
//! with no NAT or filter in front of it. coturn answers CHANGE-REQUEST when it listens on two
//! addresses, so it listens on 203.0.113.1 and 203.0.113.2 (ports 3478 and 3479), and with it
//! every address stays a documentation one. The router's own STUN sockets are not masqueraded,
//! so this holds whatever router A's [`NatKind`].
//!
//! The LAN side is accepted as it is: miniupnpd wants a "private" LAN, and 192.0.2.0/24 is in
//! its reserved list. The lab writes the nftables tables and chains miniupnpd fills (Debian's
//! scripts for them are not used): in miniupnpd 2.3.1 all of them are in one `inet` table,
//! `filter` by default for both `upnp_table_name` and `upnp_nat_table_name`, with the chains
//! `miniupnpd` (forward), `prerouting_miniupnpd` and `postrouting_miniupnpd` (NAT), each
//! jumped to from the lab's own base chain; the configuration names them all anyway.
//!
//! A client in home A finds the gateway by SSDP. `upnpc` of miniupnpc 2.2.4 takes an IGD
//! whose external address is reserved as not connected and stops there unless given `-i`
//! (its mapping works then); a client of the game's own may check the same.
//!
//! # coturn
//!
//! With [`LabOptions::turn`] (or [`LabOptions::upnp_a`], whose STUN needs it) coturn runs in
//! the `internet` namespace with long-term credentials ([`TurnServer`]), STUN and TURN on
//! 203.0.113.1:3478, relaying from 203.0.113.1's ports [`RELAY_MIN_PORT`] to
//! [`RELAY_MAX_PORT`]. An nftables counter counts the datagrams to and from those ports
//! ([`Lab::relay_counter`]): what the relay carried, both ways.
//!
//! # Cleaning up
//!
//! Dropping a [`Lab`], also while a test panics, kills its daemons and any process left in its
//! namespaces, and removes the namespaces; its directory of configurations and logs goes too,
//! unless a test is failing, when it is kept and named. A run killed before that leaves its
//! namespaces behind: the next [`Lab::build`] removes those whose process is gone.
//!
//! Building one needs root, `ip` and `ss` (iproute2), `nft`, `conntrack`, `miniupnpd` and
//! coturn's `turnserver` and `turnutils_stunclient`: [`lab_or_skip`] says why a test is skipped
//! where they are missing, and fails instead where [`REQUIRE_NETLAB_VAR`] is set, as in CI.

use std::ffi::OsStr;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::net::{Ipv4Addr, SocketAddrV4};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Set to `1` where the lab must be built (CI): a machine that cannot is a failure, not a skip.
pub const REQUIRE_NETLAB_VAR: &str = "FIXSTEP_REQUIRE_NETLAB";

/// What the name of every namespace of a lab starts with, followed by the process id: how a
/// leftover of a run that died is recognised, and its process found gone.
const PREFIX: &str = "fxl";

/// The rendezvous and TURN server's address on the internet (coturn's listening and relay
/// address): the first of the internet's range, the one a reader of a log expects.
pub const SERVER: Ipv4Addr = Ipv4Addr::new(203, 0, 113, 1);

/// The server's second address, which coturn answers STUN's CHANGE-REQUEST from (RFC 5780's
/// "other address"): miniupnpd's check of its public address needs those answers.
pub const SERVER_OTHER: Ipv4Addr = Ipv4Addr::new(203, 0, 113, 2);

/// A host on the internet no home has talked to: where a test sends unsolicited datagrams
/// from, or runs a peer of the TURN relay.
pub const STRANGER: Ipv4Addr = Ipv4Addr::new(203, 0, 113, 3);

/// The length of every prefix of the lab, bits: each network is one documentation /24.
const PREFIX_BITS: u8 = 24;

/// coturn's STUN and TURN port, the protocol's default, which clients assume.
pub const STUN_PORT: u16 = 3478;

/// coturn's other port, which it answers RFC 5780's CHANGE-REQUEST from: the one after its
/// listening port, as coturn picks it.
const STUN_OTHER_PORT: u16 = STUN_PORT + 1;

/// The lowest port coturn relays from: the start of the dynamic range, coturn's default,
/// spelled out because [`Lab::relay_counter`] counts this range.
pub const RELAY_MIN_PORT: u16 = 49152;

/// The highest port coturn relays from: the end of the dynamic range, coturn's default.
pub const RELAY_MAX_PORT: u16 = 65535;

/// miniupnpd's HTTP port for UPnP IGD control on router A's LAN address (its description is
/// at `/rootDesc.xml`): fixed, so a test can name the URL without discovery.
pub const UPNP_HTTP_PORT: u16 = 5000;

/// The NAT-PMP and PCP port, fixed by both protocols; miniupnpd serves both on it.
pub const NAT_PMP_PORT: u16 = 5351;

/// The user of coturn's long-term credentials.
const TURN_USER: &str = "fixstep";

/// The password of coturn's long-term credentials: a lab's, reachable only inside it.
const TURN_PASSWORD: &str = "lab-password";

/// coturn's realm: a reserved example domain, as nothing resolves it.
const TURN_REALM: &str = "lab.example";

/// miniupnpd's device UUID: any fixed one, each lab's daemon being alone on its LAN.
const UPNP_UUID: &str = "8f6a2c1e-4b7d-4e0a-9c3b-2d5e6f708192";

/// The name of every router's WAN interface (each in its own namespace, so names repeat).
const WAN_IF: &str = "wan";

/// The name of every router's LAN interface.
const LAN_IF: &str = "lan";

/// The name of the LAN host's interface, as a PC's first Ethernet port is named.
const HOST_IF: &str = "eth0";

/// The internet's bridge, which the routers' WAN links and the servers' addresses are on.
const BRIDGE_IF: &str = "br0";

/// The nftables table miniupnpd writes its rules in, and the lab its routers' chains:
/// miniupnpd 2.3.1's default for both its filter and its NAT rules (an `inet` table).
const ROUTER_TABLE: &str = "filter";

/// The forward chain miniupnpd fills with an accept per mapping (its default name).
const UPNP_FORWARD_CHAIN: &str = "miniupnpd";

/// The NAT chain miniupnpd fills with a DNAT per mapping (its default name).
const UPNP_NAT_CHAIN: &str = "prerouting_miniupnpd";

/// The NAT chain miniupnpd fills with SNATs for PCP's peer mappings (its default name).
const UPNP_POSTROUTING_CHAIN: &str = "postrouting_miniupnpd";

/// The internet namespace's table of the relay counter.
const COUNTER_TABLE: &str = "fxlab";

/// The relay counter's name in [`COUNTER_TABLE`].
const RELAY_COUNTER: &str = "relay";

/// How long a setup command (`ip`, `nft`, `conntrack`) may take: they take milliseconds, so
/// only a hang reaches it, and the build fails instead of waiting for ever.
const COMMAND_LIMIT: Duration = Duration::from_secs(10);

/// How long coturn may take to answer STUN after it starts: it takes a few hundred ms.
const COTURN_READY_LIMIT: Duration = Duration::from_secs(5);

/// How long one STUN probe of coturn may wait for its answer: the answer comes in under a
/// millisecond once coturn listens, and the probing client waits for ever without one.
const STUN_PROBE_LIMIT: Duration = Duration::from_millis(500);

/// How long miniupnpd may take to listen after it starts: its STUN check waits up to 3 s for
/// answers, three times, before it gives up; an answered check takes milliseconds.
const MINIUPNPD_READY_LIMIT: Duration = Duration::from_secs(12);

/// How often a wait looks again whether a process has ended or a daemon is ready: short
/// beside every wait, long enough not to keep a core busy.
const POLL: Duration = Duration::from_millis(20);

/// The first pause of a wait, before its pauses double up to [`POLL`].
const FIRST_PAUSE: Duration = Duration::from_millis(1);

/// How many times a wait's pause doubles from [`FIRST_PAUSE`]: enough to reach [`POLL`].
const FIRST_PAUSES: u32 = 5;

/// The programs the lab runs, each looked for on `PATH` by [`Lab::available`].
const PROGRAMS: [&str; 8] =
    ["ip", "ss", "nft", "conntrack", "miniupnpd", "turnserver", "turnutils_stunclient", "sh"];

/// Labs built by this process so far: each lab's names carry the count, so that the parallel
/// tests of one binary never share a namespace.
static NEXT_LAB: AtomicU32 = AtomicU32::new(0);

/// One of the two homes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Home {
    /// Home A: the host's, say; the one whose router can run miniupnpd.
    A,
    /// Home B: the friend's.
    B,
}

impl Home {
    /// Both homes.
    pub const ALL: [Home; 2] = [Home::A, Home::B];

    /// The router's public address, on the internet.
    #[must_use]
    pub const fn wan(self) -> Ipv4Addr {
        match self {
            Home::A => Ipv4Addr::new(203, 0, 113, 10),
            Home::B => Ipv4Addr::new(203, 0, 113, 20),
        }
    }

    /// The router's address on its LAN, the LAN host's gateway (and miniupnpd's).
    #[must_use]
    pub const fn router_lan(self) -> Ipv4Addr {
        match self {
            Home::A => Ipv4Addr::new(192, 0, 2, 1),
            Home::B => Ipv4Addr::new(198, 51, 100, 1),
        }
    }

    /// The LAN host's address, where the game of that home runs.
    #[must_use]
    pub const fn host(self) -> Ipv4Addr {
        match self {
            Home::A => Ipv4Addr::new(192, 0, 2, 2),
            Home::B => Ipv4Addr::new(198, 51, 100, 2),
        }
    }

    /// The LAN's network, `address/bits`.
    #[must_use]
    pub fn lan_network(self) -> String {
        let [a, b, c, _] = self.host().octets();
        format!("{a}.{b}.{c}.0/{PREFIX_BITS}")
    }

    /// The letter in the home's names.
    const fn letter(self) -> char {
        match self {
            Home::A => 'a',
            Home::B => 'b',
        }
    }
}

/// A namespace of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// The internet: the bridge the routers' WANs are on, and the servers' host.
    Internet,
    /// A home's router.
    Router(Home),
    /// A home's LAN host, behind its router.
    Lan(Home),
}

impl Node {
    /// Every namespace, in the order they are made.
    pub const ALL: [Node; 5] = [
        Node::Internet,
        Node::Router(Home::A),
        Node::Lan(Home::A),
        Node::Router(Home::B),
        Node::Lan(Home::B),
    ];

    /// The node's own address: the server's on the internet, the WAN address of a router, the
    /// host's on a LAN.
    #[must_use]
    pub const fn address(self) -> Ipv4Addr {
        match self {
            Node::Internet => SERVER,
            Node::Router(home) => home.wan(),
            Node::Lan(home) => home.host(),
        }
    }

    /// The end of the namespace's name.
    fn suffix(self) -> String {
        match self {
            Node::Internet => "net".to_owned(),
            Node::Router(home) => format!("r{}", home.letter()),
            Node::Lan(home) => format!("l{}", home.letter()),
        }
    }
}

/// How a router translates its LAN's traffic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum NatKind {
    /// One public port per LAN socket, whatever the destination (its own port while free);
    /// only replies from the address and port sent to come in.
    #[default]
    EndpointIndependent,
    /// A new random public port for every destination; only replies come in.
    Symmetric,
}

impl NatKind {
    /// The masquerade statement's flags for this kind.
    const fn masquerade_flags(self) -> &'static str {
        match self {
            NatKind::EndpointIndependent => "",
            NatKind::Symmetric => " fully-random",
        }
    }
}

/// What a lab runs besides its namespaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabOptions {
    /// Router A's NAT.
    pub nat_a: NatKind,
    /// Router B's NAT.
    pub nat_b: NatKind,
    /// miniupnpd on router A (UPnP IGD, NAT-PMP and PCP on its LAN); starts coturn too, which
    /// its STUN check of the public address needs.
    pub upnp_a: bool,
    /// coturn on the internet ([`Lab::turn`]).
    pub turn: bool,
    /// With [`upnp_a`](Self::upnp_a): miniupnpd answers NAT-PMP (and PCP) only, its UPnP
    /// off, as on a router whose owner turned UPnP off.
    pub nat_pmp_only_a: bool,
}

impl LabOptions {
    /// The NAT of `home`'s router.
    #[must_use]
    pub const fn nat(&self, home: Home) -> NatKind {
        match home {
            Home::A => self.nat_a,
            Home::B => self.nat_b,
        }
    }
}

/// Where the lab's TURN server is and how to log in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnServer {
    /// Its STUN and TURN address (UDP and TCP, no TLS).
    pub address: SocketAddrV4,
    /// The long-term credentials' user.
    pub user: &'static str,
    /// The long-term credentials' password.
    pub password: &'static str,
    /// The realm.
    pub realm: &'static str,
}

/// Why the lab could not be built or asked.
#[derive(Debug)]
pub enum LabError {
    /// A program could not be started.
    Start {
        /// The command line.
        command: String,
        /// Why not.
        error: io::Error,
    },
    /// A command ended in failure.
    Failed {
        /// The command line.
        command: String,
        /// How it ended.
        status: ExitStatus,
        /// What it said on its standard error.
        stderr: String,
    },
    /// A command was still running after its limit, and was killed.
    TimedOut {
        /// The command line.
        command: String,
        /// How long it was given.
        limit: Duration,
        /// What it said on its standard error.
        stderr: String,
    },
    /// A daemon ended, or was not ready in time.
    NotReady {
        /// The daemon.
        daemon: &'static str,
        /// What was seen.
        why: String,
        /// Its log so far.
        log: String,
    },
    /// A file of the lab's could not be written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why not.
        error: io::Error,
    },
    /// A command's output was not what the lab reads.
    Unexpected {
        /// The command line.
        command: String,
        /// What it printed.
        output: String,
    },
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::Start { command, error } => write!(f, "`{command}` did not start: {error}"),
            LabError::Failed { command, status, stderr } => {
                write!(f, "`{command}` failed ({status}): {}", stderr.trim())
            }
            LabError::TimedOut { command, limit, stderr } => {
                write!(f, "`{command}` still ran after {limit:?}: {}", stderr.trim())
            }
            LabError::NotReady { daemon, why, log } => {
                write!(f, "{daemon} is not ready: {why}; its log:\n{log}")
            }
            LabError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LabError::Unexpected { command, output } => {
                write!(f, "`{command}` printed what the lab cannot read: {}", output.trim())
            }
        }
    }
}

impl std::error::Error for LabError {}

/// A daemon the lab started, killed when the lab is dropped.
#[derive(Debug)]
struct Daemon {
    /// Its program's name, for errors.
    name: &'static str,
    /// The process (`ip netns exec` replaces itself with the daemon, so this is the daemon).
    child: Child,
    /// Where its standard output and error go.
    log: PathBuf,
}

/// A built lab: its namespaces, their NATs, and its daemons. See the [module](self).
#[derive(Debug)]
pub struct Lab {
    /// What its names start with: `fxl{pid}-{n}`.
    id: String,
    /// Its configurations and logs.
    dir: PathBuf,
    /// The namespaces made so far, in order: what [`Drop`] removes, also of a half-built lab.
    made: Vec<String>,
    /// Its daemons, in the order started.
    daemons: Vec<Daemon>,
    /// What it was built with.
    options: LabOptions,
}

impl Lab {
    /// Whether this machine can build a lab; what is missing if not. Asked once per process:
    /// it makes and removes a namespace to find out.
    ///
    /// # Errors
    ///
    /// What is missing: root, a program, or the kernel's namespaces, nftables or conntrack.
    pub fn available() -> Result<(), String> {
        static AVAILABLE: OnceLock<Result<(), String>> = OnceLock::new();
        AVAILABLE.get_or_init(check_available).clone()
    }

    /// Builds a lab: its namespaces, links, addresses and routes, the routers' NATs, and the
    /// daemons `options` ask for, each waited for until it answers. First removes the
    /// leftovers of earlier runs that died.
    ///
    /// # Errors
    ///
    /// The first step that failed, with its command and what it said. Whatever was made by
    /// then is removed.
    pub fn build(options: LabOptions) -> Result<Lab, LabError> {
        clean_leftovers();
        let number = NEXT_LAB.fetch_add(1, Ordering::Relaxed);
        let id = format!("{PREFIX}{}-{number}", std::process::id());
        let dir = std::env::temp_dir().join(&id);
        // A directory of the same name is a leftover of a run of this pid long ago.
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(|error| LabError::Io { path: dir.clone(), error })?;
        let mut lab = Lab { id, dir, made: Vec::new(), daemons: Vec::new(), options };
        lab.wire()?;
        lab.firewall()?;
        if options.turn || options.upnp_a {
            lab.start_coturn()?;
        }
        if options.upnp_a {
            lab.start_miniupnpd()?;
        }
        Ok(lab)
    }

    /// The name of `node`'s namespace.
    #[must_use]
    pub fn namespace(&self, node: Node) -> String {
        format!("{}-{}", self.id, node.suffix())
    }

    /// A command that runs `program` with `args` inside `node`'s namespace (`ip netns exec`),
    /// with this process's environment; set its standard streams and run it as any command.
    #[must_use]
    pub fn exec<I, S>(&self, node: Node, program: impl AsRef<OsStr>, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new("ip");
        command.args(["netns", "exec"]).arg(self.namespace(node)).arg(program).args(args);
        command
    }

    /// What the lab was built with.
    #[must_use]
    pub fn options(&self) -> LabOptions {
        self.options
    }

    /// The TURN server, where the lab runs one.
    #[must_use]
    pub fn turn(&self) -> Option<TurnServer> {
        (self.options.turn || self.options.upnp_a).then_some(TurnServer {
            address: SocketAddrV4::new(SERVER, STUN_PORT),
            user: TURN_USER,
            password: TURN_PASSWORD,
            realm: TURN_REALM,
        })
    }

    /// The URL of router A's UPnP device description, where it runs miniupnpd: what SSDP
    /// discovery finds, for a client told to skip it.
    #[must_use]
    pub fn upnp_url(&self) -> Option<String> {
        self.options
            .upnp_a
            .then(|| format!("http://{}:{UPNP_HTTP_PORT}/rootDesc.xml", Home::A.router_lan()))
    }

    /// The process ids of the lab's daemons (`ip netns exec` becomes the daemon, so these are
    /// the daemons'), to see them gone after the lab is.
    #[must_use]
    pub fn daemon_pids(&self) -> Vec<u32> {
        self.daemons.iter().map(|daemon| daemon.child.id()).collect()
    }

    /// The logs of the lab's daemons so far, each headed by its name: for a failing test's
    /// message.
    #[must_use]
    pub fn logs(&self) -> String {
        self.daemons
            .iter()
            .map(|daemon| format!("== {}\n{}", daemon.name, read_log(&daemon.log)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// How many conntrack entries (NAT mappings and the router's own flows) `home`'s router
    /// holds.
    ///
    /// # Errors
    ///
    /// If `conntrack -L` fails.
    pub fn mappings(&self, home: Home) -> Result<usize, LabError> {
        let out = run(&mut self.exec(Node::Router(home), "conntrack", ["-L"]))?;
        Ok(String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.trim().is_empty()).count())
    }

    /// Flushes `home`'s router's conntrack table: every mapping is forgotten, as after the
    /// router's reboot, and the next datagram out makes a new one. UPnP's port mappings are
    /// rules, not entries, and stay.
    ///
    /// # Errors
    ///
    /// If `conntrack -F` fails.
    pub fn forget_mappings(&self, home: Home) -> Result<(), LabError> {
        run(&mut self.exec(Node::Router(home), "conntrack", ["-F"])).map(drop)
    }

    /// The datagrams and bytes (IP headers included) coturn's relay carried so far, both ways:
    /// those to and from its relayed ports, [`RELAY_MIN_PORT`] to [`RELAY_MAX_PORT`] of
    /// [`SERVER`]. STUN and TURN's own messages to port [`STUN_PORT`] are not counted.
    ///
    /// # Errors
    ///
    /// If nft cannot list the counter, or prints something else.
    pub fn relay_counter(&self) -> Result<(u64, u64), LabError> {
        let mut command = self.exec(
            Node::Internet,
            "nft",
            ["list", "counter", "inet", COUNTER_TABLE, RELAY_COUNTER],
        );
        let out = run(&mut command)?;
        let text = String::from_utf8_lossy(&out.stdout);
        let number_after = |label: &str| {
            let mut words = text.split_whitespace();
            words.find(|w| *w == label)?;
            words.next()?.parse::<u64>().ok()
        };
        match (number_after("packets"), number_after("bytes")) {
            (Some(packets), Some(bytes)) => Ok((packets, bytes)),
            _ => Err(LabError::Unexpected { command: show(&command), output: text.into_owned() }),
        }
    }

    /// Makes the namespaces and wires them: the internet's bridge, each router's WAN link to
    /// it and LAN link to its host, addresses and routes, forwarding on the routers.
    fn wire(&mut self) -> Result<(), LabError> {
        for node in Node::ALL {
            let name = self.namespace(node);
            run(Command::new("ip").args(["netns", "add", &name]))?;
            self.made.push(name.clone());
            self.ip(node, &["link", "set", "dev", "lo", "up"])?;
            // No IPv6: its link-local addresses, router solicitations and duplicate address
            // checks would be traffic no test asked for. Set before the links exist, so
            // that they inherit it; a kernel without IPv6 has nothing to turn off.
            self.sysctl(node, "ipv6/conf/default/disable_ipv6", true)?;
            self.sysctl(node, "ipv6/conf/all/disable_ipv6", true)?;
        }
        let internet = Node::Internet;
        self.ip(internet, &["link", "add", BRIDGE_IF, "type", "bridge"])?;
        self.ip(internet, &["link", "set", "dev", BRIDGE_IF, "up"])?;
        for address in [SERVER, SERVER_OTHER, STRANGER] {
            self.ip(internet, &["addr", "add", &with_prefix(address), "dev", BRIDGE_IF])?;
        }
        for home in Home::ALL {
            let router = Node::Router(home);
            let lan = Node::Lan(home);
            // Each pair is made in the router's namespace, then its far end moved: never in
            // this process's own namespace, where concurrent labs' names would collide.
            let port = format!("w{}", home.letter());
            let internet_name = self.namespace(internet);
            let lan_name = self.namespace(lan);
            self.ip(router, &["link", "add", WAN_IF, "type", "veth", "peer", "name", &port])?;
            self.ip(router, &["link", "set", "dev", &port, "netns", &internet_name])?;
            self.ip(internet, &["link", "set", "dev", &port, "master", BRIDGE_IF])?;
            self.ip(internet, &["link", "set", "dev", &port, "up"])?;
            self.ip(router, &["link", "add", LAN_IF, "type", "veth", "peer", "name", HOST_IF])?;
            self.ip(router, &["link", "set", "dev", HOST_IF, "netns", &lan_name])?;
            self.ip(router, &["addr", "add", &with_prefix(home.wan()), "dev", WAN_IF])?;
            self.ip(router, &["addr", "add", &with_prefix(home.router_lan()), "dev", LAN_IF])?;
            self.ip(router, &["link", "set", "dev", WAN_IF, "up"])?;
            self.ip(router, &["link", "set", "dev", LAN_IF, "up"])?;
            self.ip(router, &["route", "add", "default", "via", &SERVER.to_string()])?;
            self.sysctl(router, "ipv4/ip_forward", false)?;
            self.ip(lan, &["addr", "add", &with_prefix(home.host()), "dev", HOST_IF])?;
            self.ip(lan, &["link", "set", "dev", HOST_IF, "up"])?;
            self.ip(lan, &["route", "add", "default", "via", &home.router_lan().to_string()])?;
        }
        Ok(())
    }

    /// Runs `ip -n NAMESPACE args…`.
    fn ip(&self, node: Node, args: &[&str]) -> Result<Output, LabError> {
        run(Command::new("ip").arg("-n").arg(self.namespace(node)).args(args))
    }

    /// Sets the `net/` sysctl `key` (a path under `/proc/sys/net`) inside `node`'s namespace,
    /// where `/proc/sys/net` is that namespace's; if `optional`, only where the key exists.
    fn sysctl(&self, node: Node, key: &str, optional: bool) -> Result<(), LabError> {
        let script = if optional {
            r#"[ ! -e "/proc/sys/net/$1" ] || echo 1 > "/proc/sys/net/$1""#
        } else {
            r#"echo 1 > "/proc/sys/net/$1""#
        };
        run(&mut self.exec(node, "sh", ["-c", script, "sh", key])).map(drop)
    }

    /// The routers' NATs and filters, with the chains miniupnpd fills, and the internet's
    /// relay counter.
    fn firewall(&self) -> Result<(), LabError> {
        for home in Home::ALL {
            let rules = router_rules(home, self.options.nat(home));
            self.nft(Node::Router(home), &format!("router-{}.nft", home.letter()), &rules)?;
        }
        let counter = format!(
            "table inet {COUNTER_TABLE} {{
    counter {RELAY_COUNTER} {{
    }}
    chain input {{
        type filter hook input priority filter; policy accept;
        ip daddr {SERVER} udp dport {RELAY_MIN_PORT}-{RELAY_MAX_PORT} counter name {RELAY_COUNTER}
    }}
    chain output {{
        type filter hook output priority filter; policy accept;
        ip saddr {SERVER} udp sport {RELAY_MIN_PORT}-{RELAY_MAX_PORT} counter name {RELAY_COUNTER}
    }}
}}
"
        );
        self.nft(Node::Internet, "internet.nft", &counter)
    }

    /// Writes `rules` to `file` in the lab's directory (kept with the logs of a failed test)
    /// and loads them into `node`'s namespace.
    fn nft(&self, node: Node, file: &str, rules: &str) -> Result<(), LabError> {
        let path = self.write(file, rules)?;
        run(&mut self.exec(node, "nft", [OsStr::new("-f"), path.as_os_str()])).map(drop)
    }

    /// Writes `contents` to `name` in the lab's directory and returns its path.
    fn write(&self, name: &str, contents: &str) -> Result<PathBuf, LabError> {
        let path = self.dir.join(name);
        fs::write(&path, contents).map_err(|error| LabError::Io { path: path.clone(), error })?;
        Ok(path)
    }

    /// Starts `program` with `args` in `node`'s namespace as the daemon `name`, its output to
    /// `name.log` in the lab's directory; returns its index in the lab's daemons.
    fn spawn_daemon(
        &mut self,
        name: &'static str,
        node: Node,
        program: &str,
        args: &[String],
    ) -> Result<usize, LabError> {
        let log = self.dir.join(format!("{name}.log"));
        let io_error = |error| LabError::Io { path: log.clone(), error };
        let stdout = File::create(&log).map_err(io_error)?;
        let stderr = stdout.try_clone().map_err(io_error)?;
        let mut command = self.exec(node, program, args);
        let child = command
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .map_err(|error| LabError::Start { command: show(&command), error })?;
        // Kept from now on, so that the lab's drop kills it should it never become ready.
        self.daemons.push(Daemon { name, child, log });
        Ok(self.daemons.len() - 1)
    }

    /// Waits until `ready` says the daemon `index` is, for up to `limit`; fails at once if
    /// the daemon ends.
    fn wait_ready(
        &mut self,
        index: usize,
        limit: Duration,
        mut ready: impl FnMut(&Lab) -> Result<bool, LabError>,
    ) -> Result<(), LabError> {
        let started = Instant::now();
        for round in 0..polls(limit) {
            let daemon = &mut self.daemons[index];
            if let Ok(Some(status)) = daemon.child.try_wait() {
                let why = format!("it ended ({status})");
                return Err(LabError::NotReady {
                    daemon: daemon.name,
                    why,
                    log: read_log(&daemon.log),
                });
            }
            if ready(self)? {
                return Ok(());
            }
            if started.elapsed() > limit {
                break;
            }
            pause(round);
        }
        let daemon = &self.daemons[index];
        let why = format!("not ready after {limit:?}");
        Err(LabError::NotReady { daemon: daemon.name, why, log: read_log(&daemon.log) })
    }

    /// Starts coturn on the internet and waits until it answers STUN.
    fn start_coturn(&mut self) -> Result<(), LabError> {
        let dir = self.dir.display().to_string();
        let args = vec![
            // No configuration file: the system's is for a system service, not this.
            "-n".to_owned(),
            "--lt-cred-mech".to_owned(),
            format!("--user={TURN_USER}:{TURN_PASSWORD}"),
            format!("--realm={TURN_REALM}"),
            // Two addresses, so that it answers RFC 5780's CHANGE-REQUEST (from the other
            // address and port, STUN_OTHER_PORT), which miniupnpd's STUN check asks for.
            format!("--listening-ip={SERVER}"),
            format!("--listening-ip={SERVER_OTHER}"),
            format!("--listening-port={STUN_PORT}"),
            format!("--relay-ip={SERVER}"),
            format!("--min-port={RELAY_MIN_PORT}"),
            format!("--max-port={RELAY_MAX_PORT}"),
            "--no-tls".to_owned(),
            "--no-dtls".to_owned(),
            "--no-cli".to_owned(),
            "--log-file=stdout".to_owned(),
            "--simple-log".to_owned(),
            // Its pid file and user database in the lab's directory, not the system's.
            format!("--pidfile={dir}/turnserver.pid"),
            format!("--db={dir}/turndb"),
        ];
        let index = self.spawn_daemon("coturn", Node::Internet, "turnserver", &args)?;
        let probe = [
            "-L".to_owned(),
            STRANGER.to_string(),
            "-p".to_owned(),
            STUN_PORT.to_string(),
            SERVER.to_string(),
        ];
        self.wait_ready(index, COTURN_READY_LIMIT, |lab| {
            // A binding request from another host on the internet: answered, it has coturn's
            // reflexive address in it. Unanswered, the client waits for ever, so it is cut
            // short, and the next poll tries again.
            let mut command = lab.exec(Node::Internet, "turnutils_stunclient", &probe);
            match output_within(&mut command, STUN_PROBE_LIMIT) {
                Ok(out) => Ok(out.status.success()
                    && String::from_utf8_lossy(&out.stdout).contains("reflexive addr")),
                Err(LabError::TimedOut { .. }) => Ok(false),
                Err(other) => Err(other),
            }
        })
    }

    /// Starts miniupnpd on router A and waits until it listens with port forwarding enabled.
    fn start_miniupnpd(&mut self) -> Result<(), LabError> {
        let home = Home::A;
        let config = format!(
            "# miniupnpd of home A's router in a Fixstep network lab.
ext_ifname={WAN_IF}
listening_ip={LAN_IF}
http_port={UPNP_HTTP_PORT}
enable_upnp={upnp}
enable_natpmp=yes
# The WAN address is a documentation one, which miniupnpd takes as reserved: only an
# unfiltered STUN answer to all four of its requests makes it forward ports then.
ext_perform_stun=yes
ext_stun_host={SERVER}
ext_stun_port={STUN_PORT}
upnp_table_name={ROUTER_TABLE}
upnp_nat_table_name={ROUTER_TABLE}
upnp_forward_chain={UPNP_FORWARD_CHAIN}
upnp_nat_chain={UPNP_NAT_CHAIN}
upnp_nat_postrouting_chain={UPNP_POSTROUTING_CHAIN}
secure_mode=yes
system_uptime=no
notify_interval=60
clean_ruleset_interval=600
uuid={UPNP_UUID}
lease_file={leases}
allow 1024-65535 {lan} 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
",
            leases = self.dir.join("miniupnpd.leases").display(),
            lan = home.lan_network(),
            upnp = if self.options.nat_pmp_only_a { "no" } else { "yes" },
        );
        let path = self.write("miniupnpd.conf", &config)?;
        // `-d`: in the foreground (this process keeps it, and kills it), logging to stderr.
        // `-P`: its pid file, which it writes even so and refuses to start over while the
        // pid in it runs, in the lab's directory, so that concurrent labs each have theirs.
        let pid_file = self.dir.join("miniupnpd.pid").display().to_string();
        let args = vec![
            "-d".to_owned(),
            "-f".to_owned(),
            path.display().to_string(),
            "-P".to_owned(),
            pid_file,
        ];
        let index = self.spawn_daemon("miniupnpd", Node::Router(home), "miniupnpd", &args)?;
        let http = format!(":{UPNP_HTTP_PORT}");
        let nat_pmp = format!(":{NAT_PMP_PORT}");
        self.wait_ready(index, MINIUPNPD_READY_LIMIT, |lab| {
            // It listens only after its STUN check, so listening means the check is done.
            let out = run(&mut lab.exec(Node::Router(home), "ss", ["-Hlntu"]))?;
            let text = String::from_utf8_lossy(&out.stdout);
            let listening = |proto: &str, local: &str| {
                text.lines().any(|line| {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    words.first() == Some(&proto)
                        && words.get(4).is_some_and(|w| w.ends_with(local))
                })
            };
            // Without UPnP it serves no HTTP.
            let upnp_ready = lab.options.nat_pmp_only_a || listening("tcp", &http);
            Ok(upnp_ready && listening("udp", &nat_pmp))
        })?;
        let daemon = &self.daemons[index];
        let log = read_log(&daemon.log);
        if log.contains("Port forwarding is now enabled") {
            Ok(())
        } else {
            let why = "it listens, but did not enable port forwarding".to_owned();
            Err(LabError::NotReady { daemon: daemon.name, why, log })
        }
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        for daemon in &mut self.daemons {
            let _ = daemon.child.kill();
            let _ = daemon.child.wait();
        }
        for name in self.made.iter().rev() {
            remove_namespace(name);
        }
        if thread::panicking() {
            println!("the failed test's lab files are kept in {}", self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// A lab built with `options`, where this machine can build one and has `extra_programs` (on
/// `PATH`) too; `None`, having said why, where it cannot and [`REQUIRE_NETLAB_VAR`] is not
/// `1`.
///
/// # Panics
///
/// If the lab cannot be built where it is required, or fails to build where it can be.
#[must_use]
pub fn lab_or_skip(options: LabOptions, extra_programs: &[&str]) -> Option<Lab> {
    let missing = missing_programs(extra_programs);
    let why = match Lab::available() {
        Err(why) => Some(why),
        Ok(()) if !missing.is_empty() => Some(format!("no {} on PATH", missing.join(", "))),
        Ok(()) => None,
    };
    if let Some(why) = why {
        let required = std::env::var(REQUIRE_NETLAB_VAR).is_ok_and(|v| v == "1");
        assert!(!required, "{REQUIRE_NETLAB_VAR}=1, but the network lab cannot be built: {why}");
        println!("skipped: the network lab cannot be built here ({why})");
        return None;
    }
    match Lab::build(options) {
        Ok(lab) => Some(lab),
        Err(error) => panic!("the network lab could not be built: {error}"),
    }
}

/// Runs `command` to its end, for at most `limit`, with an empty standard input, and returns
/// what it did, whatever its exit status.
///
/// # Errors
///
/// If it does not start, or still runs after `limit` (it is killed then).
pub fn output_within(command: &mut Command, limit: Duration) -> Result<Output, LabError> {
    let shown = show(command);
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| LabError::Start { command: shown.clone(), error })?;
    // Both pipes are drained while it runs, so that one that writes much never stalls.
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let mut ended = None;
    for round in 0..polls(limit) {
        match child.try_wait() {
            Ok(Some(status)) => {
                ended = Some(status);
                break;
            }
            Ok(None) if started.elapsed() <= limit => pause(round),
            Ok(None) => break,
            Err(error) => return Err(LabError::Start { command: shown, error }),
        }
    }
    let Some(status) = ended else {
        let _ = child.kill();
        let _ = child.wait();
        let stderr = String::from_utf8_lossy(&stderr.join().unwrap_or_default()).into_owned();
        return Err(LabError::TimedOut { command: shown, limit, stderr });
    };
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Runs a setup command within [`COMMAND_LIMIT`] and returns its output.
///
/// # Errors
///
/// If it does not start, fails, or hangs.
fn run(command: &mut Command) -> Result<Output, LabError> {
    let out = output_within(command, COMMAND_LIMIT)?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(LabError::Failed {
            command: show(command),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

/// How many looks a wait of `limit` takes at the most, [`pause`]d between: a bound on its loop
/// besides its clock.
fn polls(limit: Duration) -> u32 {
    let at_poll = limit.as_millis() / POLL.as_millis().max(1);
    u32::try_from(at_poll).unwrap_or(u32::MAX).saturating_add(FIRST_PAUSES + 2)
}

/// The pause after the wait's look number `round`: 1 ms, doubled each round up to [`POLL`],
/// since most setup commands end within milliseconds, and a first pause of [`POLL`] would
/// take most of a lab's build.
fn pause(round: u32) {
    thread::sleep(FIRST_PAUSE.saturating_mul(1 << round.min(FIRST_PAUSES)).min(POLL));
}

/// A thread that reads `pipe` to its end.
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// `command` as its command line, for errors.
fn show(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|arg| arg.to_string_lossy().into_owned()));
    words.join(" ")
}

/// `address/24`.
fn with_prefix(address: Ipv4Addr) -> String {
    format!("{address}/{PREFIX_BITS}")
}

/// A daemon's log so far; what went wrong reading it, if something did.
fn read_log(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|error| format!("({}: {error})", path.display()))
}

/// The nftables rules of `home`'s router with a NAT of `kind`.
fn router_rules(home: Home, kind: NatKind) -> String {
    let lan = home.lan_network();
    let flags = kind.masquerade_flags();
    format!(
        "table inet {ROUTER_TABLE} {{
    chain forward {{
        type filter hook forward priority filter; policy accept;
        ct state established,related accept
        jump {UPNP_FORWARD_CHAIN}
        # Neither a reply nor a UPnP mapping: the internet does not reach the LAN.
        iifname \"{WAN_IF}\" drop
    }}
    chain {UPNP_FORWARD_CHAIN} {{
    }}
    chain input {{
        type filter hook input priority filter; policy accept;
        ct state established,related accept
        # The lab's STUN server answering miniupnpd's check from its other address and port.
        iifname \"{WAN_IF}\" ip saddr {{ {SERVER}, {SERVER_OTHER} }} udp sport {{ {STUN_PORT}, {STUN_OTHER_PORT} }} accept
        # A home router's own firewall: nothing new from the internet reaches the router. What
        # it drops here leaves no connection-tracking entry behind, so a datagram that comes
        # before the LAN's own (a friend's probe racing the host's) cannot take the public
        # port the LAN socket's mapping then needs; a router that answered it instead would.
        iifname \"{WAN_IF}\" drop
    }}
    chain prerouting {{
        type nat hook prerouting priority dstnat; policy accept;
        jump {UPNP_NAT_CHAIN}
    }}
    chain {UPNP_NAT_CHAIN} {{
    }}
    chain postrouting {{
        type nat hook postrouting priority srcnat; policy accept;
        jump {UPNP_POSTROUTING_CHAIN}
        # The LAN's traffic only: the router's own (miniupnpd's STUN check) keeps its ports.
        oifname \"{WAN_IF}\" ip saddr {lan} masquerade{flags}
    }}
    chain {UPNP_POSTROUTING_CHAIN} {{
    }}
}}
"
    )
}

/// Kills what still runs in the namespace `name` (a test's helper left behind, a dead run's
/// daemons) and removes it; a failure leaves it to the next build's cleaning.
fn remove_namespace(name: &str) {
    if let Ok(out) = run(Command::new("ip").args(["netns", "pids", name])) {
        let pids: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter(|pid| pid.parse::<u32>().is_ok())
            .map(str::to_owned)
            .collect();
        if !pids.is_empty() {
            // The shell's own kill: no other program needed.
            let _ = run(Command::new("sh").args(["-c", "kill -KILL \"$@\"", "sh"]).args(&pids));
        }
    }
    let _ = run(Command::new("ip").args(["netns", "del", name]));
}

/// Removes the namespaces of labs whose process is gone: a run killed before its labs were
/// dropped.
fn clean_leftovers() {
    let Ok(out) = run(Command::new("ip").args(["netns", "list"])) else {
        return;
    };
    let own = std::process::id();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(name) = line.split_whitespace().next() else {
            continue;
        };
        let pid = name.strip_prefix(PREFIX).and_then(|rest| rest.split('-').next());
        let Some(pid) = pid.and_then(|pid| pid.parse::<u32>().ok()) else {
            continue;
        };
        if pid != own && !Path::new("/proc").join(pid.to_string()).exists() {
            remove_namespace(name);
        }
    }
}

/// See [`Lab::available`].
fn check_available() -> Result<(), String> {
    if !is_root() {
        return Err("not root: namespaces, nftables and conntrack need root".to_owned());
    }
    let missing = missing_programs(&PROGRAMS);
    if !missing.is_empty() {
        return Err(format!("no {} on PATH", missing.join(", ")));
    }
    // Root in a container may still be denied namespaces, nftables or conntrack: a
    // namespace of its own is made to try them.
    let probe = format!("{PREFIX}{}-probe", std::process::id());
    run(Command::new("ip").args(["netns", "add", &probe])).map_err(|e| e.to_string())?;
    let exec = |program: &str, args: &[&str]| {
        run(Command::new("ip").args(["netns", "exec", &probe, program]).args(args))
    };
    let tried = exec("nft", &["list", "ruleset"]).and_then(|_| exec("conntrack", &["-L"]));
    remove_namespace(&probe);
    tried.map(drop).map_err(|e| e.to_string())
}

/// Whether this process's effective user is root, read from `/proc` (no C library call).
fn is_root() -> bool {
    let Ok(status) = fs::read_to_string("/proc/self/status") else {
        return false;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .is_some_and(|effective| effective == "0")
}

/// Those of `programs` that are not an executable file in a directory of `PATH`.
fn missing_programs(programs: &[&str]) -> Vec<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    programs
        .iter()
        .filter(|program| {
            !dirs.iter().any(|dir| {
                fs::metadata(dir.join(program))
                    .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            })
        })
        .map(|program| (*program).to_owned())
        .collect()
}
