//! The benchmark's zap schemas (`benchmark/definitions/*.zap`) translate into schemas whose
//! declarations are those of the hand-written `.blink` beside them: the same types and
//! events, checked by the front end and compared in its model (`dump`), which ignores
//! spelling (`Unit[0..16]` and `Unit[..16]` are one type). Only the hand-written streams have
//! no zap counterpart.

use std::collections::BTreeMap;

use blinkblox_schema::check_file;
use blinkblox_schema::dump::dump;

use crate::repo_root;
use crate::support::*;

/// Each declaration of a dumped schema (types, events, functions, streams) by kind and
/// name, with its dump minus the channel index, which depends on the declarations around.
fn declarations(dump: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut in_types = false;
    for line in dump.lines() {
        let header = if line == "types:" {
            in_types = true;
            current = None;
            continue;
        } else if let Some(rest) = ["event ", "function ", "stream "]
            .iter()
            .find_map(|kind| line.strip_prefix(kind).map(|rest| (kind.trim(), rest)))
        {
            in_types = false;
            Some((rest.0.to_string(), rest.1))
        } else if in_types && line.starts_with("  #") {
            Some(("type".to_string(), line.trim_start()))
        } else {
            None
        };
        match header {
            Some((kind, rest)) => {
                // `#3 Name = …` for types, `Name #3 Reliable …` for the others.
                let words: Vec<&str> = rest.split(' ').filter(|word| !word.starts_with('#')).collect();
                let name = words.first().copied().unwrap_or_default().to_string();
                let key = format!("{kind} {name}");
                out.insert(key.clone(), words.join(" "));
                current = Some(key);
            }
            None => {
                if let Some(key) = &current
                    && line.starts_with(' ')
                {
                    let entry = out.get_mut(key).expect("entry");
                    entry.push('\n');
                    entry.push_str(line);
                }
            }
        }
    }
    out
}

#[test]
fn benchmark_zap_schemas_translate_to_the_hand_written_declarations() {
    let definitions = repo_root().join("benchmark/definitions");
    let mut compared = 0;
    for name in ["Definition", "Scenarios"] {
        let zap = definitions.join(format!("{name}.zap"));
        let imported = import_file(&zap);
        assert!(imported.diagnostics.is_empty(), "{name}.zap: {}", rendered(&imported));
        let blink = translation(&imported);
        assert_compiles(&format!("{name}.blink"), blink);
        let translated = declarations(&dump(
            &blinkblox_schema::check_source("translated.blink", blink)
                .schema
                .expect("the translation checks"),
        ));
        let hand_written = check_file(&definitions.join(format!("{name}.blink")));
        let hand_written = declarations(&dump(&hand_written.schema.expect("the hand-written schema checks")));
        assert!(!translated.is_empty());
        for (key, text) in &translated {
            assert_eq!(Some(text), hand_written.get(key), "{name}: `{key}` differs");
            compared += 1;
        }
        for key in hand_written.keys() {
            assert!(
                translated.contains_key(key) || key.starts_with("stream "),
                "{name}: `{key}` has no translated counterpart"
            );
        }
    }
    assert_eq!(
        compared,
        9 + 9,
        "Definition: a type, seven events and a function; Scenarios: three types and six events"
    );
}
