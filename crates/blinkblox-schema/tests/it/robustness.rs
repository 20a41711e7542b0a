//! The front end on hostile input: random bytes, random token soup, every truncation
//! of every valid fixture, and pathological schemas. Nothing may panic, hang or
//! overflow the stack, and every diagnostic must point at a real place.

use std::path::{Path, PathBuf};

use blinkblox_schema::diagnostics::{json, render};
use blinkblox_schema::{CheckOutput, check_file, check_source, codes};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every label of every diagnostic lies inside its file on character boundaries, and
/// every diagnostic renders (human and JSON) without panicking.
fn assert_well_formed(output: &CheckOutput, what: &str) {
    assert_eq!(
        output.schema.is_some(),
        !output.has_errors(),
        "{what}: schema iff no errors"
    );
    for diagnostic in &output.diagnostics {
        let labels = std::iter::once(&diagnostic.primary).chain(diagnostic.secondary.iter());
        for label in labels {
            let file = output
                .sources
                .files()
                .get(label.span.file.0 as usize)
                .unwrap_or_else(|| panic!("{what}: label in unknown file: {diagnostic:?}"));
            let (start, end) = (label.span.start as usize, label.span.end as usize);
            assert!(
                start <= end && end <= file.text.len(),
                "{what}: span out of range: {diagnostic:?}"
            );
            assert!(
                file.text.is_char_boundary(start) && file.text.is_char_boundary(end),
                "{what}: span not on a character boundary: {diagnostic:?}"
            );
        }
        assert!(!diagnostic.message.is_empty());
        let _ = render::render(diagnostic, &output.sources, false);
        let _ = json::to_json_line(diagnostic, &output.sources);
    }
}

/// Checks `text`, asserting the output is well formed. How long the pathological inputs take
/// is measured by the front end's benchmark (`cargo bench -p blinkblox-schema`), not here: a
/// loaded machine must pass the tests.
fn check_named(name: &str, text: &str) -> CheckOutput {
    let output = check_source(name, text);
    assert_well_formed(&output, name);
    output
}

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/schema")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "blink"))
        .collect();
    files.sort();
    files
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..3000 {
        let len = rng.below(400);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        check_named(&format!("random{case}.blink"), &text);
    }
}

#[test]
fn random_printable_text_never_panics() {
    let alphabet: Vec<char> = " \n\t{}()[]<>:=,?.-\"'_azAZ09@;é".chars().collect();
    let mut rng = Rng(42);
    for case in 0..3000 {
        let len = rng.below(300);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        check_named(&format!("printable{case}.blink"), &text);
    }
}

#[test]
fn token_soup_never_panics() {
    const TOKENS: &[&str] = &[
        "option",
        "type",
        "struct",
        "enum",
        "map",
        "set",
        "event",
        "function",
        "stream",
        "scope",
        "import",
        "export",
        "as",
        "From",
        "Type",
        "Call",
        "Data",
        "Return",
        "Yield",
        "Per",
        "Timeout",
        "Poll",
        "Server",
        "Client",
        "Reliable",
        "Unreliable",
        "SingleSync",
        "Polling",
        "Coroutine",
        "Player",
        "u8",
        "u16",
        "f32",
        "f16",
        "boolean",
        "string",
        "buffer",
        "vector",
        "CFrame",
        "Instance",
        "unknown",
        "Color3",
        "DateTime",
        "A",
        "B",
        "T",
        "Casing",
        "MaxPacketSize",
        "true",
        "false",
        "0",
        "1",
        "-5",
        "2.5",
        "65536",
        "\"x\"",
        "'y'",
        "\"./a\"",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        ":",
        "=",
        ",",
        "?",
        ".",
        "..",
        "--c\n",
        "--[[c]]",
        "\n",
    ];
    let mut rng = Rng(7);
    for case in 0..4000 {
        let count = rng.below(80);
        let text: Vec<&str> = (0..count).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
        check_named(&format!("soup{case}.blink"), &text.join(" "));
    }
}

#[test]
fn every_truncation_of_every_valid_fixture() {
    for path in fixtures("valid") {
        let text = std::fs::read_to_string(&path).expect("fixture");
        let name = path.to_string_lossy().into_owned();
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let output = check_source(&name, &text[..end]);
            assert_well_formed(&output, &format!("{name} cut at {end}"));
        }
    }
}

#[test]
fn every_invalid_fixture_reports_errors_on_real_places() {
    for path in fixtures("invalid") {
        let output = check_file(&path);
        assert!(output.has_errors(), "{} should have errors", path.display());
        assert_well_formed(&output, &path.to_string_lossy());
    }
}

