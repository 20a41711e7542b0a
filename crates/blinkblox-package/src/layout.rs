//! What is inside the package, and the root module that exposes it.
//!
//! ```text
//! wally.toml
//! default.project.json      {"name": "<name>", "tree": {"$path": "src"}}
//! src/init.luau             the package's root ModuleScript
//! src/<schema>/Server.luau  one folder per schema, as `blinkblox sync` lays them out
//! src/<schema>/Client.luau
//! src/<schema>/Types.luau   when the schema has a Types module
//! ```
//!
//! A game requires the package through Wally's link file and indexes it by schema, then by
//! side: `require(ReplicatedStorage.Packages.Net).combat.Server`. Each side's module is
//! required the first time it is indexed, so a client never runs a Server module (and the
//! reverse); an unknown schema or module is an error naming what exists, not a silent nil.
//! `.d.ts` files are left out: roblox-ts projects take packages from npm, not Wally.

use std::collections::BTreeMap;

use crate::files::{PackageFiles, SchemaModules};
use crate::spec::PackageSpec;

/// The module names a schema folder may hold, in the order the header lists them.
pub const SIDES: [&str; 3] = ["Server", "Client", "Types"];

/// Lays out `src/`: every schema's `.luau` modules and the root `init.luau`.
pub fn source_files(spec: &PackageSpec, schemas: &[SchemaModules]) -> Result<PackageFiles, String> {
    let mut files = PackageFiles::new();
    let mut tree = Node::default();
    for schema in schemas {
        let segments: Vec<&str> = schema.folder.split('/').collect();
        if let Some(bad) = segments.iter().find(|s| s.is_empty() || **s == "." || **s == "..") {
            return Err(format!(
                "schema folder `{}` has an invalid segment `{bad}`",
                schema.folder
            ));
        }
        let node = tree.at(&segments);
        for (file_name, contents) in &schema.files {
            let Some(module) = file_name.strip_suffix(".luau") else {
                continue;
            };
            node.modules.push(module.to_string());
            files.insert(format!("src/{}/{file_name}", schema.folder), contents.clone());
        }
        node.modules
            .sort_by_key(|m| SIDES.iter().position(|s| s == m).unwrap_or(SIDES.len()));
        node.modules.dedup();
    }
    tree.check_collisions("")?;
    files.insert("src/init.luau".to_string(), init_luau(spec, &tree).into_bytes());
    Ok(files)
}

/// A folder of the package's `src/`: the modules it holds and its sub-folders.
#[derive(Debug, Default)]
struct Node {
    modules: Vec<String>,
    children: BTreeMap<String, Node>,
}

impl Node {
    fn at(&mut self, segments: &[&str]) -> &mut Node {
        let mut node = self;
        for segment in segments {
            node = node.children.entry((*segment).to_string()).or_default();
        }
        node
    }

    /// A sub-folder named like a module of the same folder would give Rojo two children
    /// with one name, and `require` could only reach one of them.
    fn check_collisions(&self, path: &str) -> Result<(), String> {
        for (name, child) in &self.children {
            let child_path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}/{name}")
            };
            if self.modules.contains(name) {
                return Err(format!(
                    "the schema folder `{child_path}` has the same name as the module `{child_path}.luau`; rename the schema or its folder"
                ));
            }
            child.check_collisions(&child_path)?;
        }
        Ok(())
    }

    fn schema_count(&self) -> usize {
        usize::from(!self.modules.is_empty()) + self.children.values().map(Node::schema_count).sum::<usize>()
    }

    /// The folder names leading to the first schema in name order (empty for a schema at
    /// the root), for the usage example in the header.
    fn first_schema(&self) -> Option<Vec<&str>> {
        if !self.modules.is_empty() {
            return Some(Vec::new());
        }
        self.children.iter().find_map(|(name, child)| {
            let mut segments = child.first_schema()?;
            segments.insert(0, name.as_str());
            Some(segments)
        })
    }
}

fn is_identifier(name: &str) -> bool {
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil", "not",
        "or", "repeat", "return", "then", "true", "until", "while", "continue",
    ];
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name)
}

/// Names that `instance.name` would read as a member of Instance instead of a child.
fn is_instance_member(name: &str) -> bool {
    const MEMBERS: [&str; 32] = [
        "Name",
        "Parent",
        "ClassName",
        "Archivable",
        "Sandboxed",
        "UniqueId",
        "Capabilities",
        "Source",
        "Destroy",
        "Clone",
        "FindFirstChild",
        "FindFirstChildOfClass",
        "FindFirstChildWhichIsA",
        "FindFirstAncestor",
        "FindFirstAncestorOfClass",
        "FindFirstAncestorWhichIsA",
        "FindFirstDescendant",
        "GetChildren",
        "GetDescendants",
        "GetFullName",
        "GetAttribute",
        "GetAttributes",
        "SetAttribute",
        "IsA",
        "IsAncestorOf",
        "IsDescendantOf",
        "WaitForChild",
        "ClearAllChildren",
        "GetPropertyChangedSignal",
        "ChildAdded",
        "ChildRemoved",
        "Changed",
    ];
    MEMBERS.contains(&name)
}

