//! The schema front end: lexer → parser → checker → [`model::Schema`].

pub mod model;
pub mod source;
