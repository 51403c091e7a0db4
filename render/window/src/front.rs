//! The front screen's flow, apart from its drawing: which screen shows, what its fields hold,
//! what a button does, and what game starts. The window draws it (and turns clicks and keys
//! into [`FrontAction`]s); tests drive it without a window.
//!
//! From the main screen a player plays alone, or opens the host, join or spectate form. A form
//! keeps what was typed, remembers the name and the address of the last game (in the
//! settings), checks them before anything connects, and starts a [`Launch`]. What goes wrong
//! after (a host that does not answer, a refusal, another build or level) comes back as
//! [`FrontScreen::failed`], shown in words on a screen whose one way on is back to the form,
//! fields kept.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

use fixstep_net::join_code::{JoinCode, JoinCodeError, looks_like_code};

use crate::replays::ReplayEntry;
use crate::settings::Remembered;

/// The longest player name, characters: what the HUD's name tags fit.
pub const MAX_NAME_CHARS: usize = 24;

pub use fixstep_net::lan::DEFAULT_PORT;

/// Which form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Host a game: a name, a port, a password.
    Host,
    /// Join one: a name, an address, a password.
    Join,
    /// Watch one: an address, a password.
    Spectate,
}

/// What the front screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    /// Play alone, Host, Join, Spectate, Settings, Quit.
    Main,
    /// A form, with what is wrong with its fields, if anything.
    Form(Form, Option<String>),
    /// Waiting for the game to start.
    Starting(Form),
    /// The form, with what went wrong in words: the fields kept to mend and go again, or
    /// back to the form without the message.
    Failed(Form, String),
    /// The settings.
    Settings,
    /// The replays recorded, newest first, each with a button to watch it.
    Replays,
}

/// What the player did on the front screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrontAction {
    /// Play alone.
    PlayAlone,
    /// Open a form.
    Open(Form),
    /// Open the settings.
    OpenSettings,
    /// Open the Replays page.
    OpenReplays,
    /// Watch this replay (a button of the Replays page).
    Watch(PathBuf),
    /// Typed into the name field.
    Name(String),
    /// Typed into the address field (`HOST:PORT`; a bare host takes the default port).
    Address(String),
    /// Typed into the port field (hosting).
    Port(String),
    /// Typed into the password field.
    Password(String),
    /// Ticked or cleared "friends join by code" (hosting).
    Code(bool),
    /// Picked a host from the LAN list: its address.
    Pick(SocketAddr),
    /// The form's go button (or Enter).
    Go,
    /// Back (or Esc).
    Back,
    /// Quit.
    Quit,
}

/// The game a front screen starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Launch {
    /// Alone.
    Alone,
    /// Hosting on `port` as `name`.
    Host {
        /// The player's name.
        name: String,
        /// The UDP port.
        port: u16,
        /// The session's password (`None`: open).
        password: Option<String>,
        /// Whether the match is listed at the rendezvous under a join code.
        code: bool,
    },
    /// Joining `host` as `name`.
    Join {
        /// The host: its address, or its match's code.
        host: Entry,
        /// The player's name.
        name: String,
        /// The session's password.
        password: Option<String>,
    },
    /// Watching `host`.
    Spectate {
        /// The host: its address, or its match's code.
        host: Entry,
        /// The session's password.
        password: Option<String>,
    },
    /// Watching the replay in this file.
    Replay(PathBuf),
}

/// Where a player reaches a host: its address, or its match's join code, looked up at the
/// rendezvous the settings name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// `HOST:PORT`.
    Address(SocketAddr),
    /// A join code (`KQ7-4PX`).
    Code(JoinCode),
}

impl std::fmt::Display for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Address(address) => address.fmt(f),
            Self::Code(code) => code.fmt(f),
        }
    }
}

/// What an action came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stay on the front screen.
    Stay,
    /// Start this game.
    Start(Launch),
    /// Quit the program.
    Quit,
}

/// The front screen's state; see the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontScreen {
    screen: Screen,
    name: String,
    address: String,
    port: String,
    password: String,
    /// Whether a host lists its match under a join code.
    code: bool,
    /// The replays the Replays page lists, as last read.
    replays: Vec<ReplayEntry>,
}

impl FrontScreen {
    /// The main screen, the fields filled with what was `remembered`.
    #[must_use]
    pub fn new(remembered: &Remembered) -> Self {
        Self {
            screen: Screen::Main,
            name: remembered.name.clone(),
            address: remembered.address.clone(),
            port: DEFAULT_PORT.to_string(),
            password: String::new(),
            code: false,
            replays: Vec::new(),
        }
    }

