//! What an operator scrapes of a running host (`fixstep host --metrics ADDR`): a 64-player
//! `fixstep loadtest` plays against a headless host while the test scrapes `/metrics` over
//! HTTP, and the players, the bytes each way and the ticks' lateness it shows are what the
//! load test and the host's summary report.

use std::collections::BTreeMap;
use std::thread;
use std::time::{Duration, Instant};

use fixstep_tests::Scratch;
use fixstep_tests::processes::{
    Hosting, Running, number_after, report_number, strs, whole_machine,
};
use prometheus_parse::{Scrape, Value};
use serde_json::Value as Json;

/// Players of the load: the 64 the issue names.
const PLAYERS: u32 = 64;

/// How long the load test plays once every player is in, seconds.
const SECONDS: &str = "12";

/// How long the test waits for every player to be in the match: 64
/// players join four at a time (a host reads 16 connection requests a second from one
/// address), well under a minute on a loaded machine.
const JOIN_LIMIT: Duration = Duration::from_secs(120);

/// A tick, milliseconds.
const TICK_MS: u64 = 100;

/// How far what the host read over the whole run, once its players have gone, may stray from
/// what they sent: a hundredth, for datagrams the kernel drops when a socket's buffer fills on a
/// loaded machine (none on an idle one).
const RECEIVED_TOLERANCE: f64 = 0.01;

/// The share of what the host sent over the whole run its players may not have read: what it
/// sent in the moment between a player's last read and its goodbye reaching the host, and the
/// kernel's drops: a twentieth.
const UNREAD_SHARE: f64 = 0.05;

/// The share of the summary's counts the last scrape may miss: what the host sent and read
/// after it, in its last ticks and its farewell (its players gone): a twentieth.
const FAREWELL_SHARE: f64 = 0.05;

/// The series of one scrape: each sample's value by its name and labels.
struct Metrics(BTreeMap<(String, Vec<(String, String)>), f64>);

impl Metrics {
    /// The sample `name` without labels.
    fn value(&self, name: &str) -> f64 {
        self.0
            .get(&(name.to_owned(), Vec::new()))
            .copied()
            .unwrap_or_else(|| panic!("no sample {name} in the scrape"))
    }

    /// Every sample `name` with its labels, summed.
    fn sum(&self, name: &str) -> f64 {
        self.0.iter().filter(|((n, _), _)| n == name).map(|(_, v)| v).sum()
    }
}

/// Scrapes `url` over HTTP and reads it with a Prometheus text parser.
fn scrape(url: &str) -> (Metrics, Scrape) {
    let mut answer = ureq::get(url).call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let content_type = answer.headers().get("content-type").and_then(|v| v.to_str().ok());
    assert!(
        content_type.is_some_and(|t| t.starts_with("application/openmetrics-text")),
        "{content_type:?}"
    );
    let text = answer.body_mut().read_to_string().expect("a text body");
    let lines = text.lines().map(|l| Ok(l.to_owned()));
    let parsed = Scrape::parse(lines).expect("the scrape parses");
    let mut samples = BTreeMap::new();
    for sample in &parsed.samples {
        let value = match &sample.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => *v,
            // Buckets are read from the parsed scrape itself.
            Value::Histogram(_) | Value::Summary(_) => continue,
        };
        let mut labels: Vec<(String, String)> =
            sample.labels.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        labels.sort();
        samples.insert((sample.metric.clone(), labels), value);
    }
    (Metrics(samples), parsed)
}

/// The tick lateness histogram's buckets: (upper bound in seconds, ticks within it), in order.
fn lateness_buckets(scrape: &Scrape) -> Vec<(f64, f64)> {
    let sample = scrape
        .samples
        .iter()
        .find(|s| s.metric == "fixstep_tick_lateness_seconds")
        .unwrap_or_else(|| panic!("no lateness histogram: {:?}", scrape.samples));
    let Value::Histogram(buckets) = &sample.value else { panic!("{sample:?} is no histogram") };
    buckets.iter().map(|b| (b.less_than, b.count)).collect()
}

/// The bucket the `percent` quantile of `buckets` falls in: (its lower bound, its upper).
fn quantile_bucket(buckets: &[(f64, f64)], percent: f64) -> (f64, f64) {
    let total = buckets.last().expect("buckets").1;
    let rank = total * percent / 100.0;
    let at = buckets.iter().position(|&(_, count)| count >= rank).expect("the last holds all");
    (if at == 0 { 0.0 } else { buckets[at - 1].0 }, buckets[at].0)
}

