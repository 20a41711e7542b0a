//! `[output] server_instance` / `server_path`: the Server modules go where no client
//! receives them, each module's header and `sync --verbose` say how to require it, and a
//! project without the key keeps working, with a warning when its modules are replicated.

use std::path::Path;

use crate::sync_support::{blinkblox, files_under, project, read, stderr, stdout, sync};

/// The `basic` fixture's Rojo project, with `src/server` mapped into ServerScriptService.
const PROJECT_JSON: &str = r#"{"name":"basic","tree":{"$className":"DataModel",
    "ReplicatedStorage":{"Shared":{"$path":"src/shared"}},
    "ServerScriptService":{"Server":{"$path":"src/server"}}}}"#;

/// The `basic` fixture with the Rojo project above and `[output]` lines added.
fn basic_with(output_lines: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project("basic");
    std::fs::write(dir.join("default.project.json"), PROJECT_JSON).expect("project file");
    std::fs::create_dir_all(dir.join("src/server")).expect("mkdir");
    set_output(&dir, output_lines);
    (temp, dir)
}

fn set_output(dir: &Path, output_lines: &str) {
    let manifest = dir.join("blinkblox.toml");
    let text = read(&manifest);
    let start = text.find("[output]").expect("[output]");
    let end = text.find("[options]").expect("[options]");
    let text = format!("{}[output]\n{output_lines}\n{}", &text[..start], &text[end..]);
    std::fs::write(&manifest, text).expect("edit manifest");
}

#[test]
fn server_modules_go_to_their_own_folder_and_say_how_they_are_required() {
    let (_temp, dir) = basic_with(
        "instance = \"ReplicatedStorage.Shared.Net\"\nserver_instance = \"ServerScriptService.Server.Net\"\n",
    );
    let assert = sync(&dir, &["-v"]).success();
    let (out, err) = (stdout(&assert), stderr(&assert));
    assert!(!err.contains("warning"), "{err}");
    assert_eq!(
        files_under(&dir.join("src/shared/Net")),
        ["chat/Client.luau", "combat/Client.luau", "ui/hud/Client.luau"]
    );
    assert_eq!(
        files_under(&dir.join("src/server/Net")),
        ["chat/Server.luau", "combat/Server.luau", "ui/hud/Server.luau"]
    );
    let server_require = r#"require(game:GetService("ServerScriptService").Server.Net.ui.hud.Server)"#;
    let client_require = r#"require(game:GetService("ReplicatedStorage").Shared.Net.ui.hud.Client)"#;
    assert!(
        out.contains(&format!("net/ui/hud.blink, server: local Net = {server_require}")),
        "{out}"
    );
    assert!(
        out.contains(&format!("net/ui/hud.blink, client: local Net = {client_require}")),
        "{out}"
    );
    let header = |path: &str| read(&dir.join(path)).lines().take(10).collect::<Vec<_>>().join("\n");
    assert!(
        header("src/server/Net/ui/hud/Server.luau").contains(&format!("-- Require it with: {server_require}")),
        "{}",
        header("src/server/Net/ui/hud/Server.luau")
    );
    assert!(header("src/shared/Net/ui/hud/Client.luau").contains(&format!("-- Require it with: {client_require}")));
    let lock = read(&dir.join("blinkblox.lock"));
    assert!(lock.contains("server-output = \"src/server/Net\"\n"), "{lock}");
    sync(&dir, &["--locked"]).success();

    // Back to one folder: the Server modules move, and the emptied server folder goes.
    set_output(
        &dir,
        "instance = \"ReplicatedStorage.Shared.Net\"\nserver_instance = \"ReplicatedStorage.Shared.Net\"\n",
    );
    let assert = sync(&dir, &[]).success();
    assert!(stdout(&assert).contains("3 removed"), "{}", stdout(&assert));
    assert!(
        !stderr(&assert).contains("warning"),
        "the same place, chosen: {}",
        stderr(&assert)
    );
    assert!(
        !dir.join("src/server/Net").exists(),
        "the emptied Server folder is removed"
    );
    assert!(dir.join("src/server").is_dir(), "the mapped folder above it stays");
    assert_eq!(files_under(&dir.join("src/shared/Net")).len(), 6);
    assert!(!read(&dir.join("blinkblox.lock")).contains("server-output"));
}

