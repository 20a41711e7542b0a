//! `[package] formats = ["wally", "pesde"]`: `blinkblox package` writes both packages; the
//! real pesde CLI accepts the pesde one (`pesde publish --dry-run`), installs it into a game
//! from a path dependency, and the example's scripts run against the installed modules in
//! the embedded Luau VM. Everything is local: the index pesde asks for is a git repository
//! the test makes, and the game needs nothing from the network.

use std::path::{Path, PathBuf};
use std::process::Command;

use blinkblox_luau::{Mode, Simulation, World};

use crate::package_support::{
    ALIAS, INDEX_FOLDER, assert_arena_round, copy_dir, example_copy, files_under, instance_maker, package, read,
    stdout, using_the_package,
};

const PESDE_NAME: &str = "blinkblox/arena_net";
const PESDE_FOLDER: &str = "blinkblox+arena_net@0.1.0";

/// The example with both formats asked for.
fn example_with_pesde(parent: &Path) -> PathBuf {
    let dir = example_copy(parent);
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    assert!(
        text.trim_end().ends_with("authors = [\"BlinkBlox\"]"),
        "[package] is the last table:\n{text}"
    );
    let text = format!("{text}formats = [\"wally\", \"pesde\"]\npesde_name = \"{PESDE_NAME}\"\n");
    std::fs::write(&manifest, text).expect("write manifest");
    dir
}

#[test]
fn both_formats_write_the_wally_zip_and_the_pesde_folder() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_with_pesde(temp.path());
    let out = stdout(&package(&dir, &[]).success());
    assert!(out.contains(&format!("pesde  dist/{PESDE_FOLDER}/")), "{out}");
    assert!(out.contains("for the roblox target"), "{out}");
    let dist = dir.join("dist");
    assert!(dist.join(format!("{INDEX_FOLDER}.zip")).is_file());
    assert!(dist.join(INDEX_FOLDER).join("wally.toml").is_file());

    let folder = dist.join(PESDE_FOLDER);
    let files = files_under(&folder);
    assert_eq!(
        files,
        [
            "pesde.toml",
            "src/chat/Client.luau",
            "src/chat/Server.luau",
            "src/combat/Client.luau",
            "src/combat/Server.luau",
            "src/init.luau",
        ],
        "no default.project.json: pesde refuses one"
    );
    // The same modules as the Wally package, byte for byte.
    for file in files.iter().filter(|f| f.starts_with("src/")) {
        assert_eq!(
            read(&folder.join(file)),
            read(&dist.join(INDEX_FOLDER).join(file)),
            "{file}"
        );
    }
    let manifest: toml::Table = toml::from_str(&read(&folder.join("pesde.toml"))).expect("pesde.toml");
    assert_eq!(manifest["name"].as_str(), Some(PESDE_NAME));
    assert_eq!(manifest["license"].as_str(), Some("MIT"));
    assert_eq!(manifest["target"]["environment"].as_str(), Some("roblox"));
    assert_eq!(manifest["target"]["lib"].as_str(), Some("src/init.luau"));

    // What `pesde install` leaves in the folder does not stop the next run; a file of
    // someone else's does.
    std::fs::write(folder.join("pesde.lock"), "# pesde's\n").expect("lock");
    std::fs::create_dir_all(folder.join("roblox_packages")).expect("mkdir");
    std::fs::write(folder.join("roblox_packages/x.luau"), "return 1\n").expect("link");
    package(&dir, &[]).success();
    assert!(!folder.join("pesde.lock").exists(), "the folder is rewritten whole");
    std::fs::write(folder.join("notes.txt"), "mine\n").expect("notes");
    let assert = package(&dir, &[]).failure();
    let err = crate::common::stderr(&assert);
    assert!(err.contains("`notes.txt`") && err.contains("did not write"), "{err}");
}

#[test]
fn pesde_only_writes_no_wally_package() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = example_copy(temp.path());
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest).replace("name = \"blinkblox/arena-net\"", "name = \"blinkblox/arena_net\"");
    std::fs::write(&manifest, format!("{text}formats = [\"pesde\"]\n")).expect("write");
    let out = stdout(&package(&dir, &[]).success());
    assert!(!out.contains("zip"), "{out}");
    let entries: Vec<String> = std::fs::read_dir(dir.join("dist"))
        .expect("dist")
        .map(|entry| entry.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries, [PESDE_FOLDER]);
}