#[test]
fn a_scrape_during_a_64_player_load_shows_the_players_bandwidth_and_lateness_reported() {
    let _machine = whole_machine();
    let dir = Scratch::new("metrics", "sixty-four");
    let game = Hosting::direct();
    let mut host_args = game.host_args();
    let players = PLAYERS.to_string();
    host_args.extend(
        ["--max-players", &players, "--max-spectators", "0", "--metrics", "127.0.0.1:0"]
            .map(str::to_owned),
    );
    let host = Running::start(&dir, "host", &strs(&host_args));
    host.wait_for("metrics at http://", Duration::from_secs(60));
    let url = host
        .stderr()
        .lines()
        .find_map(|l| l.strip_prefix("fixstep: metrics at "))
        .expect("the host names where its metrics are")
        .to_owned();
    let (empty, _) = scrape(&url);
    assert_eq!(empty.value("fixstep_players"), 0.0, "no player yet");
    let json = dir.path("load.json");
    let load = Running::start(
        &dir,
        "loadtest",
        &[
            "loadtest",
            &game.entry,
            "--peers",
            &players,
            "--moving",
            "50",
            "--duration",
            SECONDS,
            "--json",
            json.to_str().expect("a UTF-8 path"),
        ],
    );
    // During the run: every player present and ticks running, as the load test begins its
    // measures; then again once it has ended them and gone.
    load.wait_for("measuring for", JOIN_LIMIT);
    // The host writes its metrics once a tick: the last players welcomed show at the next.
    let shown_by = Instant::now() + Duration::from_millis(2 * TICK_MS);
    let during = loop {
        let (during, _) = scrape(&url);
        let players = during.value("fixstep_players");
        if players == f64::from(PLAYERS) {
            break during;
        }
        assert!(Instant::now() < shown_by, "{players} players shown of {PLAYERS}");
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(during.value("fixstep_spectators"), 0.0);
    assert_eq!(during.value("fixstep_seats_in_grace"), 0.0, "nobody has left");
    assert!(during.value("fixstep_ticks_total") > 0.0);
    thread::sleep(Duration::from_secs(2));
    let (midway, _) = scrape(&url);
    assert_eq!(midway.value("fixstep_players"), f64::from(PLAYERS), "all still playing");
    let load = load.finish();
    let (after, after_parsed) = scrape(&url);
    // Gone, their seats kept for them for the host's minute of grace.
    let gone_by = Instant::now() + Duration::from_secs(5);
    let gone = loop {
        let (gone, _) = scrape(&url);
        if gone.value("fixstep_players") == 0.0 {
            break gone;
        }
        assert!(Instant::now() < gone_by, "the players still shown after they left");
        thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(gone.value("fixstep_seats_in_grace"), f64::from(PLAYERS), "every seat kept");
    host.terminate();
    let host = host.finish();
    let report: Json =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the report is written"))
            .expect("the report is JSON");
    println!("{}\n{}\n{}", load.stdout, host.stdout, host.stderr);
    assert_eq!(report_number(&report, "welcomed"), f64::from(PLAYERS), "{}", load.stdout);

    // Bandwidth: once the players are gone, what the host read and sent over the whole run is
    // what they sent and received over theirs (their up is the host's in, their down the
    // host's out). Whole runs, not a window in the middle: two processes' windows, lined up
    // from outside by the clock, drift apart by more than a tolerance on a loaded machine.
    let wire = &report["players_wire_whole_run"];
    let (host_read, players_sent) =
        (gone.value("fixstep_wire_received_bytes_total"), report_number(wire, "bytes_sent"));
    println!("the host read {host_read} B, the players sent {players_sent} B");
    assert!(
        host_read <= players_sent && host_read >= players_sent * (1.0 - RECEIVED_TOLERANCE),
        "the host read {host_read} B; the players sent {players_sent} B"
    );
    let (host_sent, players_read) =
        (gone.value("fixstep_wire_sent_bytes_total"), report_number(wire, "bytes_received"));
    println!("the host sent {host_sent} B, the players read {players_read} B");
    assert!(
        players_read <= host_sent && players_read >= host_sent * (1.0 - UNREAD_SHARE),
        "the host sent {host_sent} B; the players read {players_read} B"
    );
    // Over the measures the players' rate is what the host shows between scrapes at their
    // start and end, within the drift of the two windows.
    let measured = report_number(&report["players_wire"], "bytes_received");
    let host_window = after.value("fixstep_wire_sent_bytes_total")
        - during.value("fixstep_wire_sent_bytes_total");
    assert!(
        host_window > measured / 2.0 && host_window < measured * 2.0,
        "the host sent {host_window} B between the scrapes, the players read {measured} B"
    );
    // Totals: the last scrape has all but the farewell's of what the summary counts.
    let summary_wire = host.stdout.lines().find_map(|l| l.strip_prefix("wire ")).expect("wire");
    let counts: Vec<f64> = summary_wire
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(')
        .filter_map(|w| w.parse().ok())
        .collect();
    let (summary_sent, summary_received) = (counts[1], counts[3]);
    for (name, summary) in [
        ("fixstep_wire_sent_bytes_total", summary_sent),
        ("fixstep_wire_received_bytes_total", summary_received),
    ] {
        let scraped = gone.value(name);
        assert!(
            scraped <= summary && scraped >= summary * (1.0 - FAREWELL_SHARE),
            "{name} {scraped}, the summary's {summary}"
        );
    }
    let by_reason = gone.sum("fixstep_wire_received_datagrams_total");
    let summary_reads = number_after(&host.stdout, "reads ").expect("the summary's reads");
    assert_eq!(summary_reads, counts[2], "{}", host.stdout);
    assert!(
        by_reason <= summary_reads && by_reason >= summary_reads * (1.0 - FAREWELL_SHARE),
        "the scrape's {by_reason} datagrams read, the summary's {summary_reads}"
    );

    // Lateness: the histogram holds every tick run so far, and the summary's p99 lies in or
    // next to the bucket the scrape's p99 falls in.
    let buckets = lateness_buckets(&after_parsed);
    let ticks = after.value("fixstep_ticks_total");
    let observed = buckets.last().map_or(0.0, |b| b.1);
    // A scrape may fall between a tick's count and its lateness.
    assert!((observed - ticks).abs() <= 1.0, "a tick, a lateness: {ticks} {buckets:?}");
    let summary_tick = number_after(&host.stdout, "tick ").expect("the summary's tick");
    assert!(ticks <= summary_tick && ticks >= summary_tick - 50.0, "{ticks} of {summary_tick}");
    let p99_ms = number_after(&host.stderr, "p99 ").expect("the host says how late its ticks ran");
    let (low, high) = quantile_bucket(&buckets, 99.0);
    assert!(
        p99_ms / 1e3 <= high * 2.0 && p99_ms / 1e3 >= low / 2.0,
        "the summary's p99 {p99_ms} ms, the scrape's between {low} and {high} s: {buckets:?}"
    );
}