/// A Luau string literal.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `.name` or `["name"]`.
fn key_access(name: &str) -> String {
    if is_identifier(name) {
        format!(".{name}")
    } else {
        format!("[{}]", quote(name))
    }
}

/// `name =` or `["name"] =` in a table constructor.
fn table_key(name: &str) -> String {
    if is_identifier(name) {
        name.to_string()
    } else {
        format!("[{}]", quote(name))
    }
}

/// The instance path the type checker can follow (`script.combat.Server`), or `None`
/// when a segment is not a plain child access.
fn typed_path(segments: &[&str]) -> Option<String> {
    let mut path = "script".to_string();
    for segment in segments {
        if !is_identifier(segment) || is_instance_member(segment) {
            return None;
        }
        path.push('.');
        path.push_str(segment);
    }
    Some(path)
}

const INIT_PRELUDE: &str = r#"local function resolve(path: { string }): Instance
	local instance: Instance = script
	for _, name in path do
		local child = instance:FindFirstChild(name)
		if child == nil then
			error(`{instance:GetFullName()} has no child "{name}": the package is incomplete`, 3)
		end
		instance = child
	end
	return instance
end

-- A table whose unknown keys are an error naming the keys it has.
local function strict<T>(label: string, entries: T): T
	local keys = {}
	for key in entries :: any do
		table.insert(keys, tostring(key))
	end
	table.sort(keys)
	return setmetatable(entries :: any, {
		__index = function(_, key)
			error(`{label} has no "{tostring(key)}" (it has: {table.concat(keys, ", ")})`, 2)
		end,
	}) :: any
end

-- A schema: each module is required the first time it is indexed.
local function lazy(label: string, path: { string }, modules: { string }, entries: { [string]: any }): any
	local names = table.clone(modules)
	for key in entries do
		table.insert(names, key)
	end
	table.sort(names)
	return setmetatable(entries, {
		__index = function(self, key)
			if type(key) ~= "string" or table.find(modules, key) == nil then
				error(`{label} has no "{tostring(key)}" (it has: {table.concat(names, ", ")})`, 2)
			end
			local modulePath = table.clone(path)
			table.insert(modulePath, key)
			local module = resolve(modulePath)
			local value = (require :: any)(module)
			rawset(self, key, value)
			return value
		end,
	})
end
"#;

/// The package's root module.
fn init_luau(spec: &PackageSpec, tree: &Node) -> String {
    let full_name = spec.full_name();
    let mut out = String::new();
    out.push_str("--!strict\n");
    out.push_str(&format!(
        "-- {full_name} {}: network modules generated by blinkblox {} from {} schema{}.\n",
        spec.version,
        env!("CARGO_PKG_VERSION"),
        tree.schema_count(),
        if tree.schema_count() == 1 { "" } else { "s" }
    ));
    out.push_str("-- Written by `blinkblox package`; edit the schemas, not this file.\n--\n");
    match tree.first_schema() {
        Some(segments) => {
            let key: String = segments.iter().map(|segment| key_access(segment)).collect();
            // The folder name as a local variable: `my-chat` and `my.chat` both become `MyChat`.
            let last = segments.last().copied().unwrap_or_default();
            let local = link_alias(&last.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "-"));
            out.push_str(&format!(
                "--     local Net = require(ReplicatedStorage.Packages.{})\n",
                link_alias(&spec.name)
            ));
            out.push_str(&format!("--     local {local} = Net{key}.Server   -- in server code\n"));
            out.push_str(&format!("--     local {local} = Net{key}.Client   -- in client code\n"));
        }
        None => out.push_str("-- The package has no schemas.\n"),
    }
    out.push_str("--\n-- A module is required the first time it is indexed: a client never loads a Server module.\n\n");
    out.push_str(INIT_PRELUDE);
    out.push_str("\nreturn ");
    write_node(&mut out, tree, &mut Vec::new(), &full_name, 0);
    out.push('\n');
    out
}

/// The link file name a user would likely give the package: `net` → `Net`.
pub fn link_alias(name: &str) -> String {
    let mut alias = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            alias.extend(c.to_uppercase());
            upper = false;
        } else {
            alias.push(c);
        }
    }
    if alias.is_empty() || alias.starts_with(|c: char| c.is_ascii_digit()) {
        alias.insert(0, 'P');
    }
    alias
}

