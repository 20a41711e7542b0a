//! `blinkblox bench --download` end to end against a loopback server playing the Wally registry
//! and GitHub (tests/bench_support), on temp copies of tests/fixtures/bench. No test touches the
//! internet.

use std::path::Path;

use crate::bench_support::*;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

fn lock_of(bench: &Path) -> toml::Table {
    read(&bench.join("tools.lock")).parse().expect("tools.lock is TOML")
}

fn locked<'a>(lock: &'a toml::Table, name: &str) -> &'a toml::Table {
    lock["tool"]
        .as_array()
        .expect("[[tool]]")
        .iter()
        .filter_map(toml::Value::as_table)
        .find(|tool| tool["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in the lock"))
}

fn standard() -> (Upstream, tempfile::TempDir, std::path::PathBuf) {
    let upstream = Upstream::start();
    let (temp, bench) = checkout(&fixtures().join("tools.toml"));
    (upstream, temp, bench)
}

#[test]
fn download_installs_patches_and_locks_then_a_second_download_verifies() {
    let (upstream, temp, bench) = standard();
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    assert!(output.status.success(), "{}", stderr(&output));

    // Installed, unpacked, the GitHub top folder stripped, the patch applied.
    let tools = bench.join("tools");
    assert!(read(&tools.join("bytenet/src/init.luau")).contains("bytenet-fixture"));
    assert!(tools.join("bytenet/wally.toml").is_file());
    let packet = read(&tools.join("packet/Packet/init.lua"));
    assert!(
        packet.contains("bytes > math.huge") && !packet.contains("bytes > 8_000"),
        "{packet}"
    );
    let zap = tools.join(if cfg!(windows) { "zap/zap.exe" } else { "zap/zap" });
    assert!(zap.is_file());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&zap).expect("zap").permissions().mode();
        assert!(mode & 0o111 != 0, "zap is not executable: {mode:o}");
    }
    assert!(read(&tools.join("packet/.blinkblox-origin.toml")).contains("version = \"1.7\""));

    // The lock: resolved versions (0.4 is a caret requirement: 0.4.6), URLs and sha256s.
    let lock = lock_of(&bench);
    assert_eq!(lock["version"].as_integer(), Some(1));
    let bytenet = locked(&lock, "bytenet");
    assert_eq!(bytenet["version"].as_str(), Some("0.4.6"));
    assert_eq!(bytenet["source"].as_str(), Some("wally:fixture/bytenet@0.4"));
    assert_eq!(
        bytenet["sha256"].as_str(),
        Some(sha256_hex(&upstream.bytenet_zip).as_str())
    );
    assert_eq!(
        bytenet["url"].as_str(),
        Some(format!("{}{BYTENET_CONTENTS}", upstream.server.base).as_str())
    );
    let packet = locked(&lock, "packet");
    assert_eq!(packet["version"].as_str(), Some("1.7"));
    assert_eq!(
        packet["sha256"].as_str(),
        Some(sha256_hex(&upstream.packet_tarball).as_str())
    );
    let zap = locked(&lock, "zap");
    assert_eq!(zap["platform"].as_str(), Some(platform_label().as_str()));
    assert_eq!(
        zap["asset"].as_str(),
        Some(format!("zap-0.6.8-{}.zip", platform_label()).as_str())
    );
    assert_eq!(zap["sha256"].as_str(), Some(sha256_hex(&upstream.zap_zip).as_str()));

    // Wally requests carry the Wally-Version header.
    let seen = upstream.server.seen();
    for path in [BYTENET_METADATA, BYTENET_CONTENTS] {
        let request = seen.iter().find(|seen| seen.path == path).expect("requested");
        assert_eq!(request.header("wally-version"), Some("0.3.2"), "{path}");
    }
    assert_nothing_half_written(&bench);

    // Second download: exactly what the lock names, no resolving, each hash verified.
    let lock_before = read(&bench.join("tools.lock"));
    upstream.server.clear_seen();
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert_eq!(err.matches("Verified").count(), 3, "{err}");
    assert!(err.contains("3 verified against tools.lock"), "{err}");
    let paths: Vec<String> = upstream.server.seen().into_iter().map(|seen| seen.path).collect();
    assert!(
        !paths.iter().any(|path| path == BYTENET_METADATA || path == ZAP_RELEASE),
        "{paths:?}"
    );
    assert_eq!(read(&bench.join("tools.lock")), lock_before);
    assert_nothing_half_written(&bench);
}

