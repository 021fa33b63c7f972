//! Reading arbitrary bytes as PHP's serialize format (the summaries'
//! native unserialize) must never panic, and every entry the reader hands
//! over must fit the array it was announced for. `outer_entries` (what the
//! summary cache keeps of a page) must read exactly what `parse` reads, and
//! its spans, put back together as an array, must read again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yioop_codec::php_semantics::unserialize::{outer_entries, parse, Build, Key};

/// Builds nothing; checks that no array gets more entries than it announced.
struct Counts;

impl Build for Counts {
    type Value = ();
    type Array = (usize, usize);
    fn null(&mut self) {}
    fn bool(&mut self, _: bool) {}
    fn long(&mut self, _: i64) {}
    fn double(&mut self, _: f64) {}
    fn string(&mut self, _: &[u8]) {}
    fn empty_array(&mut self) {}
    fn array(&mut self, len: usize) -> (usize, usize) {
        assert!(len > 0, "an empty array is empty_array");
        (len, 0)
    }
    fn set(&mut self, array: &mut (usize, usize), _: Key, _: ()) {
        array.1 += 1;
        assert!(array.1 <= array.0, "more entries than announced");
    }
    fn finish(&mut self, array: (usize, usize)) {
        assert_eq!(array.0, array.1, "fewer entries than announced");
    }
}

fuzz_target!(|data: &[u8]| {
    let max_depth = data.first().map_or(0, |&b| usize::from(b % 8));
    let text = data.get(1..).unwrap_or_default();
    let read = parse(text, max_depth, &mut Counts).is_ok();
    let entries = outer_entries(text, max_depth);
    assert_eq!(entries.is_ok(), read, "outer_entries and parse disagree on reading");
    if let Ok(Some(entries)) = entries {
        let mut rebuilt = format!("a:{}:{{", entries.len()).into_bytes();
        let mut end = 0;
        for (_, span) in &entries {
            assert!(span.start >= end && span.end <= text.len(), "spans in order, inside the text");
            end = span.end;
            rebuilt.extend_from_slice(&text[span.clone()]);
        }
        rebuilt.push(b'}');
        assert!(parse(&rebuilt, max_depth, &mut Counts).is_ok(), "the kept entries read as an array");
    }
});