fn write_node(out: &mut String, node: &Node, path: &mut Vec<String>, label: &str, depth: usize) {
    let indent = "\t".repeat(depth);
    let inner = "\t".repeat(depth + 1);
    let list = |items: &mut dyn Iterator<Item = &String>| items.map(|s| quote(s)).collect::<Vec<_>>().join(", ");
    let is_schema = !node.modules.is_empty();
    if is_schema {
        out.push_str(&format!(
            "lazy({}, {{ {} }}, {{ {} }}, {{",
            quote(label),
            list(&mut path.iter()),
            list(&mut node.modules.iter())
        ));
    } else {
        out.push_str(&format!("strict({}, {{", quote(label)));
    }
    if node.children.is_empty() {
        out.push('}');
    } else {
        out.push('\n');
        for (name, child) in &node.children {
            path.push(name.clone());
            out.push_str(&format!("{inner}{} = ", table_key(name)));
            let child_label = format!("{label}{}", key_access(name));
            write_node(out, child, path, &child_label, depth + 1);
            out.push_str(",\n");
            path.pop();
        }
        out.push_str(&indent);
        out.push('}');
    }
    out.push(')');
    if is_schema {
        // The type checker follows literal instance paths; `any` where it cannot.
        let segments: Vec<&str> = path.iter().map(String::as_str).collect();
        match typed_path(&segments) {
            Some(instance) => {
                out.push_str(" :: {\n");
                for module in &node.modules {
                    out.push_str(&format!(
                        "{inner}{}: typeof(require({instance}.{module})),\n",
                        table_key(module)
                    ));
                }
                for name in node.children.keys() {
                    out.push_str(&format!("{inner}{}: any,\n", table_key(name)));
                }
                out.push_str(&indent);
                out.push('}');
            }
            None => out.push_str(" :: any"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{DEFAULT_REGISTRY, Realm};

    fn spec() -> PackageSpec {
        PackageSpec {
            scope: "studio".into(),
            name: "arena-net".into(),
            version: "1.0.0".into(),
            realm: Realm::Shared,
            registry: DEFAULT_REGISTRY.into(),
            description: None,
            license: None,
            authors: vec![],
            homepage: None,
            repository: None,
            private: false,
            include: vec![],
            exclude: vec![],
            wally: true,
            pesde: None,
        }
    }

    fn schema(folder: &str, files: &[&str]) -> SchemaModules {
        SchemaModules {
            folder: folder.into(),
            files: files
                .iter()
                .map(|name| (name.to_string(), format!("-- {folder}/{name}").into_bytes()))
                .collect(),
        }
    }

    #[test]
    fn lays_out_schemas_under_src_with_a_root_module() {
        let files = source_files(
            &spec(),
            &[
                schema("combat", &["Server.luau", "Client.luau", "Types.luau", "Server.d.ts"]),
                schema("sub/my-chat", &["Client.luau", "Server.luau"]),
            ],
        )
        .expect("layout");
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            vec![
                "src/combat/Client.luau",
                "src/combat/Server.luau",
                "src/combat/Types.luau",
                "src/init.luau",
                "src/sub/my-chat/Client.luau",
                "src/sub/my-chat/Server.luau",
            ]
        );
        let init = String::from_utf8(files["src/init.luau"].clone()).expect("utf8");
        assert!(init.starts_with("--!strict\n-- studio/arena-net 1.0.0:"), "{init}");
        assert!(init.contains("require(ReplicatedStorage.Packages.ArenaNet)"), "{init}");
        assert!(
            init.contains("--     local Combat = Net.combat.Server   -- in server code\n"),
            "{init}"
        );
        assert!(
            init.contains(
                "combat = lazy(\"studio/arena-net.combat\", { \"combat\" }, { \"Server\", \"Client\", \"Types\" }, {})"
            ),
            "{init}"
        );
        assert!(
            init.contains("Server: typeof(require(script.combat.Server)),"),
            "{init}"
        );
        assert!(init.contains("sub = strict(\"studio/arena-net.sub\", {"), "{init}");
        assert!(
            init.contains("[\"my-chat\"] = lazy(\"studio/arena-net.sub[\\\"my-chat\\\"]\", { \"sub\", \"my-chat\" }"),
            "{init}"
        );
    }

    #[test]
    fn the_usage_example_names_an_odd_first_folder_as_an_identifier() {
        let files = source_files(&spec(), &[schema("net/v1.2", &["Server.luau", "Client.luau"])]).expect("layout");
        let init = String::from_utf8(files["src/init.luau"].clone()).expect("utf8");
        assert!(
            init.contains("--     local V12 = Net.net[\"v1.2\"].Client   -- in client code\n"),
            "{init}"
        );
    }

    #[test]
    fn a_folder_named_like_a_module_is_an_error() {
        let err = source_files(
            &spec(),
            &[schema("a", &["Server.luau"]), schema("a/Server", &["Server.luau"])],
        )
        .unwrap_err();
        assert!(err.contains("`a/Server`"), "{err}");
    }

    #[test]
    fn instance_members_and_odd_names_are_not_typed_paths() {
        assert_eq!(typed_path(&["combat"]).as_deref(), Some("script.combat"));
        assert_eq!(typed_path(&["Parent"]), None);
        assert_eq!(typed_path(&["my-chat"]), None);
        assert_eq!(typed_path(&["end"]), None);
        assert_eq!(link_alias("arena-net"), "ArenaNet");
        assert_eq!(link_alias("2d"), "P2d");
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
