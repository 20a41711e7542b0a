//! What sync says of a project's schemas besides their diagnostics: the options it overrides,
//! the warnings of an up-to-date project, and schemas that would share remotes.

use blinkblox_codegen::Outputs;
use blinkblox_schema::model::Schema;

use crate::lockfile::Lockfile;
use crate::project::Project;
use crate::schemas::SchemaEntry;
use blinkblox_schema::diagnostics::Diagnostic;
use blinkblox_schema::source::SourceMap;

use crate::lockfile::LockedSchema;
use crate::{ProjectError, compile};

/// A schema's diagnostics with the files they point into.
#[derive(Debug, Clone)]
pub struct SchemaReport {
    pub rel_path: String,
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

/// The options a schema sets that sync overrides: it places every module itself.
pub(crate) fn ignored_options(project: &Project, entry: &SchemaEntry, schema: &Schema) -> Vec<String> {
    ["ServerOutput", "ClientOutput", "TypesOutput"]
        .iter()
        .filter(|option| schema.options.set_in_schema.contains(option))
        .map(|option| {
            format!(
                "`{}` sets `{option}`, which sync ignores: it writes the schema's modules into `{}/` (from `[output]` in {})",
                entry.rel_path,
                project.rel(&project.schema_folder(entry)),
                project.rel(&project.manifest.path)
            )
        })
        .collect()
}

/// The warnings of an up-to-date project's schemas that had some when they were compiled:
/// each is checked again (no code is generated).
pub(crate) fn warnings_again(
    project: &Project,
    lock: &Lockfile,
) -> Result<(Vec<SchemaReport>, Vec<String>), ProjectError> {
    let manifest_name = project.rel(&project.manifest.path);
    let (mut reports, mut warnings) = (Vec::new(), Vec::new());
    for entry in &project.schemas {
        let had_warnings = lock
            .schemas
            .iter()
            .any(|locked| locked.path == entry.rel_path && locked.warnings > 0);
        if !had_warnings {
            continue;
        }
        let checked = compile::compile_schema(
            &entry.path,
            &project.manifest,
            &manifest_name,
            &entry.out_rel,
            Outputs::Check,
        )?;
        if let Some(schema) = &checked.schema {
            warnings.extend(ignored_options(project, entry, schema));
        }
        if !checked.diagnostics.is_empty() {
            reports.push(SchemaReport {
                rel_path: entry.rel_path.clone(),
                sources: checked.sources,
                diagnostics: checked.diagnostics,
            });
        }
    }
    Ok((reports, warnings))
}

/// Two schemas with one `RemoteScope` would make the same remotes, and the second module to
/// load would fail in the game ("another module already uses the remote scope"): refused
/// here, naming both schemas.
pub(crate) fn refuse_shared_remote_scopes<'a>(
    locked: impl Iterator<Item = &'a LockedSchema>,
) -> Result<(), ProjectError> {
    let mut seen: std::collections::BTreeMap<String, &str> = std::collections::BTreeMap::new();
    for locked in locked {
        let Some(scope) = locked.options.get("RemoteScope").and_then(|value| value.as_str()) else {
            continue;
        };
        if let Some(first) = seen.insert(scope.to_string(), &locked.path) {
            return Err(ProjectError::new(format!(
                "schemas `{first}` and `{}` both use the remote scope `{scope}`, so their remotes would collide in the game",
                locked.path
            ))
            .with_help(
                "rename one of the files, or give one `option RemoteScope = \"…\"` of its own (a scope made from a file name keeps only letters and digits)",
            ));
        }
    }
    Ok(())
}
