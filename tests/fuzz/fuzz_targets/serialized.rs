//! Reading arbitrary bytes as PHP's serialize format (the summaries'
//! native unserialize) must never panic, and every entry the reader hands
//! over must fit the array it was announced for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yioop_codec::php_semantics::unserialize::{parse, Build, Key};

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
    let _ = parse(data.get(1..).unwrap_or_default(), max_depth, &mut Counts);
});
