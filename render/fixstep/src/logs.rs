//! Where the program's log lines go: every crate's `tracing` events, printed on standard error
//! as human lines (`fixstep: what happened`, as the program always spoke) or as JSON lines
//! (`--log-format json`) for a log collector, filtered by `RUST_LOG`.

use std::fmt;

use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// The environment variable that chooses what is logged: `target=level` pairs and a bare
/// default level, comma-separated (`RUST_LOG=warn,fixstep=debug`), as `env_logger` reads it.
pub const LOG_FILTER_VAR: &str = "RUST_LOG";

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `fixstep: what happened`, one line an event: the message alone, as a person reads it.
    #[default]
    Human,
    /// One JSON object a line: `timestamp`, `level`, `target`, `message` and the event's
    /// fields, for a log collector.
    Json,
}

/// A human line: `fixstep: ` and the event's message (its other fields are for JSON lines).
struct HumanLine;

/// Finds an event's message among its fields.
#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            value.clone_into(&mut self.0);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

impl<S, N> FormatEvent<S, N> for HumanLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        _context: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let mut message = Message::default();
        event.record(&mut message);
        writeln!(writer, "fixstep: {}", message.0)
    }
}

/// The libraries whose info is their own workings, not the player's or the operator's news:
/// the STUN and TURN protocol crates narrate every request. Their warnings still show.
const CHATTY_LIBRARIES: [&str; 4] = ["stun_proto", "stun_types", "turn_client_proto", "turn_types"];

/// What `RUST_LOG` asks for: everything at info and above unless it says otherwise (the
/// [`CHATTY_LIBRARIES`] at warnings); a value that does not read is said, and the default
/// used.
fn filter() -> (Targets, Option<String>) {
    let default = CHATTY_LIBRARIES
        .iter()
        .fold(Targets::new().with_default(LevelFilter::INFO), |targets, library| {
            targets.with_target(*library, LevelFilter::WARN)
        });
    match std::env::var(LOG_FILTER_VAR) {
        Ok(value) if !value.trim().is_empty() => match value.parse::<Targets>() {
            Ok(targets) => (targets, None),
            Err(e) => (default, Some(format!("ignoring {LOG_FILTER_VAR}={value:?}: {e}"))),
        },
        _ => (default, None),
    }
}

/// Installs the subscriber that prints every event as `format` says, for the whole process.
pub fn install(format: LogFormat) {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    let (targets, complaint) = filter();
    let lines = tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false);
    let installed = match format {
        LogFormat::Human => tracing::subscriber::set_global_default(
            tracing_subscriber::registry().with(lines.event_format(HumanLine).with_filter(targets)),
        ),
        LogFormat::Json => tracing::subscriber::set_global_default(
            tracing_subscriber::registry().with(
                lines
                    .json()
                    .flatten_event(true)
                    .with_current_span(false)
                    .with_span_list(false)
                    .with_filter(targets),
            ),
        ),
    };
    // Only a second install fails, and the first one prints.
    drop(installed);
    if let Some(complaint) = complaint {
        tracing::warn!("{complaint}");
    }
}