#[test]
fn ten_megabytes_of_garbage_is_quick() {
    let mut rng = Rng(99);
    let bytes: Vec<u8> = (0..10_000_000).map(|_| rng.next() as u8).collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let output = check_named("garbage.blink", &text);
    assert!(output.has_errors());
    assert!(output.diagnostics.len() <= 110, "errors are capped");

    let soup = "struct { ] ) @ type = < , ".repeat(400_000);
    let output = check_named("soup.blink", &soup);
    assert!(output.diagnostics.iter().any(|d| d.code == codes::TOO_MANY_ERRORS));
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_stack_overflow() {
    let depth = 10_000;
    let cases = [
        format!("type Deep = {}u8{}", "struct { a: ".repeat(depth), " }".repeat(depth)),
        format!("type Deep = {}u8{}", "map { [u8]: ".repeat(depth), " }".repeat(depth)),
        format!(
            "struct G<T> {{ a: T }}\ntype Deep = {}u8{}",
            "G<".repeat(depth),
            ">".repeat(depth)
        ),
        format!("{}type A = u8{}", "scope S { ".repeat(depth), " }".repeat(depth)),
        format!("type Deep = {}u8{}", "vector<".repeat(depth), ">".repeat(depth)),
        format!(
            "event E {{ From: Server, Type: Reliable, Call: SingleSync, Data: {}u8{} }}",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
        format!(
            "type Deep = {}u8{}",
            "enum \"t\" { V { a: ".repeat(depth),
            " } }".repeat(depth)
        ),
        format!("type Deep = u8{}", "?[]".repeat(depth)),
    ];
    for (i, text) in cases.iter().enumerate() {
        let output = check_named(&format!("deep{i}.blink"), text);
        assert!(output.has_errors(), "case {i} should fail");
        // Nested parentheses are not a type at all; everything else hits the depth limit.
        if !text.contains("Data: ((") {
            assert!(
                output.diagnostics.iter().any(|d| d.code == codes::NESTING_TOO_DEEP),
                "case {i}"
            );
        }
    }
}

#[test]
fn long_reference_chains_and_exponential_generics_are_bounded() {
    let chain: String = (0..5000)
        .map(|i| format!("type A{i} = A{}\n", i + 1))
        .collect::<String>()
        + "type A5000 = u8\n";
    let output = check_named("chain.blink", &chain);
    assert!(output.has_errors());

    let doubling = format!(
        "struct P<T> {{ a: T, b: T }}\ntype X = {}u8{}",
        "P<".repeat(40),
        ">".repeat(40)
    );
    let output = check_named("doubling.blink", &doubling);
    assert!(output.diagnostics.iter().any(|d| d.code == codes::TYPE_TOO_LARGE));
}

#[test]
fn sizes_near_u32_max_saturate_instead_of_overflowing() {
    let text = "type Big = u8[4000000000]\n\
                map Exact = { [Big]: Big }(4000000000)\n\
                map Open = { [Big]: Big }(4000000000..)\n\
                event E { From: Client, Type: Reliable, Call: SingleSync, Data: (Exact, Open) }\n";
    let output = check_named("sizes.blink", text);
    assert_well_formed(&output, "sizes.blink");
    assert!(output.has_errors(), "a packet of 2^32 bytes is over MaxPacketSize");
}

#[test]
fn a_channel_over_65536_declarations_is_an_error() {
    let text: String = (0..65_537)
        .map(|i| format!("event E{i} {{ From: Server, Type: Unreliable, Call: SingleSync }}\n"))
        .collect();
    let output = check_named("full.blink", &text);
    assert!(output.diagnostics.iter().any(|d| d.code == codes::CHANNEL_FULL));

    // Many independent errors: reported up to a limit, then summarised.
    let text: String = (0..5000).map(|i| format!("type T{i} = Missing{i}\n")).collect();
    let output = check_named("many.blink", &text);
    assert!(output.diagnostics.len() <= 201);
    assert_eq!(output.diagnostics.last().map(|d| d.code), Some(codes::TOO_MANY_ERRORS));

    // Many warnings: summarised as a warning, and the schema is still valid.
    let text: String = (0..300).map(|i| format!("type T{i} = boolean(0..1)\n")).collect();
    let output = check_named("warnings.blink", &text);
    assert!(!output.has_errors() && output.schema.is_some());
    assert_eq!(output.diagnostics.len(), 201);
    let summary = output.diagnostics.last().expect("a summary");
    assert_eq!(summary.code, codes::TOO_MANY_WARNINGS);
    assert_eq!(summary.message, "100 more problems are not shown");
}

#[test]
fn non_utf8_file_is_a_diagnostic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.blink");
    std::fs::write(&path, b"type A = u8\n\xC3\x28 type B = u8\n").expect("write");
    let output = check_file(&path);
    assert_well_formed(&output, "bad.blink");
    assert_eq!(output.diagnostics[0].code, codes::NOT_UTF8);
}

#[test]
fn stray_characters_past_the_error_cap_are_not_lexed() {
    // Four million separate stray characters: each would be a diagnostic of its own.
    let text = "@ ".repeat(4 * 1024 * 1024);
    let output = check_named("stray.blink", &text);
    assert!(
        output.diagnostics.len() <= 101,
        "{} diagnostics",
        output.diagnostics.len()
    );
    assert_eq!(output.diagnostics.last().map(|d| d.code), Some(codes::TOO_MANY_ERRORS));
}

#[test]
fn imports_of_devices_folders_and_endless_files_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("folder.blink")).expect("folder");
    let mut imports = vec![("folder.blink".to_string(), "is a folder")];
    if Path::new("/dev/zero").exists() {
        imports.push(("/dev/zero".to_string(), "is a device"));
    }
    // Files under /proc report a length of 0 and can be read without end.
    if Path::new("/proc/self/pagemap").exists() {
        imports.push(("/proc/self/pagemap".to_string(), "more than a schema can be"));
    }
    for (import, expected) in imports {
        let root = dir.path().join("root.blink");
        std::fs::write(&root, format!("import \"{import}\" as X\ntype A = u8\n")).expect("write");
        let output = check_file(&root);
        assert_well_formed(&output, &import);
        let diagnostic = output
            .diagnostics
            .iter()
            .find(|d| d.code == codes::IMPORT_UNREADABLE)
            .unwrap_or_else(|| panic!("{import}: {:#?}", output.diagnostics));
        assert!(
            diagnostic.message.contains(expected),
            "{import}: {}",
            diagnostic.message
        );
    }
    // The root file itself is refused the same way.
    let output = check_file(&dir.path().join("folder.blink"));
    assert!(
        output.diagnostics[0].message.contains("is a folder"),
        "{:?}",
        output.diagnostics[0]
    );
}