    /// The replays the Replays page lists.
    #[must_use]
    pub fn replays(&self) -> &[ReplayEntry] {
        &self.replays
    }

    /// The replays found, newest first, for the Replays page.
    pub fn set_replays(&mut self, replays: Vec<ReplayEntry>) {
        self.replays = replays;
    }

    /// What shows.
    #[must_use]
    pub const fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The name field.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The address field.
    #[must_use]
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The port field.
    #[must_use]
    pub fn port(&self) -> &str {
        &self.port
    }

    /// The password field.
    #[must_use]
    pub fn password(&self) -> &str {
        &self.password
    }

    /// Whether a host lists its match under a join code.
    #[must_use]
    pub const fn code(&self) -> bool {
        self.code
    }

    /// What the settings should remember now.
    #[must_use]
    pub fn remembered(&self) -> Remembered {
        Remembered { name: self.name.clone(), address: self.address.clone() }
    }

    /// Acts on what the player did.
    pub fn act(&mut self, action: FrontAction) -> Outcome {
        match (action, self.screen.clone()) {
            (FrontAction::Quit, _) => return Outcome::Quit,
            (FrontAction::PlayAlone, Screen::Main) => return Outcome::Start(Launch::Alone),
            (FrontAction::Open(form), Screen::Main) => self.screen = Screen::Form(form, None),
            (FrontAction::OpenSettings, Screen::Main) => self.screen = Screen::Settings,
            (FrontAction::OpenReplays, Screen::Main) => self.screen = Screen::Replays,
            (FrontAction::Watch(path), Screen::Replays) => {
                return Outcome::Start(Launch::Replay(path));
            }
            // What went wrong shows on the form, fields kept: the player mends one and goes
            // again.
            (FrontAction::Name(name), Screen::Form(..) | Screen::Failed(..)) => self.name = name,
            (FrontAction::Address(address), Screen::Form(..) | Screen::Failed(..)) => {
                self.address = address;
            }
            (FrontAction::Port(port), Screen::Form(..) | Screen::Failed(..)) => self.port = port,
            (FrontAction::Password(password), Screen::Form(..) | Screen::Failed(..)) => {
                self.password = password;
            }
            (FrontAction::Code(code), Screen::Form(..) | Screen::Failed(..)) => self.code = code,
            (
                FrontAction::Pick(host),
                Screen::Form(form @ (Form::Join | Form::Spectate), _)
                | Screen::Failed(form @ (Form::Join | Form::Spectate), _),
            ) => {
                self.address = host.to_string();
                return self.go(form);
            }
            (FrontAction::Go, Screen::Form(form, _) | Screen::Failed(form, _)) => {
                return self.go(form);
            }
            (FrontAction::Back, Screen::Form(..) | Screen::Settings | Screen::Replays) => {
                self.screen = Screen::Main;
            }
            (FrontAction::Back, Screen::Failed(form, _) | Screen::Starting(form)) => {
                self.screen = Screen::Form(form, None);
            }
            (FrontAction::Back, Screen::Main) => return Outcome::Quit,
            _ => {}
        }
        Outcome::Stay
    }

    /// A game of `form` is starting (a code being dialled, say), whatever showed before.
    pub fn starting(&mut self, form: Form) {
        self.screen = Screen::Starting(form);
    }

    /// Fills the form's name and address fields with a game's being dialled (one started
    /// from the command line), so that a dial that fails can be tried again from the form.
    pub fn fill(&mut self, name: &str, address: &str) {
        name.clone_into(&mut self.name);
        address.clone_into(&mut self.address);
    }

    /// The game it started could not start or ended in error: `why`, in words, is shown with
    /// a way back to the form.
    pub fn failed(&mut self, why: &str) {
        if let Screen::Starting(form) | Screen::Form(form, _) = self.screen {
            self.screen = Screen::Failed(form, why.to_owned());
        }
    }

    /// The game it started ended (the player left it): back to the main screen, or to the
    /// Replays page from a replay watched.
    pub fn returned(&mut self) {
        if self.screen != Screen::Replays {
            self.screen = Screen::Main;
        }
    }

    /// Checks the form's fields and starts its game, or says what is wrong.
    fn go(&mut self, form: Form) -> Outcome {
        match self.launch(form) {
            Ok(launch) => {
                self.screen = Screen::Starting(form);
                Outcome::Start(launch)
            }
            Err(problem) => {
                self.screen = Screen::Form(form, Some(problem));
                Outcome::Stay
            }
        }
    }

