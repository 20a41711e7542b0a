//! `blinkblox sync --watch`: start it, edit a schema, see the output change, kill it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::sync_support::{project, read};

/// Kills the watcher however the test ends.
struct Watcher(Child);

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for_line(lines: &mpsc::Receiver<String>, what: &str, seen: &mut Vec<String>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Ok(line) = lines.recv_timeout(Duration::from_millis(100)) {
            let done = line.contains(what);
            seen.push(line);
            if done {
                return;
            }
        }
    }
    panic!(
        "no line containing {what:?} within 60 s; output so far:\n{}",
        seen.join("\n")
    );
}

/// Replaces a file in one step, as most editors save, so the watcher never sees it half
/// written (a truncate-then-write could otherwise be picked up between the two).
fn save(path: &std::path::Path, text: &str) {
    let staged = path.with_extension("saving");
    std::fs::write(&staged, text).expect("stage");
    std::fs::rename(&staged, path).expect("save");
}

#[test]
fn watch_rebuilds_on_schema_import_and_manifest_changes_and_survives_errors() {
    let (_temp, dir) = project("basic");
    let child = Command::new(assert_cmd::cargo::cargo_bin("blinkblox"))
        .args(["sync", "--watch"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the watcher");
    let mut watcher = Watcher(child);
    let stdout = watcher.0.stdout.take().expect("stdout");
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    wait_for_line(&lines, "watching for changes", &mut seen);
    let output = dir.join("src/shared/Net/chat/Server.luau");
    assert!(!read(&output).contains("Shout"));

    // A broken schema: reported, and the watcher keeps running.
    let schema = dir.join("net/chat.blink");
    let original = read(&schema);
    save(&schema, "event {");
    wait_for_line(&lines, "sync failed", &mut seen);

    let edited = original
        + "\nevent Shout {\n    From: Client,\n    Type: Reliable,\n    Call: ManyAsync,\n    Data: string,\n}\n";
    save(&schema, &edited);
    wait_for_line(&lines, "synced 3 schemas", &mut seen);
    assert!(read(&output).contains("Shout"), "the rebuilt module has the new event");

    // An import: its importer is rebuilt.
    let common = dir.join("net/shared/common.blink");
    let combat = dir.join("src/shared/Net/combat/Server.luau");
    let combat_before = read(&combat);
    save(&common, &read(&common).replace("y: f32,", "y: f32,\n    z: f32,"));
    wait_for_line(&lines, "synced 3 schemas", &mut seen);
    assert_ne!(read(&combat), combat_before, "the importer was rebuilt");

    // The manifest: asking for Types modules writes them.
    let manifest = dir.join("blinkblox.toml");
    save(
        &manifest,
        &read(&manifest).replace("[output]\n", "[output]\ntypes = true\n"),
    );
    wait_for_line(&lines, "synced 3 schemas", &mut seen);
    assert!(dir.join("src/shared/Net/chat/Types.luau").is_file());
    assert!(watcher.0.try_wait().expect("status").is_none(), "still running");
}
