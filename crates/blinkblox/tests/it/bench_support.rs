//! Support for the `blinkblox bench --download` tests: a tiny HTTP/1.1 server on 127.0.0.1
//! (std only) that plays the Wally registry and GitHub, archive builders, and a temp checkout.
//!
//! Nothing here touches the internet: every URL the tests hand to blinkblox is this server's.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sha2::{Digest, Sha256};

/// How the server answers one path.
#[derive(Clone)]
pub enum Reply {
    Ok {
        body: Vec<u8>,
        content_type: String,
    },
    Status(u16),
    /// Declares `declared` bytes of Content-Length, sends `body`, and closes the connection.
    Truncated {
        body: Vec<u8>,
        declared: usize,
    },
    /// Accepts the request and never answers.
    Hang,
    /// Declares `body`'s length and sends it one byte every `every`.
    Drip {
        body: Vec<u8>,
        every: Duration,
    },
    /// Answers 302 with `Location: location`.
    Redirect(String),
    /// Answers 503 `failures` times, then `then`.
    FailThen {
        failures: usize,
        then: Box<Reply>,
    },
}

impl Reply {
    pub fn bytes(body: Vec<u8>) -> Reply {
        Reply::Ok {
            body,
            content_type: "application/octet-stream".to_string(),
        }
    }

    pub fn json(value: &serde_json::Value) -> Reply {
        Reply::Ok {
            body: value.to_string().into_bytes(),
            content_type: "application/json".to_string(),
        }
    }

    pub fn html(text: &str) -> Reply {
        Reply::Ok {
            body: text.as_bytes().to_vec(),
            content_type: "text/html; charset=utf-8".to_string(),
        }
    }
}

/// A request the server saw: its path and its headers (names lowercased).
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

pub struct TestServer {
    pub base: String,
    routes: Arc<Mutex<HashMap<String, Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl TestServer {
    pub fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let base = format!("http://{}", listener.local_addr().expect("local addr"));
        let routes: Arc<Mutex<HashMap<String, Reply>>> = Arc::default();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let (thread_routes, thread_seen) = (routes.clone(), seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (routes, seen) = (thread_routes.clone(), thread_seen.clone());
                std::thread::spawn(move || serve(stream, &routes, &seen));
            }
        });
        TestServer { base, routes, seen }
    }

    pub fn route(&self, path: &str, reply: Reply) {
        self.routes.lock().expect("routes").insert(path.to_string(), reply);
    }

    pub fn remove(&self, path: &str) {
        self.routes.lock().expect("routes").remove(path);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("seen").clone()
    }

    pub fn clear_seen(&self) {
        self.seen.lock().expect("seen").clear();
    }
}

fn serve(mut stream: TcpStream, routes: &Mutex<HashMap<String, Reply>>, seen: &Mutex<Vec<Seen>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 64 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.lines();
    let path = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .unwrap_or("/")
        .to_string();
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    seen.lock().expect("seen").push(Seen {
        path: path.clone(),
        headers,
    });
    let reply = {
        let mut routes = routes.lock().expect("routes");
        match routes.get_mut(&path) {
            Some(Reply::FailThen { failures, then }) => {
                if *failures == 0 {
                    Some((**then).clone())
                } else {
                    *failures -= 1;
                    Some(Reply::Status(503))
                }
            }
            Some(reply) => Some(reply.clone()),
            None => None,
        }
    };
    match reply.unwrap_or(Reply::Status(404)) {
        Reply::Ok { body, content_type } => respond(&mut stream, "200 OK", &content_type, body.len(), &body),
        Reply::Status(code) => {
            let body = format!("status {code}");
            respond(
                &mut stream,
                &format!("{code} Status"),
                "text/plain",
                body.len(),
                body.as_bytes(),
            );
        }
        Reply::Truncated { body, declared } => {
            respond(&mut stream, "200 OK", "application/octet-stream", declared, &body);
        }
        Reply::Hang => {
            std::thread::sleep(Duration::from_secs(30));
        }
        Reply::Drip { body, every } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            for byte in body {
                if stream.write_all(&[byte]).and_then(|()| stream.flush()).is_err() {
                    return;
                }
                std::thread::sleep(every);
            }
        }
        Reply::Redirect(location) => {
            let head =
                format!("HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            let _ = stream.write_all(head.as_bytes());
        }
        Reply::FailThen { .. } => {}
    }
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Both);
}

