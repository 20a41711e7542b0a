//! Feeds arbitrary bytes through the lexer, parser and checker. Any panic, hang, run of
//! diagnostics past the cap (200 and a summary) or diagnostic pointing outside its file is a
//! bug. Run with `-timeout=2 -rss_limit_mb=512` to catch inputs that take time or memory
//! out of proportion to their size.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Invalid UTF-8 is replaced, as `check_file` reports it and checks the rest.
    let text = String::from_utf8_lossy(data);
    let output = blinkblox_schema::check_source("fuzz.blink", &text);
    assert_eq!(output.schema.is_some(), !output.has_errors());
    assert!(output.diagnostics.len() <= 201, "{} diagnostics", output.diagnostics.len());
    for diagnostic in &output.diagnostics {
        for label in std::iter::once(&diagnostic.primary).chain(&diagnostic.secondary) {
            let file = output.sources.get(label.span.file);
            assert!(label.span.start <= label.span.end);
            assert!(file.text.is_char_boundary(label.span.start as usize));
            assert!(file.text.is_char_boundary(label.span.end as usize));
        }
        let _ = blinkblox_schema::diagnostics::render::render(diagnostic, &output.sources, false);
    }
});
