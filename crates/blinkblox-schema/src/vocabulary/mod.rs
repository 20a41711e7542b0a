//! The language's words, each declared once, for everything that reads or offers them: the
//! checker, the dump, the project's lockfile and manifest, the language server and the docs.

pub mod options;

pub use options::{OPTIONS, OptionKind, OptionSetting, OptionSpec, OptionState, option};
