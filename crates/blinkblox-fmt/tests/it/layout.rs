//! The canonical layout, case by case: what goes on one line, what is broken, where
//! comments and blank lines go, and what is refused.

use blinkblox_fmt::{WIDTH, format_source};

fn format(text: &str) -> String {
    let once = format_source(text).unwrap_or_else(|err| panic!("does not format: {:?}", err.diagnostics));
    assert_eq!(format_source(&once).expect("reparses").as_str(), once, "not idempotent");
    once
}

#[test]
fn declaration_bodies_go_one_field_per_line_with_trailing_commas() {
    let text = "event Hit{From:Client,Type:Reliable,\nCall:SingleSync,Data:(u8,string(..10))}\nstruct P{a:u8,b:u16}";
    assert_eq!(
        format(text),
        "event Hit {\n    From: Client,\n    Type: Reliable,\n    Call: SingleSync,\n    Data: (u8, string(..10)),\n}\n\
         struct P {\n    a: u8,\n    b: u16,\n}\n"
    );
}

#[test]
fn inline_types_stay_on_one_line_until_they_pass_the_width() {
    let short = "type T = struct { a: u8, b: enum { X, Y }, c: set { F, G }, d: map { [u8]: string } }";
    assert_eq!(format(short), format!("{short}\n"));
    let fields: Vec<String> = (0..20).map(|i| format!("field_number_{i}: u32")).collect();
    let long = format!("type T = struct {{ {} }}", fields.join(", "));
    assert!(long.len() > WIDTH);
    let formatted = format(&long);
    let expected: String = fields.iter().map(|f| format!("    {f},\n")).collect();
    assert_eq!(formatted, format!("type T = struct {{\n{expected}}}\n"));
    assert!(formatted.lines().all(|line| line.len() <= WIDTH));
}

#[test]
fn blank_lines_between_declarations_are_kept_at_most_one() {
    let text = "\n\n-- head\n\n\n\ntype A = u8\ntype B = u8\n\n\n\n-- about C\ntype C = u8\n\n\n";
    assert_eq!(
        format(text),
        "-- head\n\ntype A = u8\ntype B = u8\n\n-- about C\ntype C = u8\n"
    );
}

#[test]
fn comments_stay_before_and_after_what_they_were_written_with() {
    let text = "struct S { -- opening\n  a: u8, -- after a\n  -- before b\n  b: u8 --[[ after b ]]\n  -- last\n}\n";
    assert_eq!(
        format(text),
        "struct S {\n    -- opening\n    a: u8, -- after a\n    -- before b\n    b: u8, --[[ after b ]]\n    -- last\n}\n"
    );
}

#[test]
fn a_comment_inside_an_inline_list_breaks_it() {
    let text = "event E { From: Server, Type: Reliable, Call: SingleSync, Data: (u8, -- the count\n u16) }";
    assert_eq!(
        format(text),
        "event E {\n    From: Server,\n    Type: Reliable,\n    Call: SingleSync,\n    Data: (\n        u8, -- the count\n        u16,\n    ),\n}\n"
    );
}

#[test]
fn block_comments_keep_their_lines() {
    let text = "scope A {\n    --[[ one\n       two ]]\n    type X = u8\n}\n";
    assert_eq!(format(text), text);
}

#[test]
fn declaration_keywords_are_not_repeated_in_their_bodies() {
    let text = "enum E = enum { A }\nmap M = map { [u8]: u8 }\nset S = set { F }\nstruct D = { a: u8 }\nenum T = \"k\" { A {} }";
    assert_eq!(
        format(text),
        "enum E = { A }\nmap M = { [u8]: u8 }\nset S = { F }\nstruct D {\n    a: u8,\n}\nenum T = \"k\" {\n    A {},\n}\n"
    );
}