fn bench_cmd(dir: &Path, upstream: &Upstream, args: &[&str]) -> std::process::Output {
    run_bench(dir, &upstream.server.base, args)
}

#[test]
fn a_tampered_archive_is_refused_and_the_installed_tool_kept() {
    let (upstream, temp, bench) = standard();
    assert!(bench_cmd(temp.path(), &upstream, &["--download"]).status.success());
    let installed = read(&bench.join("tools/bytenet/src/init.luau"));
    let lock_before = read(&bench.join("tools.lock"));

    let mut files = files_of(&fixtures().join("packages/bytenet"));
    files.push(("src/backdoor.luau".to_string(), b"return 'tampered'".to_vec()));
    upstream.server.route(BYTENET_CONTENTS, Reply::bytes(zip_of(&files)));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("tool `bytenet`") && err.contains("does not match tools.lock"),
        "{err}"
    );
    assert!(
        err.contains(&sha256_hex(&upstream.bytenet_zip)),
        "names the locked hash: {err}"
    );
    assert!(err.contains("--update"), "{err}");
    assert_eq!(read(&bench.join("tools/bytenet/src/init.luau")), installed);
    assert!(!bench.join("tools/bytenet/src/backdoor.luau").exists());
    assert_eq!(read(&bench.join("tools.lock")), lock_before);
    assert_nothing_half_written(&bench);
}