/// `pesde` on PATH, when it is 0.7.x.
fn pesde_binary() -> Option<PathBuf> {
    let output = Command::new("pesde").arg("--version").output().ok()?;
    String::from_utf8_lossy(&output.stdout)
        .contains("pesde 0.7.")
        .then(|| PathBuf::from("pesde"))
}

/// Runs pesde in `dir` with its home in `home`; panics with its output when it fails.
fn pesde(home: &Path, dir: &Path, args: &[&str]) -> String {
    let output = Command::new("pesde")
        .args(args)
        .current_dir(dir)
        .env("PESDE_HOME", home)
        .env("HOME", home)
        .env_remove("GITHUB_TOKEN")
        .output()
        .expect("run pesde");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "pesde {} in {}:\n{text}",
        args.join(" "),
        dir.display()
    );
    text
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .status()
        .expect("run git");
    assert!(status.success(), "git {args:?}");
}

/// A pesde index as a local git repository: its `config.toml` is all `publish --dry-run`
/// reads (the archive size limit); the API it names is never contacted by a dry run.
fn local_index(parent: &Path) -> String {
    let index = parent.join("index");
    std::fs::create_dir_all(&index).expect("mkdir index");
    std::fs::write(
        index.join("config.toml"),
        "api = \"http://127.0.0.1:9\"\nmax_archive_size = 4194304\n",
    )
    .expect("index config");
    git(&index, &["init", "-q", "-b", "main"]);
    git(&index, &["add", "config.toml"]);
    git(&index, &["commit", "-q", "-m", "index"]);
    format!("file://{}", index.display())
}

/// The game: a Roblox pesde project whose one dependency is the package, by path.
fn make_game(parent: &Path, package: &Path) -> PathBuf {
    let game = parent.join("game");
    std::fs::create_dir_all(&game).expect("mkdir game");
    let text = format!(
        "name = \"blinkblox/game\"\nversion = \"0.1.0\"\nprivate = true\n\n[target]\nenvironment = \"roblox\"\n\n\
         [place]\nshared = \"game:GetService(\\\"ReplicatedStorage\\\").roblox_packages\"\n\n\
         [dependencies]\n{ALIAS} = {{ path = {:?} }}\n",
        package.display().to_string()
    );
    std::fs::write(game.join("pesde.toml"), text).expect("game pesde.toml");
    game
}

/// Mirrors `dir` into `world` under `parent` as a sync tool maps files: a `.luau` file is a
/// ModuleScript, a folder with `init.luau` a ModuleScript holding the rest, any other
/// folder a Folder; other files are not synced (the package's `pesde.toml`).
fn mirror(world: &World, make: &mlua::Function, dir: &Path, name: &str, parent: mlua::Value) {
    let init = dir.join("init.luau");
    let (class, source) = if init.is_file() {
        ("ModuleScript", Some(read(&init)))
    } else {
        ("Folder", None)
    };
    let created: mlua::Value = world.call(make, (class, name, source, parent)).expect("create folder");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|entry| entry.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let file_name = path.file_name().expect("name").to_string_lossy().into_owned();
        if path.is_dir() {
            mirror(world, make, &path, &file_name, created.clone());
        } else if let Some(stem) = file_name.strip_suffix(".luau")
            && stem != "init"
        {
            let _: mlua::Value = world
                .call(make, ("ModuleScript", stem, read(&path), created.clone()))
                .expect("create module");
        }
    }
}

fn install_in(world: &World, roblox_packages: &Path) {
    let make = instance_maker(world);
    let replicated: mlua::Value = world
        .eval("return game:GetService('ReplicatedStorage')")
        .expect("ReplicatedStorage");
    mirror(world, &make, roblox_packages, "roblox_packages", replicated);
}

