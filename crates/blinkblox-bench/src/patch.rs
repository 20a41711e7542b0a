//! The text substitutions declared in tools.toml (`[[tool.X.patch]]`), applied to a tool's
//! freshly unpacked folder before it is moved into place.
//!
//! A patch must match exactly `count` times. Anything else means upstream changed under the
//! recipe, and the benchmark would silently measure an unpatched library, so it fails loudly,
//! naming the tool, the file, the pattern and the line of the recipe.

use std::path::Path;

use super::BenchError;
use super::tools::Tool;
use super::unpack::safe_relative_path;

/// Applies every patch of `tool` inside `root`. `tools_toml` names the recipe file in messages.
pub fn apply_patches(tool: &Tool, root: &Path, tools_toml: &Path) -> Result<usize, BenchError> {
    for patch in &tool.patches {
        let recipe = format!("{}:{}", tools_toml.display(), patch.line);
        let relative = safe_relative_path(&patch.file).map_err(|why| {
            BenchError::new(format!(
                "{recipe}: tool `{}`: patch file `{}` {why}",
                tool.name, patch.file
            ))
        })?;
        let path = root.join(relative);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return Err(BenchError::new(format!(
                    "tool `{}`: the patch on `{}` ({recipe}) cannot apply: the file is not in the download",
                    tool.name, patch.file
                ))
                .with_help("upstream moved or renamed it: update the patch's `file` in tools.toml"));
            }
            Err(err) => return Err(BenchError::io("read", &path, &err)),
        };
        let found = text.matches(patch.find.as_str()).count();
        if found != patch.count {
            let times = |n: usize| {
                if n == 1 {
                    "once".to_string()
                } else {
                    format!("{n} times")
                }
            };
            return Err(BenchError::new(format!(
                "tool `{}`: patch on `{}` ({recipe}) expected `{}` {} but found it {}",
                tool.name,
                patch.file,
                patch.find,
                times(patch.count),
                times(found)
            ))
            .with_help(
                "the upstream source changed under the recipe: check the file and update `find`, `replace` and \
                 `count` in tools.toml",
            ));
        }
        let patched = text.replace(patch.find.as_str(), &patch.replace);
        std::fs::write(&path, patched).map_err(|err| BenchError::io("write", &path, &err))?;
    }
    Ok(tool.patches.len())
}