#[test]
fn replicated_server_modules_are_a_warning_and_an_old_manifest_keeps_working() {
    // No server key, as every manifest made before it: everything goes where it went.
    let (_temp, dir) = basic_with("instance = \"ReplicatedStorage.Shared.Net\"\n");
    let assert = sync(&dir, &[]).success();
    let err = stderr(&assert);
    assert!(
        err.contains("the Server modules go to `ReplicatedStorage.Shared.Net` with the Client modules, so every client receives them; set `[output] server_instance`"),
        "{err}"
    );
    assert_eq!(files_under(&dir.join("src/shared/Net")).len(), 6);

    set_output(
        &dir,
        "instance = \"ReplicatedStorage.Shared.Net\"\nserver_path = \"src/shared/ServerNet\"\n",
    );
    let err = stderr(&sync(&dir, &[]).success());
    assert!(
        err.contains(
            "the Server modules go to `ReplicatedStorage.Shared.ServerNet`, which is replicated to every client"
        ),
        "{err}"
    );

    set_output(
        &dir,
        "instance = \"ServerScriptService.Server.Net\"\nserver_path = \"src/server/Net\"\n",
    );
    let err = stderr(&sync(&dir, &[]).success());
    assert!(
        err.contains(
            "the Client modules go to `ServerScriptService.Server.Net`, and clients cannot see ServerScriptService"
        ),
        "{err}"
    );
}

#[test]
fn server_output_keys_are_checked_like_the_output() {
    let (_temp, dir) =
        basic_with("path = \"src/shared/Net\"\nserver_path = \"src/server/Net\"\nserver_instance = \"A.B\"\n");
    let err = stderr(&sync(&dir, &[]).failure().code(1));
    assert!(err.contains("sets both `server_path` and `server_instance`"), "{err}");

    set_output(&dir, "path = \"src/shared/Net\"\nserver_path = \"../elsewhere\"\n");
    let err = stderr(&sync(&dir, &[]).failure().code(1));
    assert!(err.contains("outside the project"), "{err}");
    assert!(!dir.join("../elsewhere").exists());

    set_output(&dir, "path = \"src/shared/Net\"\nserver_path = \"Packages/Net\"\n");
    let err = stderr(&sync(&dir, &[]).failure().code(1));
    assert!(err.contains("Packages"), "{err}");
    assert!(!dir.join("blinkblox.lock").exists(), "nothing was written");
}

#[test]
fn init_keeps_server_modules_on_the_server_and_prints_the_requires() {
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path();
    std::fs::write(dir.join("default.project.json"), PROJECT_JSON).expect("project");
    for folder in ["src/shared", "src/server"] {
        std::fs::create_dir_all(dir.join(folder)).expect("mkdir");
    }
    let out = stdout(&blinkblox(dir).arg("init").assert().success());
    assert!(
        out.contains("Server modules to src/server/Net (ServerScriptService.Server.Net)"),
        "{out}"
    );
    assert!(
        out.contains(r#"in a server script: local Net = require(game:GetService("ServerScriptService").Server.Net.example.Server)"#),
        "{out}"
    );
    assert!(
        out.contains(
            r#"in a client script: local Net = require(game:GetService("ReplicatedStorage").Shared.Net.example.Client)"#
        ),
        "{out}"
    );
    let assert = sync(dir, &[]).success();
    assert!(!stderr(&assert).contains("warning"), "{}", stderr(&assert));
    assert!(dir.join("src/server/Net/example/Server.luau").is_file());
    assert!(dir.join("src/shared/Net/example/Client.luau").is_file());
}