#[test]
fn names_numbers_and_strings_are_written_as_they_were() {
    let text = "option RemoteScope = 'net'\nstruct S { [\"a b\"]: u8(-1..2.5), 'c': Instance(Part)?, d: vector<i16>(..100)[3], e: u8[2..] }";
    assert_eq!(
        format(text),
        "option RemoteScope = 'net'\nstruct S {\n    [\"a b\"]: u8(-1..2.5),\n    'c': Instance(Part)?,\n    d: vector<i16>(..100)[3],\n    e: u8[2..],\n}\n"
    );
}

#[test]
fn empty_bodies_and_files() {
    assert_eq!(
        format("scope A {}\nevent E {}\nstruct S {}"),
        "scope A {}\nevent E {}\nstruct S {}\n"
    );
    assert_eq!(format(""), "");
    assert_eq!(format("  \n\n"), "");
    assert_eq!(format("-- only a comment"), "-- only a comment\n");
}

#[test]
fn a_schema_that_does_not_parse_is_not_formatted() {
    let err = format_source("struct S { a: }").expect_err("a parse error");
    assert_eq!(err.diagnostics[0].code, "E2001");
    let err = format_source("type A = u8 $").expect_err("a lexer error");
    assert_eq!(err.diagnostics[0].code, "E1001");
}

#[test]
fn windows_line_endings_are_kept() {
    let text = "-- a\r\n--[[ b\r\n c ]]\r\nstruct S { a: u8 }\r\n";
    assert_eq!(
        format(text),
        "-- a\r\n--[[ b\r\n c ]]\r\nstruct S {\r\n    a: u8,\r\n}\r\n"
    );
}

/// A long file is no deeper to print than a short one: tens of thousands of declarations
/// (or fields) with trailing comments format on a thread with a small stack, where a
/// document as deep as the file is long overflowed it.
#[test]
fn long_files_and_long_bodies_format_without_deep_recursion() {
    let declarations: String = (0..40_000).map(|i| format!("type T{i} = u8 -- c{i}\n")).collect();
    let fields: String = (0..40_000).map(|i| format!("    a{i}: u8, -- c{i}\n")).collect();
    let body = format!("struct S {{\n{fields}}}\n");
    let formatted = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || (format_source(&declarations), format_source(&body)))
        .expect("thread")
        .join()
        .expect("formatting overflowed a 512 KiB stack");
    let (declarations, body) = (formatted.0.expect("formats"), formatted.1.expect("formats"));
    assert!(declarations.starts_with("type T0 = u8 -- c0\ntype T1 = u8 -- c1\n"));
    assert_eq!(declarations.lines().count(), 40_000);
    assert!(body.starts_with("struct S {\n    a0: u8, -- c0\n"));
    assert_eq!(body.lines().count(), 40_002);
}

/// A schema saved with a UTF-8 byte-order mark formats as `check` reads it, and keeps it.
#[test]
fn a_byte_order_mark_is_accepted_and_kept() {
    let formatted = format("\u{FEFF}struct P{a:u8}\n");
    assert_eq!(formatted, "\u{FEFF}struct P {\n    a: u8,\n}\n");
}

/// Only one byte-order mark is a mark: many in a row are text that does not lex, and
/// dropping them one at a time recursed as deep as they were many.
#[test]
fn many_byte_order_marks_do_not_recurse() {
    let text = "\u{FEFF}".repeat(200_000) + "struct P { a: u8 }\n";
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || format_source(&text).is_err())
        .expect("thread")
        .join()
        .expect("formatting overflowed a 256 KiB stack");
    assert!(result, "marks after the first are not whitespace");
}

#[test]
fn a_quantized_number_keeps_its_step_written_tight() {
    let text = "type P = f32( -2048 .. 2048   step 1 / 64 )\ntype A = vector<f32(0..1 step 0.5)>[ ..4 ]";
    assert_eq!(
        format(text),
        "type P = f32(-2048..2048 step 1/64)\ntype A = vector<f32(0..1 step 0.5)>[..4]\n"
    );
}