#[test]
fn update_resolves_again_while_a_plain_download_keeps_the_locked_version() {
    let (upstream, temp, bench) = standard();
    assert!(
        bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"])
            .status
            .success()
    );
    let newer = zip_of(
        &files_of(&fixtures().join("packages/bytenet"))
            .into_iter()
            .rev()
            .collect::<Vec<_>>(),
    );
    upstream.server.route(
        BYTENET_METADATA,
        Reply::json(&wally_metadata(&["0.5.0", "0.4.7", "0.4.6", "0.4.3"])),
    );
    upstream.server.route(
        "/v1/package-contents/fixture/bytenet/0.4.7",
        Reply::bytes(newer.clone()),
    );

    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(locked(&lock_of(&bench), "bytenet")["version"].as_str(), Some("0.4.6"));

    let output = bench_cmd(temp.path(), &upstream, &["--update", "--tools", "bytenet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lock = lock_of(&bench);
    assert_eq!(locked(&lock, "bytenet")["version"].as_str(), Some("0.4.7"));
    assert_eq!(
        locked(&lock, "bytenet")["sha256"].as_str(),
        Some(sha256_hex(&newer).as_str())
    );
}

#[test]
fn a_locked_download_can_come_from_a_mirror_and_leaves_the_lock_alone() {
    let (upstream, temp, bench) = standard();
    assert!(
        bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"])
            .status
            .success()
    );
    let lock_before = read(&bench.join("tools.lock"));
    // The mirror serves the locked version's bytes and nothing else: no metadata to resolve with.
    let mirror = TestServer::start();
    mirror.route(BYTENET_CONTENTS, Reply::bytes(upstream.bytenet_zip.clone()));
    let output = run_bench(temp.path(), &mirror.base, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(err.contains("Verified bytenet 0.4.6"), "{err}");
    assert_eq!(read(&bench.join("tools.lock")), lock_before);
    let paths: Vec<String> = mirror.seen().into_iter().map(|seen| seen.path).collect();
    assert_eq!(paths, [BYTENET_CONTENTS]);
}

#[test]
fn editing_a_source_in_tools_toml_resolves_that_tool_again() {
    let (upstream, temp, bench) = standard();
    assert!(
        bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"])
            .status
            .success()
    );
    let tools_toml = bench.join("tools.toml");
    let edited = read(&tools_toml).replace("fixture/bytenet@0.4\"", "fixture/bytenet@=0.4.3\"");
    std::fs::write(&tools_toml, edited).expect("edit tools.toml");
    upstream.server.route(
        "/v1/package-contents/fixture/bytenet/0.4.3",
        Reply::bytes(upstream.bytenet_zip.clone()),
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        err.contains("tools.toml now says `wally:fixture/bytenet@=0.4.3`"),
        "{err}"
    );
    let lock = lock_of(&bench);
    assert_eq!(locked(&lock, "bytenet")["version"].as_str(), Some("0.4.3"));
    assert_eq!(
        locked(&lock, "bytenet")["source"].as_str(),
        Some("wally:fixture/bytenet@=0.4.3")
    );
}

#[test]
fn a_zip_slip_entry_is_refused_and_nothing_is_written() {
    let (upstream, temp, bench) = standard();
    let mut files = files_of(&fixtures().join("packages/bytenet"));
    files.push(("../../evil.luau".to_string(), b"return 'escaped'".to_vec()));
    upstream.server.route(BYTENET_CONTENTS, Reply::bytes(zip_of(&files)));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("refused") && err.contains("`../../evil.luau`") && err.contains("`..`"),
        "{err}"
    );
    assert!(!temp.path().join("evil.luau").exists() && !bench.join("evil.luau").exists());
    assert!(!bench.join("tools/bytenet").exists());
    assert!(!bench.join("tools.lock").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn an_absolute_tar_entry_is_refused() {
    let (upstream, temp, bench) = standard();
    // A tarball entry with an absolute name, written into the header raw (tar's own builder refuses it).
    let mut broken = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    let mut header = tar::Header::new_gnu();
    let name = b"/tmp/blinkblox-escape.lua";
    header.as_old_mut().name[..name.len()].copy_from_slice(name);
    header.set_size(3);
    header.set_mode(0o644);
    header.set_cksum();
    broken.append(&header, &b"bad"[..]).expect("entry");
    let broken = broken.into_inner().expect("tar").finish().expect("gzip");
    upstream.server.route(PACKET_ARCHIVE, Reply::bytes(broken));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "packet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("refused") && err.contains("absolute path"), "{err}");
    assert!(!Path::new("/tmp/blinkblox-escape.lua").exists());
    assert!(!bench.join("tools/packet").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn symlink_entries_are_refused_in_zips_and_tarballs() {
    let (upstream, temp, bench) = standard();
    let files = files_of(&fixtures().join("packages/bytenet"));
    upstream.server.route(
        BYTENET_CONTENTS,
        Reply::bytes(zip_with_symlink(&files, "src/link.luau", "/etc/passwd")),
    );
    let packet_files = files_of(&fixtures().join("packages/packet"));
    upstream.server.route(
        PACKET_ARCHIVE,
        Reply::bytes(tar_gz_with(
            "Suphi-Packet-1.7",
            &packet_files,
            Some(("Packet/link", "../../..")),
        )),
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet,packet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("entry `src/link.luau` is a symbolic link"), "{err}");
    assert!(
        err.contains("entry `Suphi-Packet-1.7/Packet/link` is a symbolic link"),
        "{err}"
    );
    assert!(!bench.join("tools/bytenet").exists() && !bench.join("tools/packet").exists());
    assert!(!bench.join("tools.lock").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn a_patch_with_the_wrong_count_fails_naming_tool_file_and_pattern() {
    let upstream = Upstream::start();
    let (temp, bench) = checkout(&fixtures().join("bad/wrong_count.toml"));
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("tool `packet`: patch on `Packet/init.lua`")
            && err.contains("tools.toml:4")
            && err.contains("expected `bytes > 8_000` 2 times but found it once"),
        "{err}"
    );
    assert!(!bench.join("tools/packet").exists());
    assert!(!bench.join("tools.lock").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn source_takes_a_tool_from_a_local_folder_without_the_network() {
    let (temp, bench) = checkout(&fixtures().join("tools.toml"));
    let local = temp.path().join("my-packet");
    for (name, data) in files_of(&fixtures().join("packages/packet")) {
        let path = local.join(&name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, data).expect("write");
    }
    std::fs::create_dir_all(local.join(".git")).expect("git dir");
    std::fs::write(local.join(".git/HEAD"), "ref: refs/heads/main").expect("git head");
    // A base URL nothing listens on: any network use would fail the run.
    let output = run_bench(
        temp.path(),
        "http://127.0.0.1:9",
        &[
            "--download",
            "--tools",
            "packet",
            "--source",
            &format!("packet={}", local.display()),
        ],
    );
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(err.contains("Copied") && err.contains("not locked"), "{err}");
    assert!(read(&bench.join("tools/packet/Packet/init.lua")).contains("bytes > math.huge"));
    assert!(
        read(&local.join("Packet/init.lua")).contains("bytes > 8_000"),
        "the original is untouched"
    );
    assert!(!bench.join("tools/packet/.git").exists());
    assert!(read(&bench.join("tools/packet/.blinkblox-origin.toml")).contains("version = \"local\""));
    assert!(!bench.join("tools.lock").exists(), "local tools are not locked");
    assert_nothing_half_written(&bench);
}

#[test]
fn a_404_is_a_clear_error() {
    let (upstream, temp, bench) = standard();
    upstream.server.remove(PACKET_ARCHIVE);
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "tool `packet`: GET {}{PACKET_ARCHIVE} failed: HTTP 404",
            upstream.server.base
        )),
        "{err}"
    );
    assert!(err.contains("does not exist there"), "{err}");
    // The other tools still install and are locked; packet is neither.
    assert!(bench.join("tools/bytenet/src/init.luau").is_file());
    assert!(!bench.join("tools/packet").exists());
    let lock = lock_of(&bench);
    let names: Vec<&str> = lock["tool"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert_eq!(names, ["bytenet", "zap"]);
    assert!(err.contains("2 downloaded") && err.contains("1 failed"), "{err}");
    assert_nothing_half_written(&bench);
}

#[test]
fn a_server_that_never_answers_times_out() {
    let (upstream, temp, bench) = standard();
    upstream.server.route(BYTENET_METADATA, Reply::Hang);
    let output = bench_cmd(
        temp.path(),
        &upstream,
        &["--download", "--tools", "bytenet", "--timeout", "0.5"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("tool `bytenet`") && err.contains("timed out"), "{err}");
    assert!(err.contains("--timeout"), "{err}");
    assert!(!bench.join("tools/bytenet").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn transient_failures_are_retried() {
    let (upstream, temp, bench) = standard();
    upstream.server.route(
        BYTENET_CONTENTS,
        Reply::FailThen {
            failures: 2,
            then: Box::new(Reply::bytes(upstream.bytenet_zip.clone())),
        },
    );
    let output = bench_cmd(
        temp.path(),
        &upstream,
        &["--download", "--tools", "bytenet", "--retries", "2", "--timeout", "1"],
    );
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert_eq!(
        err.matches("HTTP 503 Service Unavailable; retrying").count(),
        2,
        "{err}"
    );
    assert!(bench.join("tools/bytenet/src/init.luau").is_file());
}

#[test]
fn a_truncated_download_is_refused() {
    let (upstream, temp, bench) = standard();
    let partial = upstream.bytenet_zip[..100].to_vec();
    upstream.server.route(
        BYTENET_CONTENTS,
        Reply::Truncated {
            body: partial,
            declared: upstream.bytenet_zip.len(),
        },
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let expected = format!("cut short after 100 of {} bytes", upstream.bytenet_zip.len());
    assert!(err.contains(&expected), "{err}");
    assert!(!bench.join("tools/bytenet").exists());
    assert!(!bench.join("tools.lock").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn a_registry_that_answers_html_is_named() {
    let (upstream, temp, bench) = standard();
    let page = "<!DOCTYPE html><html><body>Wally</body></html>";
    upstream.server.route(BYTENET_METADATA, Reply::html(page));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("answered with an HTML page, not Wally package metadata"),
        "{err}"
    );
    assert!(err.contains("https://api.wally.run"), "{err}");

    // An HTML page where the package zip should be is refused too.
    upstream
        .server
        .route(BYTENET_METADATA, Reply::json(&wally_metadata(&["0.4.6"])));
    upstream
        .server
        .route(BYTENET_CONTENTS, Reply::bytes(page.as_bytes().to_vec()));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("sent an HTML page, not an archive"), "{err}");
    assert!(!bench.join("tools/bytenet").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn unknown_tools_are_named_with_the_known_ones() {
    let (upstream, temp, bench) = standard();
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet,nope"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("unknown tool `nope` in --tools") && err.contains("bytenet, packet, zap"),
        "{err}"
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--source", "nope=."]);
    assert!(
        stderr(&output).contains("unknown tool `nope` in --source"),
        "{}",
        stderr(&output)
    );
    assert!(upstream.server.seen().is_empty(), "nothing was fetched");
    assert!(!bench.join("tools").exists());
}

#[test]
fn malformed_tools_toml_names_key_and_line() {
    for (fixture, expected) in [
        ("unknown_key.toml", vec!["tools.toml:3:", "sorce"]),
        ("no_source.toml", vec!["tools.toml:4:", "tool `packet` has no source"]),
        ("syntax.toml", vec!["tools.toml:3:"]),
    ] {
        let (temp, bench) = checkout(&fixtures().join("bad").join(fixture));
        let output = run_bench(temp.path(), "http://127.0.0.1:9", &["--download"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{fixture}: {err}");
        for part in expected {
            assert!(err.contains(part), "{fixture}: `{part}` not in: {err}");
        }
        assert!(!bench.join("tools").exists(), "{fixture}");
    }
}

#[test]
fn a_malformed_lock_names_key_and_line_and_is_left_alone() {
    let (upstream, temp, bench) = standard();
    let lock = "version = 1\n\n[[tool]]\nname = \"bytenet\"\nsource = \"wally:fixture/bytenet@0.4\"\nversion = \"0.4.6\"\nurl = \"x\"\nsha256 = 12\n";
    std::fs::write(bench.join("tools.lock"), lock).expect("write lock");
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("tools.lock:8:") && err.contains("sha256"), "{err}");
    assert!(err.contains("--update"), "{err}");
    assert_eq!(read(&bench.join("tools.lock")), lock);
    assert!(upstream.server.seen().is_empty());
}

#[test]
fn a_release_without_an_asset_for_this_platform_lists_what_it_has() {
    let (upstream, temp, bench) = standard();
    let assets = serde_json::json!([{
        "name": "zap-0.6.8-plan9-mips.zip",
        "browser_download_url": format!("{}/elsewhere", upstream.server.base),
    }]);
    upstream.server.route(
        ZAP_RELEASE,
        Reply::json(&serde_json::json!({ "tag_name": "v0.6.8", "assets": assets })),
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "zap"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let expected = format!(
        "no asset of release `v0.6.8` of fixture/zap matches `zap-*-{}.zip`",
        platform_label()
    );
    assert!(
        err.contains(&expected) && err.contains("zap-0.6.8-plan9-mips.zip"),
        "{err}"
    );
    assert!(!bench.join("tools/zap").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn a_write_that_fails_is_a_clear_error() {
    let (upstream, temp, bench) = standard();
    // A file where the tools folder must go: creating it fails, as a full or read-only disk would.
    std::fs::write(bench.join("tools"), "not a folder").expect("write");
    let output = bench_cmd(temp.path(), &upstream, &["--download"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("could not create") && err.contains("tools`"), "{err}");
    assert!(upstream.server.seen().is_empty(), "nothing was fetched");
    assert!(!bench.join("tools.lock").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn running_without_the_harness_says_so_and_downloads_nothing() {
    let (upstream, temp, bench) = standard();
    for args in [
        &[][..],
        &["--run"][..],
        &["--download", "--run"][..],
        &["Runtime", "--download"][..],
    ] {
        let output = bench_cmd(temp.path(), &upstream, args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("the benchmark harness is missing"), "{args:?}: {err}");
    }
    assert!(upstream.server.seen().is_empty());
    assert!(!bench.join("tools").exists());
}

#[test]
fn the_real_tools_toml_parses() {
    // The checkout's own declarations: every tool the public benchmark names, with its recipes.
    let (temp, _bench) = checkout(&crate::repo_root().join("benchmark/tools.toml"));
    let output = run_bench(
        temp.path(),
        "http://127.0.0.1:9",
        &["--download", "--tools", "nothing-such"],
    );
    let err = stderr(&output);
    assert!(
        err.contains("blink, upstream, zap, netray-compile, bytenet, packet, quicknet, warp, lync, netray, jolt"),
        "{err}"
    );
}

#[test]
fn a_server_that_trickles_is_stopped_at_the_deadline() {
    // One byte every 0.2 s never trips a 3 s timeout of each read.
    let (upstream, temp, bench) = standard();
    upstream.server.route(
        BYTENET_CONTENTS,
        Reply::Drip {
            body: upstream.bytenet_zip.clone(),
            every: std::time::Duration::from_millis(200),
        },
    );
    let output = bench_cmd(
        temp.path(),
        &upstream,
        &["--download", "--tools", "bytenet", "--timeout", "3", "--deadline", "1"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("took longer than the 1 s a download may take"), "{err}");
    assert!(err.contains("--deadline"), "{err}");
    assert!(!bench.join("tools/bytenet").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn an_archive_that_unpacks_past_the_cap_is_refused_before_it_is_written() {
    // A few hundred KiB each that say they unpack to 100 MiB.
    let zeros = vec![0u8; 100 * 1024 * 1024];
    let (upstream, temp, bench) = standard();
    let bomb = zip_of(&[("src/init.luau".to_string(), zeros.clone())]);
    assert!(bomb.len() < 1024 * 1024);
    upstream.server.route(BYTENET_CONTENTS, Reply::bytes(bomb));
    let tarball = tar_gz_of("Suphi-Packet-1.7", &[("src/init.luau".to_string(), zeros)]);
    upstream.server.route(PACKET_ARCHIVE, Reply::bytes(tarball));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet,packet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("its entries say they hold 104857600 bytes, more than the 64 MiB"),
        "{err}"
    );
    assert!(err.contains("it says it unpacks to"), "{err}");
    assert!(!bench.join("tools/bytenet").exists() && !bench.join("tools/packet").exists());
    assert_nothing_half_written(&bench);
}

/// A tarball cut short ends in whatever bytes were last: when they read as a size past the
/// cap, the download is still called damaged, not a bomb.
#[test]
fn a_tarball_cut_short_is_damaged_not_too_large() {
    let (upstream, temp, bench) = standard();
    let noise: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let whole = tar_gz_of("Suphi-Packet-1.7", &[("src/init.luau".to_string(), noise)]);
    let cut = (whole.len() / 2..whole.len() - 8)
        .find(|&end| u32::from_le_bytes(whole[end - 4..end].try_into().expect("4 bytes")) > 64 * 1024 * 1024)
        .expect("a cut whose last bytes read as a large size");
    upstream
        .server
        .route(PACKET_ARCHIVE, Reply::bytes(whole[..cut].to_vec()));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "packet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("is damaged (cut short, or not gzip)"), "{err}");
    assert!(!err.contains("it says it unpacks to"), "{err}");
    assert!(!bench.join("tools/packet").exists());
    assert_nothing_half_written(&bench);
}

#[test]
fn a_download_leaves_another_runs_staging_alone_and_waits_its_turn() {
    let (upstream, temp, bench) = standard();
    let tools = bench.join("tools");
    std::fs::create_dir_all(&tools).expect("mkdir");
    // This test's own process stands for a download still running.
    let live = tools.join(format!(".staging-{}", std::process::id()));
    std::fs::create_dir_all(&live).expect("mkdir");
    std::fs::write(live.join("bytenet.download"), "half").expect("write");
    let dead = tools.join(".staging-99999999");
    std::fs::create_dir_all(&dead).expect("mkdir");
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        live.join("bytenet.download").is_file(),
        "a running download's staging is kept"
    );
    if cfg!(target_os = "linux") {
        assert!(!dead.exists(), "a killed download's staging is removed");
    }
    std::fs::write(tools.join(".download.lock"), std::process::id().to_string()).expect("lock");
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "another `blinkblox bench --download` (process {})",
            std::process::id()
        )),
        "{err}"
    );
}

#[test]
fn a_locked_version_that_is_not_one_is_refused() {
    let (upstream, temp, bench) = standard();
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lock = std::fs::read_to_string(bench.join("tools.lock")).expect("lock");
    let edited: Vec<String> = lock
        .lines()
        .map(|line| {
            if line.starts_with("version = \"") {
                "version = \"../../x\"".to_string()
            } else {
                line.to_string()
            }
        })
        .collect();
    std::fs::write(bench.join("tools.lock"), edited.join("\n") + "\n").expect("edit");
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("key `version` of tool `bytenet`: `../../x` is not a version"),
        "{err}"
    );
    assert!(
        !upstream.server.seen().iter().any(|seen| seen.path.contains("..")),
        "nothing was fetched"
    );
}

#[test]
fn oversized_metadata_and_redirects_to_other_schemes_are_named() {
    let (upstream, temp, _bench) = standard();
    let huge = format!("{{\"versions\": [\"{}\"]}}", "x".repeat(33 * 1024 * 1024));
    upstream.server.route(BYTENET_METADATA, Reply::bytes(huge.into_bytes()));
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert!(err.contains("answered with more than 32 MiB"), "{err}");
    upstream.server.route(
        BYTENET_METADATA,
        Reply::Redirect("ftp://example.invalid/metadata".to_string()),
    );
    let output = bench_cmd(temp.path(), &upstream, &["--download", "--tools", "bytenet"]);
    let err = stderr(&output);
    assert!(
        err.contains("redirect to a non-HTTP URL") && err.contains("refused"),
        "{err}"
    );
    assert!(
        !err.contains("failed after"),
        "not retried as if the network had failed: {err}"
    );
}

#[test]
fn the_public_suites_newer_tools_download_from_github_with_their_patches() {
    // The checkout's own tools.toml entries for Lync, NetRay, Jolt and NetRay-Compile, served as
    // GitHub source archives: two tags and two commits, each archive holding its entry and the files its patches
    // change (with the text each patch finds, once).
    let real = crate::repo_root().join("benchmark/tools.toml");
    let declared: toml::Table = read(&real).parse().expect("tools.toml");
    let (temp, bench) = checkout(&real);
    let server = TestServer::start();
    let keys = ["lync", "netray", "jolt", "netray-compile"];
    for key in keys {
        let tool = declared["tool"][key].as_table().expect("declared");
        let source = tool["github"].as_str().expect("a GitHub source");
        let (repo, reference) = source.split_once('@').expect("owner/repo@ref");
        let name = repo.split_once('/').expect("owner/repo").1;
        let mut files = vec![(
            tool["entry"].as_str().expect("entry").to_string(),
            format!("-- {key}\nreturn {{}}\n").into_bytes(),
        )];
        for patch in tool.get("patch").and_then(toml::Value::as_array).into_iter().flatten() {
            let file = patch["file"].as_str().expect("file").to_string();
            let find = patch["find"].as_str().expect("find");
            match files.iter_mut().find(|(path, _)| *path == file) {
                Some((_, text)) => text.extend(format!("local _ = {find}\n").bytes()),
                None => files.push((file, format!("local _ = {find}\n").into_bytes())),
            }
        }
        files.sort();
        server.route(
            &format!("/{repo}/archive/{reference}.tar.gz"),
            Reply::bytes(tar_gz_of(&format!("{name}-{reference}"), &files)),
        );
    }
    let output = run_bench(
        temp.path(),
        &server.base,
        &["--download", "--tools", "lync,netray,jolt,netray-compile"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lock = lock_of(&bench);
    for key in keys {
        let tool = declared["tool"][key].as_table().expect("declared");
        let installed = bench.join("tools").join(key);
        assert!(
            installed.join(tool["entry"].as_str().expect("entry")).is_file(),
            "{key}"
        );
        for patch in tool.get("patch").and_then(toml::Value::as_array).into_iter().flatten() {
            let text = read(&installed.join(patch["file"].as_str().expect("file")));
            let (find, replace) = (
                patch["find"].as_str().expect("find"),
                patch["replace"].as_str().expect("replace"),
            );
            assert!(text.contains(replace) && !text.contains(find), "{key}: {text}");
        }
        let reference = tool["github"]
            .as_str()
            .and_then(|source| source.split_once('@'))
            .expect("ref")
            .1;
        assert_eq!(locked(&lock, key)["version"].as_str(), Some(reference), "{key}");
    }
}
