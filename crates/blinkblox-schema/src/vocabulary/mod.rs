//! The language's words, each declared once, for everything that reads or offers them: the
//! parser, the checker, the dump, the project's lockfile, the formatter, the language server
//! and the docs.

pub mod fields;
pub mod keywords;
pub mod options;
pub mod primitives;

pub use fields::{Choice, Field, Takes, field, fields_of};
pub use keywords::{KEYWORDS, Keyword, is_keyword};
pub use options::{OPTIONS, OptionKind, OptionSetting, OptionSpec, OptionState, option};
pub use primitives::{PRIMITIVES, Primitive, is_primitive, primitive};
