//! A headless host as an Agones game server, against an SDK sidecar of the test's own on
//! loopback: the sidecar's HTTP gateway as the SDK's REST interface defines it (`POST /ready`,
//! `POST /health`, `GET /gameserver`, `POST /v1beta1/lists/{name}:addValue` and
//! `:removeValue`, `POST /shutdown`), recording every call in order.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use fixstep_tests::Scratch;
use fixstep_tests::processes::{Hosting, Running, shared_machine, strs};

/// The session's password in the lifecycle test.
const PASSWORD: &str = "agones-lifecycle";

/// One call the host made: method, path and body.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Call {
    method: String,
    path: String,
    body: String,
}

/// The test's sidecar: answers as Agones' would, records the calls, fails the first Ready
/// (a sidecar that is not up yet), and says the server is allocated once told to.
struct Sidecar {
    port: u16,

    calls: Arc<Mutex<Vec<Call>>>,
    allocated: Arc<AtomicBool>,
}

impl Sidecar {
    /// A sidecar whose GameServer players reach at 127.0.0.1:`public_port`.
    fn start(public_port: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("loopback binds");
        let port = listener.local_addr().expect("bound").port();
        let calls = Arc::new(Mutex::new(Vec::new()));
        let allocated = Arc::new(AtomicBool::new(false));
        let (shared_calls, shared_allocated) = (Arc::clone(&calls), Arc::clone(&allocated));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (calls, allocated) = (Arc::clone(&shared_calls), Arc::clone(&shared_allocated));
                thread::spawn(move || serve(stream, &calls, &allocated, public_port));
            }
        });
        Self { port, calls, allocated }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Waits until a call to `path` came.
    fn wait_for(&self, path: &str) {
        let start = Instant::now();
        while !self.calls().iter().any(|c| c.path == path) {
            assert!(start.elapsed() < Duration::from_secs(30), "no {path} in {:?}", self.calls());
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Serves one connection (the host's client keeps it alive for many calls).
fn serve(stream: TcpStream, calls: &Mutex<Vec<Call>>, allocated: &AtomicBool, public_port: u16) {
    let mut reader = BufReader::new(stream.try_clone().expect("a socket clones"));
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut words = line.split_whitespace();
        let (method, path) = (words.next().unwrap_or("").to_owned(), words.next().unwrap_or(""));
        let path = path.to_owned();
        let mut length = 0;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header.trim().is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let (status, answer) = {
            let mut calls = calls.lock().unwrap_or_else(PoisonError::into_inner);
            let first_ready = path == "/ready" && !calls.iter().any(|c| c.path == "/ready");
            calls.push(Call { method, path: path.clone(), body });
            if first_ready {
                ("503 Service Unavailable", "{}".to_owned())
            } else if path == "/gameserver" {
                let state = if allocated.load(Ordering::Relaxed) { "Allocated" } else { "Ready" };
                let address = r#""address":"127.0.0.1""#;
                let ports = format!(r#""ports":[{{"name":"game","port":{public_port}}}]"#);
                ("200 OK", format!(r#"{{"status":{{"state":"{state}",{address},{ports}}}}}"#))
            } else {
                ("200 OK", "{}".to_owned())
            }
        };
        let response = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{answer}",
            answer.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// The players in the `players` List after each of `calls`, as Agones would hold it.
fn players_over(calls: &[Call]) -> Vec<Vec<String>> {
    let mut players: Vec<String> = Vec::new();
    let mut over = Vec::new();
    for call in calls {
        let value = || {
            let json: serde_json::Value = serde_json::from_str(&call.body).expect("a JSON body");
            json["value"].as_str().expect("a value").to_owned()
        };
        match call.path.as_str() {
            "/v1beta1/lists/players:addValue" => players.push(value()),
            "/v1beta1/lists/players:removeValue" => players.retain(|p| *p != value()),
            _ => continue,
        }
        over.push(players.clone());
    }
    over
}

/// Where `path` was first called, in `calls`.
fn first(calls: &[Call], path: &str) -> usize {
    calls.iter().position(|c| c.path == path).unwrap_or_else(|| panic!("no {path} in {calls:?}"))
}

/// A host under Agones, waiting for its allocation: it asks where players reach it (the
/// node's address, here a relay in front of it, so that a matchmaker's connect tokens for
/// that address are good there), says Ready once it listens (again after the sidecar's first refusal), then is healthy
/// while it waits, the match started on Allocated,
/// two players reported in and out as they come and go, and Shutdown last, once the match
/// ended with the last player (`--end-when-empty`). Every call after Ready is a POST the SDK
/// defines, and nothing comes after Shutdown.
#[test]
fn a_host_under_agones_is_ready_healthy_allocated_reports_its_players_and_shuts_down() {
    let _machine = shared_machine();
    let dir = Scratch::new("agones", "lifecycle");
    // Players come through the relay, as they would to the node's port.
    let (game, relay_port) = Hosting::through_netem();
    let _relay = game.netem(&dir, relay_port, &[], 1);
    let sidecar = Sidecar::start(relay_port);
    let port = sidecar.port.to_string();
    let host_port = game.host_port.to_string();
    // Not told of the relay: Agones tells it.
    let host_args = [
        "host",
        "--headless",
        "--bind",
        "127.0.0.1",
        "--port",
        &host_port,
        "--agones",
        "--wait-for-allocation",
        "--end-when-empty",
        "1",
        "--max-players",
        "4",
        // A departed player's seat freed at the next tick: the list follows them out.
        "--seat-grace",
        "0",
        // Sealed, as a match on the internet is.
        "--password",
        PASSWORD,
    ];
    let env = [("AGONES_SDK_HTTP_PORT", port.as_str())];
    let host = Running::start_with_env(&dir, "host", &host_args, &env);
    host.wait_for("waiting to be allocated", Duration::from_secs(60));
    sidecar.wait_for("/gameserver");
    // Healthy while it waits: the orchestrator must not take it for dead.
    sidecar.wait_for("/health");
    sidecar.allocated.store(true, Ordering::Relaxed);
    host.wait_for("Agones: allocated", Duration::from_secs(30));
    let allocated_at = sidecar.calls().len();
    let sealed = ["--password", PASSWORD];
    let ada =
        game.bot_peer(&dir, "ada", &[&sealed[..], &["--name", "ada", "--ticks", "60"]].concat());
    thread::sleep(Duration::from_secs(2));
    let bob =
        game.bot_peer(&dir, "bob", &[&sealed[..], &["--name", "bob", "--ticks", "80"]].concat());
    ada.finish();
    bob.finish();
    let host = host.finish();
    let calls = sidecar.calls();
    let paths: Vec<&str> = calls.iter().map(|c| c.path.as_str()).collect();
    println!("{paths:?}\n{}", host.stderr);
    // Where players reach it, then Ready, refused once and tried again.
    assert_eq!(&paths[..3], ["/gameserver", "/ready", "/ready"], "Ready, retried");
    let reach = format!("players reach this server at 127.0.0.1:{relay_port}");
    assert!(host.stderr.contains(&reach), "{}", host.stderr);
    assert!(host.stderr.contains("trying again"), "the refusal is logged:\n{}", host.stderr);
    assert!(calls.iter().all(|c| c.method == "POST" || c.path == "/gameserver"), "{calls:?}");
    // Waiting: the allocation was looked for, and nobody joined before it.
    assert!(first(&calls, "/gameserver") < allocated_at);
    assert!(first(&calls, "/v1beta1/lists/players:addValue") >= allocated_at);
    // The players, in and out as they came and went: both at once at the most.
    let players = players_over(&calls);
    assert_eq!(players.first(), Some(&vec!["ada".to_owned()]), "{players:?}");
    assert!(players.contains(&vec!["ada".to_owned(), "bob".to_owned()]), "{players:?}");
    assert_eq!(players.last(), Some(&Vec::new()), "everyone out by the end: {players:?}");
    assert_eq!(players.len(), 4, "two in, two out: {players:?}");
    // Healthy throughout: a report a second from the tick loop, over a match of 8 s or more.
    let healthy = calls[allocated_at..].iter().filter(|c| c.path == "/health").count();
    assert!(healthy >= 6, "{healthy} health reports during the match");
    // Shutdown last.
    assert_eq!(paths.last(), Some(&"/shutdown"), "{paths:?}");
    assert_eq!(paths.iter().filter(|p| **p == "/shutdown").count(), 1);
}

/// A host under Agones that its orchestrator stops (SIGTERM, as Kubernetes stops a pod) ends
/// its match and says Shutdown; one whose sidecar never answers plays on regardless.
#[test]
fn a_stopped_host_says_shutdown_and_a_missing_sidecar_never_stops_a_match() {
    let _machine = shared_machine();
    let dir = Scratch::new("agones", "stopped");
    let game = Hosting::direct();
    let sidecar = Sidecar::start(game.host_port);
    let port = sidecar.port.to_string();
    let mut host_args = game.host_args();
    host_args.push("--agones".to_owned());
    let env = [("AGONES_SDK_HTTP_PORT", port.as_str())];
    let host = Running::start_with_env(&dir, "host", &strs(&host_args), &env);
    sidecar.wait_for("/health");
    host.terminate();
    host.finish();
    let paths: Vec<String> = sidecar.calls().into_iter().map(|c| c.path).collect();
    assert_eq!(paths.last().map(String::as_str), Some("/shutdown"), "{paths:?}");

    // Nothing listens on this port: every call fails, and the match goes on to its end.
    let nowhere = fixstep_tests::processes::free_port();
    let lonely = Scratch::new("agones", "no-sidecar");
    let game = Hosting::direct();
    let mut host_args = game.host_args();
    host_args.extend(["--agones", "--ticks", "30"].map(str::to_owned));
    let env = [("AGONES_SDK_HTTP_PORT", &*nowhere.to_string())];
    let host = Running::start_with_env(&lonely, "host", &strs(&host_args), &env).finish();
    assert!(host.stdout.starts_with("tick 30"), "the match ran to its end:\n{}", host.stdout);
    assert!(host.stderr.contains("trying again"), "{}", host.stderr);
    assert!(host.stderr.contains("gave up"), "it stops waiting for the sidecar:\n{}", host.stderr);
}
