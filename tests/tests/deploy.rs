//! The deployment files (`deploy/`), checked without a cluster or a container engine: the
//! Agones manifests are valid YAML with the fields Agones requires and agree with each other
//! and with the image; the image's build file builds the headless server and runs the
//! binary with flags it really has.

use std::path::Path;

use fixstep_tests::{run_fixstep, workspace_root};
use yaml_rust2::{Yaml, YamlLoader};

/// The one YAML document in `deploy/agones/{name}`.
fn manifest(name: &str) -> Yaml {
    let path = workspace_root().join("deploy/agones").join(name);
    let text = std::fs::read_to_string(&path).expect("the manifest reads");
    let mut docs = YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not YAML: {e}", path.display()));
    assert_eq!(docs.len(), 1, "{} holds one document", path.display());
    docs.remove(0)
}

/// `doc`'s string at `key`, which must be there.
fn text<'a>(doc: &'a Yaml, key: &str) -> &'a str {
    doc[key].as_str().unwrap_or_else(|| panic!("no string {key} in {doc:?}"))
}

/// The Dockerfile.
fn dockerfile() -> String {
    std::fs::read_to_string(workspace_root().join("deploy/Dockerfile")).expect("it reads")
}

/// The JSON array of the Dockerfile's `instruction` (`ENTRYPOINT`, `CMD`).
fn exec_form(dockerfile: &str, instruction: &str) -> Vec<String> {
    let line = dockerfile
        .lines()
        .find_map(|l| l.strip_prefix(instruction).filter(|rest| rest.starts_with(' ')))
        .unwrap_or_else(|| panic!("no {instruction} in the Dockerfile"));
    serde_json::from_str(line.trim())
        .unwrap_or_else(|e| panic!("{instruction} is not a JSON array (exec form): {e}"))
}

/// The container's arguments in the Fleet.
fn fleet_args(fleet: &Yaml) -> Vec<String> {
    let container = &fleet["spec"]["template"]["spec"]["template"]["spec"]["containers"][0];
    let args = container["args"].as_vec().expect("the container has args");
    args.iter().map(|a| a.as_str().expect("a string argument").to_owned()).collect()
}

/// The value after `flag` in `args`.
fn value_of<'a>(args: &'a [String], flag: &str) -> &'a str {
    let at = args.iter().position(|a| a == flag).unwrap_or_else(|| panic!("no {flag} in {args:?}"));
    args.get(at + 1).unwrap_or_else(|| panic!("{flag} has no value"))
}

#[test]
fn the_fleet_has_the_fields_agones_requires_and_matches_the_image() {
    let fleet = manifest("fleet.yaml");
    assert_eq!(text(&fleet, "apiVersion"), "agones.dev/v1");
    assert_eq!(text(&fleet, "kind"), "Fleet");
    assert!(!text(&fleet["metadata"], "name").is_empty());
    assert!(fleet["spec"]["replicas"].as_i64().is_some_and(|r| r >= 1));
    let server = &fleet["spec"]["template"]["spec"];
    // The port the host looks up by name, on the port the image listens on, over UDP.
    let ports = server["ports"].as_vec().expect("the GameServer has ports");
    let game = ports.iter().find(|p| p["name"].as_str() == Some("game")).expect("a port `game`");
    assert_eq!(text(game, "protocol"), "UDP");
    assert!(["Dynamic", "Static", "Passthrough"].contains(&text(game, "portPolicy")));
    let entrypoint = exec_form(&dockerfile(), "ENTRYPOINT");
    let container_port = game["containerPort"].as_i64().expect("a containerPort");
    assert_eq!(value_of(&entrypoint, "--port"), container_port.to_string());
    assert!(dockerfile().contains(&format!("EXPOSE {container_port}/udp")));
    // Agones' health check outlasts the host's report a second.
    assert!(server["health"]["periodSeconds"].as_i64().is_some_and(|s| s >= 2));
    // The players List holds every seat.
    let args = fleet_args(&fleet);
    let seats = server["lists"]["players"]["capacity"].as_i64().expect("a players List");
    assert_eq!(value_of(&args, "--max-players"), seats.to_string());
    // A pod with one container, the image's, with resources asked for.
    let pod = &server["template"]["spec"];
    let container = &pod["containers"][0];
    assert!(!text(container, "name").is_empty() && !text(container, "image").is_empty());
    for kind in ["requests", "limits"] {
        for resource in ["cpu", "memory"] {
            assert!(container["resources"][kind][resource].as_str().is_some(), "{kind} {resource}");
        }
    }
    // The password file is mounted from a volume the pod declares.
    let password = value_of(&args, "--password-file");
    let mount = container["volumeMounts"].as_vec().expect("mounts")[0].clone();
    assert!(password.starts_with(text(&mount, "mountPath")));
    let volumes = pod["volumes"].as_vec().expect("volumes");
    assert!(volumes.iter().any(|v| v["name"] == mount["name"]), "the mounted volume is declared");
}