    fn launch(&self, form: Form) -> Result<Launch, String> {
        let password = (!self.password.is_empty()).then(|| self.password.clone());
        let name = || -> Result<String, String> {
            let name = self.name.trim();
            if name.is_empty() {
                return Err("type a name for your character".to_owned());
            }
            if name.chars().count() > MAX_NAME_CHARS {
                return Err(format!("a name is at most {MAX_NAME_CHARS} characters"));
            }
            Ok(name.to_owned())
        };
        match form {
            Form::Host => {
                let port = self.port.trim().parse::<u16>().ok().filter(|p| *p > 0);
                let port = port.ok_or_else(|| {
                    format!("the port is a number from 1 to 65535, not {:?}", self.port)
                })?;
                Ok(Launch::Host { name: name()?, port, password, code: self.code })
            }
            Form::Join => Ok(Launch::Join { host: self.host()?, name: name()?, password }),
            Form::Spectate => Ok(Launch::Spectate { host: self.host()?, password }),
        }
    }

    /// The address field as a host: a join code (`KQ7-4PX`), `HOST:PORT`, or a bare host on
    /// the default port.
    fn host(&self) -> Result<Entry, String> {
        let text = self.address.trim();
        if text.is_empty() {
            return Err("type the host's address (HOST:PORT) or its join code".to_owned());
        }
        if looks_like_code(text) {
            return text.parse().map(Entry::Code).map_err(|e: JoinCodeError| e.to_string());
        }
        if text.contains(char::is_whitespace) {
            return Err(format!("{text:?} names no address (HOST:PORT)"));
        }
        let with_port = if text.rsplit_once(':').is_some_and(|(_, p)| p.parse::<u16>().is_ok()) {
            text.to_owned()
        } else {
            format!("{text}:{DEFAULT_PORT}")
        };
        with_port
            .to_socket_addrs()
            .ok()
            .and_then(|mut addresses| addresses.next())
            .map(Entry::Address)
            .ok_or_else(|| format!("{text:?} names no address (HOST:PORT) and is no join code"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front() -> FrontScreen {
        FrontScreen::new(&Remembered { name: "ada".into(), address: "127.0.0.1:7000".into() })
    }

    #[test]
    fn joining_uses_the_remembered_fields_and_a_failure_goes_back_to_the_form_kept() {
        let mut front = front();
        assert_eq!(front.act(FrontAction::Open(Form::Join)), Outcome::Stay);
        let host = Entry::Address("127.0.0.1:7000".parse().expect("an address"));
        let launch = Launch::Join { host, name: "ada".into(), password: None };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
        assert_eq!(front.screen(), &Screen::Starting(Form::Join));
        front.failed("the host refused this player: the game is full");
        assert_eq!(
            front.screen(),
            &Screen::Failed(Form::Join, "the host refused this player: the game is full".into())
        );
        front.act(FrontAction::Back);
        assert_eq!(front.screen(), &Screen::Form(Form::Join, None));
        assert_eq!((front.name(), front.address()), ("ada", "127.0.0.1:7000"), "fields kept");
    }

    /// A code dialled from the command line that finds no match leaves its form filled
    /// with the name and the code, and trying again from there dials the code again.
    #[test]
    fn a_failed_dial_from_the_command_line_can_be_tried_again_from_its_form() {
        let mut front = front();
        front.fill("bea", "KQ7-4PX");
        front.starting(Form::Join);
        front.failed("no match holds the code KQ7-4PX");
        front.act(FrontAction::Back);
        assert_eq!((front.name(), front.address()), ("bea", "KQ7-4PX"));
        let code = "KQ7-4PX".parse().expect("a code");
        let launch = Launch::Join { host: Entry::Code(code), name: "bea".into(), password: None };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
    }

    #[test]
    fn a_refused_join_is_mended_on_its_form_and_tried_again() {
        let mut front = front();
        front.act(FrontAction::Open(Form::Join));
        front.act(FrontAction::Go);
        front.failed("the host at 127.0.0.1:7000 refused this password");
        front.act(FrontAction::Password("sesame".into()));
        let host = Entry::Address("127.0.0.1:7000".parse().expect("an address"));
        let launch = Launch::Join { host, name: "ada".into(), password: Some("sesame".into()) };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
    }

    #[test]
    fn a_bad_field_is_named_on_the_form_and_nothing_starts() {
        let mut front = front();
        front.act(FrontAction::Open(Form::Join));
        front.act(FrontAction::Name("   ".into()));
        assert_eq!(front.act(FrontAction::Go), Outcome::Stay);
        assert!(matches!(front.screen(), Screen::Form(Form::Join, Some(p)) if p.contains("name")));
        front.act(FrontAction::Name("bob".into()));
        front.act(FrontAction::Address("no such host".into()));
        assert_eq!(front.act(FrontAction::Go), Outcome::Stay);
        assert!(matches!(front.screen(), Screen::Form(_, Some(p)) if p.contains("no address")));
        front.act(FrontAction::Open(Form::Host));
        assert_eq!(
            front.screen(),
            &Screen::Form(Form::Join, Some("\"no such host\" names no address (HOST:PORT)".into())),
            "no form opens over a form"
        );
    }

    #[test]
    fn hosting_checks_the_port_and_a_bare_host_joins_on_the_default_port() {
        let mut front = front();
        front.act(FrontAction::Open(Form::Host));
        front.act(FrontAction::Port("70000".into()));
        assert_eq!(front.act(FrontAction::Go), Outcome::Stay);
        front.act(FrontAction::Port("7470".into()));
        front.act(FrontAction::Password("secret".into()));
        let launch = Launch::Host {
            name: "ada".into(),
            port: 7470,
            password: Some("secret".into()),
            code: false,
        };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
        front.act(FrontAction::Back);
        front.act(FrontAction::Back);
        front.act(FrontAction::Open(Form::Spectate));
        front.act(FrontAction::Address("127.0.0.1".into()));
        let host = Entry::Address("127.0.0.1:7465".parse().expect("an address"));
        let launch = Launch::Spectate { host, password: Some("secret".into()) };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
    }

    #[test]
    fn the_main_screen_plays_alone_opens_settings_and_quits() {
        let mut front = front();
        assert_eq!(front.act(FrontAction::OpenSettings), Outcome::Stay);
        assert_eq!(front.screen(), &Screen::Settings);
        front.act(FrontAction::Back);
        assert_eq!(front.act(FrontAction::PlayAlone), Outcome::Start(Launch::Alone));
        assert_eq!(front.act(FrontAction::Back), Outcome::Quit, "Esc on the main screen");
    }

    #[test]
    fn the_replays_page_watches_the_replay_picked_and_goes_back() {
        let mut front = front();
        front.act(FrontAction::OpenReplays);
        assert_eq!(front.screen(), &Screen::Replays);
        let path = PathBuf::from("2024-02-29_13-45-07.fxr");
        assert_eq!(
            front.act(FrontAction::Watch(path.clone())),
            Outcome::Start(Launch::Replay(path))
        );
        front.returned();
        assert_eq!(front.screen(), &Screen::Replays, "leaving a replay comes back to the list");
        front.act(FrontAction::Back);
        assert_eq!(front.screen(), &Screen::Main);
    }

    /// A join code typed into the address field, in any case, joins by code; a misread one
    /// is said on the form; a host can ask to be listed under one.
    #[test]
    fn a_join_code_in_the_address_field_joins_by_code() {
        let mut front = front();
        front.act(FrontAction::Open(Form::Join));
        front.act(FrontAction::Address("kq7-4px".into()));
        let code = "KQ7-4PX".parse().expect("a code");
        let launch = Launch::Join { host: Entry::Code(code), name: "ada".into(), password: None };
        assert_eq!(front.act(FrontAction::Go), Outcome::Start(launch));
        front.act(FrontAction::Back);
        front.act(FrontAction::Address("KQ0-4PX".into()));
        assert_eq!(front.act(FrontAction::Go), Outcome::Stay);
        assert!(
            matches!(front.screen(), Screen::Form(Form::Join, Some(why)) if why.contains("neither 0 nor O")),
            "{:?}",
            front.screen()
        );
        front.act(FrontAction::Back);
        front.act(FrontAction::Back);
        front.act(FrontAction::Open(Form::Host));
        front.act(FrontAction::Code(true));
        let hosted = front.act(FrontAction::Go);
        assert!(matches!(hosted, Outcome::Start(Launch::Host { code: true, .. })), "{hosted:?}");
    }

    #[test]
    fn a_host_picked_from_the_lan_list_joins_at_once() {
        let mut front = front();
        front.act(FrontAction::Open(Form::Join));
        let address: SocketAddr = "192.168.1.20:7465".parse().expect("an address");
        let launch =
            Launch::Join { host: Entry::Address(address), name: "ada".into(), password: None };
        assert_eq!(front.act(FrontAction::Pick(address)), Outcome::Start(launch));
        assert_eq!(front.remembered().address, "192.168.1.20:7465");
    }
}