fn respond(stream: &mut TcpStream, status: &str, content_type: &str, length: usize, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub fn fixtures() -> PathBuf {
    crate::fixtures().join("bench")
}

/// Every file under `root`, as (path relative to root with `/`, contents), sorted.
pub fn files_of(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(root)
        .into_iter()
        .flatten()
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let relative = entry
                .path()
                .strip_prefix(root)
                .expect("under root")
                .to_string_lossy()
                .replace('\\', "/");
            (relative, std::fs::read(entry.path()).expect("read fixture"))
        })
        .collect();
    files.sort();
    files
}

/// A zip of `files`; names are used exactly as given (so `../x` can be tested).
pub fn zip_of(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in files {
        let options = SimpleFileOptions::default().unix_permissions(0o755);
        writer.start_file(name.as_str(), options).expect("zip entry");
        writer.write_all(data).expect("zip data");
    }
    writer.finish().expect("zip finish").into_inner()
}

/// A zip of `files` plus a symbolic link entry `link` → `target`.
pub fn zip_with_symlink(files: &[(String, Vec<u8>)], link: &str, target: &str) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in files {
        writer
            .start_file(name.as_str(), SimpleFileOptions::default())
            .expect("zip entry");
        writer.write_all(data).expect("zip data");
    }
    writer
        .add_symlink(link, target, SimpleFileOptions::default())
        .expect("zip symlink");
    writer.finish().expect("zip finish").into_inner()
}

/// A GitHub-style source tarball: a pax global header, then every file under `top/`.
pub fn tar_gz_of(top: &str, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    tar_gz_with(top, files, None)
}

/// Like [`tar_gz_of`], plus one symbolic link `top/link` → `target`.
pub fn tar_gz_with(top: &str, files: &[(String, Vec<u8>)], symlink: Option<(&str, &str)>) -> Vec<u8> {
    let encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut builder = tar::Builder::new(encoder);
    let comment = b"52 comment=0123456789abcdef0123456789abcdef01234567\n";
    let mut pax = tar::Header::new_ustar();
    pax.set_entry_type(tar::EntryType::XGlobalHeader);
    pax.set_path("pax_global_header").expect("pax path");
    pax.set_size(comment.len() as u64);
    pax.set_cksum();
    builder.append(&pax, &comment[..]).expect("pax");
    let mut dir = tar::Header::new_gnu();
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_path(format!("{top}/")).expect("dir path");
    dir.set_mode(0o755);
    dir.set_size(0);
    dir.set_cksum();
    builder.append(&dir, std::io::empty()).expect("dir");
    for (name, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_path(format!("{top}/{name}")).expect("file path");
        header.set_mode(0o644);
        header.set_size(data.len() as u64);
        header.set_cksum();
        builder.append(&header, data.as_slice()).expect("file");
    }
    if let Some((link, target)) = symlink {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Symlink);
        header.set_path(format!("{top}/{link}")).expect("link path");
        header.set_link_name(target).expect("link target");
        header.set_mode(0o777);
        header.set_size(0);
        header.set_cksum();
        builder.append(&header, std::io::empty()).expect("link");
    }
    builder.into_inner().expect("tar finish").finish().expect("gzip finish")
}

/// The platform label blinkblox picks release assets by.
pub fn platform_label() -> String {
    format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)
}

pub const PLATFORMS: [&str; 6] = [
    "linux-x86_64",
    "linux-aarch64",
    "macos-x86_64",
    "macos-aarch64",
    "windows-x86_64",
    "windows-aarch64",
];

/// The fixture registry and GitHub, with the archives it serves.
pub struct Upstream {
    pub server: TestServer,
    pub bytenet_zip: Vec<u8>,
    pub packet_tarball: Vec<u8>,
    pub zap_zip: Vec<u8>,
}

pub const BYTENET_METADATA: &str = "/v1/package-metadata/fixture/bytenet";
pub const BYTENET_CONTENTS: &str = "/v1/package-contents/fixture/bytenet/0.4.6";
pub const PACKET_ARCHIVE: &str = "/fixture/Packet/archive/1.7.tar.gz";
pub const ZAP_RELEASE: &str = "/repos/fixture/zap/releases/tags/v0.6.8";