/// Prometheus finds every match's metrics: the pod asks to be scraped, at the port and path
/// the image's host serves them on, and the container declares that port.
#[test]
fn the_fleets_pods_are_scraped_where_the_image_serves_its_metrics() {
    let fleet = manifest("fleet.yaml");
    let pod = &fleet["spec"]["template"]["spec"]["template"];
    let annotations = &pod["metadata"]["annotations"];
    assert_eq!(text(annotations, "prometheus.io/scrape"), "true");
    assert_eq!(text(annotations, "prometheus.io/path"), "/metrics");
    let port = text(annotations, "prometheus.io/port");
    let entrypoint = exec_form(&dockerfile(), "ENTRYPOINT");
    let metrics: std::net::SocketAddr =
        value_of(&entrypoint, "--metrics").parse().expect("--metrics takes an address");
    assert_eq!(metrics.port().to_string(), port, "the image serves them on the scraped port");
    assert!(metrics.ip().is_unspecified(), "on the pod's address, not only its loopback");
    let container = &pod["spec"]["containers"][0];
    let ports = container["ports"].as_vec().expect("the container declares its ports");
    let declared = ports
        .iter()
        .find(|p| p["containerPort"].as_i64().map(|p| p.to_string()).as_deref() == Some(port))
        .unwrap_or_else(|| panic!("no container port {port}: {ports:?}"));
    assert_eq!(text(declared, "protocol"), "TCP");
    assert!(dockerfile().contains(&format!("EXPOSE {port}/tcp")));
}

#[test]
fn the_autoscaler_scales_the_fleet_by_a_buffer() {
    let fleet = manifest("fleet.yaml");
    let scaler = manifest("fleetautoscaler.yaml");
    assert_eq!(text(&scaler, "apiVersion"), "autoscaling.agones.dev/v1");
    assert_eq!(text(&scaler, "kind"), "FleetAutoscaler");
    assert!(!text(&scaler["metadata"], "name").is_empty());
    assert_eq!(text(&scaler["spec"], "fleetName"), text(&fleet["metadata"], "name"));
    let policy = &scaler["spec"]["policy"];
    assert_eq!(text(policy, "type"), "Buffer");
    let buffer = &policy["buffer"];
    let size = buffer["bufferSize"].as_i64().expect("a bufferSize");
    let (min, max) = (buffer["minReplicas"].as_i64(), buffer["maxReplicas"].as_i64());
    let max = max.expect("a buffer policy needs maxReplicas");
    assert!(size >= 1 && min.unwrap_or(0) <= max && size <= max, "{buffer:?}");
}

/// The image's command, with the Fleet's arguments after it, parses as `fixstep host`'s
/// (clap refuses an unknown flag or a bad value before it prints the help); the build builds
/// the `fixstep` binary without the window, with features `fixstep` has.
#[test]
fn the_image_builds_the_headless_server_and_names_the_binarys_real_flags() {
    let dockerfile = dockerfile();
    let build = dockerfile
        .lines()
        .find(|l| l.contains("cargo build"))
        .expect("the Dockerfile builds with cargo");
    assert!(build.contains("-p fixstep") && build.contains("--release"), "{build}");
    assert!(build.contains("--no-default-features"), "no window, so no GPU library: {build}");
    let cargo_toml = std::fs::read_to_string(workspace_root().join("render/fixstep/Cargo.toml"))
        .expect("the binary's manifest reads");
    let features = build.split("--features").nth(1).expect("the features it needs");
    for feature in features.split_whitespace().next().unwrap_or("").split(',') {
        assert!(cargo_toml.contains(&format!("\n{feature} = [")), "no feature {feature:?}");
    }
    // The final stage installs nothing of a GPU or a window system.
    let run_stage = dockerfile.rsplit("\nFROM ").next().expect("stages");
    for library in ["mesa", "vulkan", "libx11", "wayland", "libxkb"] {
        assert!(!run_stage.to_lowercase().contains(library), "{library} in the image");
    }
    let entrypoint = exec_form(&dockerfile, "ENTRYPOINT");
    let cmd = exec_form(&dockerfile, "CMD");
    assert!(Path::new(&entrypoint[0]).ends_with("fixstep"), "{entrypoint:?}");
    assert!(
        dockerfile
            .contains(&format!("COPY --from=build /src/target/release/fixstep {}", entrypoint[0]))
    );
    for args in [cmd, fleet_args(&manifest("fleet.yaml"))] {
        let mut all: Vec<&str> = entrypoint[1..].iter().map(String::as_str).collect();
        all.extend(args.iter().map(String::as_str));
        all.push("--help");
        let out = run_fixstep(&all);
        assert!(
            out.status.success(),
            "`fixstep {}` does not parse: {}",
            all.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