#[test]
#[ignore = "needs pesde 0.7 on PATH: .ci/run installs it and runs the ignored tests"]
fn pesde_accepts_the_package_and_installs_it_and_the_modules_run() {
    pesde_binary().expect(
        "pesde 0.7 is not on PATH: `cargo install pesde --version 0.7.4 --locked --features bin` (.ci/run does)",
    );
    let temp = tempfile::tempdir().expect("tempdir");
    let home = temp.path().join("pesde-home");
    std::fs::create_dir_all(&home).expect("mkdir home");
    let example = example_with_pesde(temp.path());
    package(&example, &[]).success();

    // The package as an author publishes it: a copy of the folder, with a second index
    // (local) that the dry run checks against; `pesde install` first, as publish requires.
    let written = example.join("dist").join(PESDE_FOLDER);
    let author = temp.path().join("author");
    copy_dir(&written, &author);
    let index = local_index(temp.path());
    let manifest = read(&author.join("pesde.toml"));
    let with_local = manifest.replace("[indices]\n", &format!("[indices]\nlocal = {index:?}\n"));
    assert_ne!(manifest, with_local, "the manifest has an [indices] table");
    std::fs::write(author.join("pesde.toml"), with_local).expect("write");
    pesde(&home, &author, &["install"]);
    let published = pesde(&home, &author, &["publish", "--dry-run", "--index", "local"]);
    assert!(
        published.contains("(dry run) package written to package.tar.gz"),
        "{published}"
    );
    assert!(published.contains("target: roblox"), "{published}");
    let archive = author.join("package.tar.gz");
    let listing = Command::new("tar").arg("tzf").arg(&archive).output().expect("tar");
    let mut entries: Vec<String> = String::from_utf8_lossy(&listing.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        [
            "pesde.toml",
            "src/chat/Client.luau",
            "src/chat/Server.luau",
            "src/combat/Client.luau",
            "src/combat/Server.luau",
            "src/init.luau",
        ]
    );

    // What pesde's commands leave in a package folder does not stop the next package.
    for left in ["package.tar.gz", "pesde.lock"] {
        std::fs::copy(author.join(left), written.join(left)).expect("copy what pesde wrote");
    }
    package(&example, &[]).success();
    assert!(
        !written.join("package.tar.gz").exists(),
        "the folder is rewritten whole"
    );

    // A game installs the package blinkblox wrote, from its path.
    let game = make_game(temp.path(), &written);
    pesde(&home, &game, &["install"]);
    let roblox_packages = game.join("roblox_packages");
    let link = roblox_packages.join(format!("{ALIAS}.luau"));
    let link_text = read(&link);
    // pesde links a path dependency in place (its files are links to the folder) and
    // points the link module at the package's lib, `src`, by a relative string require.
    let required = link_text
        .lines()
        .find_map(|line| line.strip_prefix("local module = require(\"./")?.strip_suffix("\")"))
        .unwrap_or_else(|| panic!("a string require of the lib:\n{link_text}"));
    let lib = roblox_packages.join(required);
    assert!(required.ends_with("/src"), "{required}");
    assert_eq!(read(&lib.join("init.luau")), read(&written.join("src/init.luau")));
    assert!(lib.join("combat/Server.luau").is_file() && lib.join("chat/Client.luau").is_file());

    let example_src = crate::repo_root().join("examples/arena/src");
    // pesde's link module, mirrored under ReplicatedStorage.roblox_packages.
    let package = format!("ReplicatedStorage.roblox_packages.{ALIAS}");
    let server_script = using_the_package(&read(&example_src.join("server/main.server.luau")), &package);
    let client_script = using_the_package(&read(&example_src.join("client/main.client.luau")), &package);
    let mut sim = Simulation::new(Mode::Native, 0).expect("simulation");
    install_in(sim.server(), &roblox_packages);
    sim.server().spawn(&server_script).expect("run the server script");
    for _ in 0..2 {
        let index = sim.add_player().expect("a player joins");
        // ReplicatedStorage replicates the installed modules to the client.
        sim.client(index)
            .expect("client")
            .spawn(&client_script)
            .expect("run the client script");
    }
    sim.steps(400).expect("run the game");
    assert_arena_round(&sim, |index, has, prints| {
        assert!(has("Player1 has 90 health"), "client {index}: {prints:?}");
    });
}