pub fn wally_metadata(versions: &[&str]) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = versions
        .iter()
        .map(|version| {
            serde_json::json!({
                "package": {
                    "name": "fixture/bytenet",
                    "version": version,
                    "registry": "https://github.com/UpliftGames/wally-index",
                    "realm": "shared",
                    "description": null,
                    "license": null,
                    "authors": [],
                    "include": [],
                    "exclude": [],
                    "private": false
                },
                "place": { "shared-packages": null, "server-packages": null },
                "dependencies": {},
                "server-dependencies": {},
                "dev-dependencies": {}
            })
        })
        .collect();
    serde_json::json!({ "versions": entries })
}

pub fn zap_asset_path(label: &str) -> String {
    format!("/fixture/zap/releases/download/v0.6.8/zap-0.6.8-{label}.zip")
}

impl Upstream {
    /// Serves bytenet 0.4.3/0.4.6/0.5.0 on the registry, Packet 1.7 as a source archive and zap
    /// v0.6.8 as release assets for every platform.
    pub fn start() -> Upstream {
        let server = TestServer::start();
        let packages = fixtures().join("packages");
        let bytenet_zip = zip_of(&files_of(&packages.join("bytenet")));
        let packet_tarball = tar_gz_of("Suphi-Packet-1.7", &files_of(&packages.join("packet")));
        let binary = if cfg!(windows) { "zap.exe" } else { "zap" };
        let zap_bytes = std::fs::read(packages.join("zap/zap")).expect("zap fixture");
        let zap_zip = zip_of(&[(binary.to_string(), zap_bytes)]);
        server.route(
            BYTENET_METADATA,
            Reply::json(&wally_metadata(&["0.5.0", "0.4.6", "0.4.3"])),
        );
        server.route(BYTENET_CONTENTS, Reply::bytes(bytenet_zip.clone()));
        server.route(PACKET_ARCHIVE, Reply::bytes(packet_tarball.clone()));
        let assets: Vec<serde_json::Value> = PLATFORMS
            .iter()
            .map(|label| {
                serde_json::json!({
                    "name": format!("zap-0.6.8-{label}.zip"),
                    "browser_download_url": format!("{}{}", server.base, zap_asset_path(label)),
                })
            })
            .collect();
        server.route(
            ZAP_RELEASE,
            Reply::json(&serde_json::json!({ "tag_name": "v0.6.8", "assets": assets })),
        );
        for label in PLATFORMS {
            server.route(&zap_asset_path(label), Reply::bytes(zap_zip.clone()));
        }
        Upstream {
            server,
            bytenet_zip,
            packet_tarball,
            zap_zip,
        }
    }
}

/// A temp folder holding `benchmark/tools.toml` (a copy of `tools_toml`).
pub fn checkout(tools_toml: &Path) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().expect("tempdir");
    let bench = temp.path().join("benchmark");
    std::fs::create_dir_all(&bench).expect("benchmark dir");
    std::fs::copy(tools_toml, bench.join("tools.toml")).expect("copy tools.toml");
    (temp, bench)
}

/// `blinkblox bench <args>` run in `dir`, pointed at `base` for the registry and GitHub, with a
/// short timeout and no retries unless `args` say otherwise.
pub fn run_bench(dir: &Path, base: &str, args: &[&str]) -> std::process::Output {
    let mut command = assert_cmd::Command::cargo_bin("blinkblox").expect("binary");
    command
        .current_dir(dir)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env_remove("BLINKBLOX_BENCH_TIMEOUT")
        .env_remove("BLINKBLOX_BENCH_RETRIES")
        .arg("bench")
        .args(args)
        .args(["--registry-url", base, "--github-url", base]);
    if !args.contains(&"--timeout") {
        command.args(["--timeout", "3"]);
    }
    if !args.contains(&"--retries") {
        command.args(["--retries", "0"]);
    }
    command
        .timeout(Duration::from_secs(60))
        .output()
        .expect("run blinkblox")
}

pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Fails if anything half-written is left under `bench`: staging folders or temporary files.
pub fn assert_nothing_half_written(bench: &Path) {
    for entry in walkdir::WalkDir::new(bench).into_iter().flatten() {
        let name = entry.file_name().to_string_lossy();
        assert!(
            !name.starts_with(".staging-") && !name.contains(".tmp-") && !name.ends_with(".download"),
            "left behind: {}",
            entry.path().display()
        );
    }
}
