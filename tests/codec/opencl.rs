//! The OpenCL path against the scalar core: same output, always.
//!
//! Tests that need an OpenCL device print why they skip and pass when there
//! is none. The no-driver and fork tests run in a child process (the test
//! binary again, picked by an environment variable), because the ICD loader
//! reads its environment once per process and fork() wants a quiet process.
#![cfg(feature = "opencl")]

use proptest::prelude::*;
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use yioop_codec::codec::backend::{self, Dispatch, Mode};
use yioop_codec::codec::opencl::{self, OpenClContext};
use yioop_codec::codec::{delta, modified9};

// ---- contexts ----

/// This process's context, or None after printing why the test skips.
fn device(test: &str) -> Option<&'static OpenClContext> {
    match opencl::context() {
        Ok(c) => Some(c),
        Err(reason) => {
            // Once per test, not once per proptest case.
            static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
            let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
            if !said.iter().any(|t| t == test) {
                said.push(test.to_string());
                println!("SKIPPED {test}: no OpenCL device ({reason})");
            }
            None
        }
    }
}

/// Contexts with other tiles: GPU-shaped (256 x 8) and tiny (4 x 2, 1 x 1,
/// 8 x 3) so that short lists cross many tile and chunk boundaries. A tile
/// the device computes wrongly is refused by the context's self-check
/// (PoCL 6.0 gets every work group above 1 wrong): that is the only failure
/// allowed here, and the tile is left out.
fn tiled(test: &str) -> Vec<&'static OpenClContext> {
    static CONTEXTS: OnceLock<Vec<OpenClContext>> = OnceLock::new();
    if device(test).is_none() {
        return Vec::new();
    }
    CONTEXTS
        .get_or_init(|| {
            [(256, 8), (4, 2), (1, 1), (8, 3)]
                .into_iter()
                .filter_map(|tile| match OpenClContext::with_tile(Some(tile)) {
                    Ok(context) => Some(context),
                    Err(e) => {
                        let why = format!("{e:#}");
                        assert!(why.contains("self-check"), "a context with tile {tile:?}: {why}");
                        println!("tile {tile:?} refused by the self-check: {why}");
                        None
                    }
                })
                .collect()
        })
        .iter()
        .collect()
}

/// The default context and the tiled ones.
fn all_contexts(test: &str) -> Vec<&'static OpenClContext> {
    let mut all: Vec<_> = device(test).into_iter().collect();
    all.extend(tiled(test));
    all
}

// ---- references ----

fn scalar_decode(bytes: &[u8]) -> Vec<u32> {
    let mut out = vec![7, 7]; // something already there, as in a caller's buffer
    modified9::decode_words(bytes, &mut out);
    out
}

fn check_decode(context: &OpenClContext, bytes: &[u8]) {
    let mut out = vec![7, 7];
    context.decode_words(bytes, &mut out).expect("device decode");
    let expected = scalar_decode(bytes);
    if out != expected {
        let first = out.iter().zip(&expected).position(|(a, b)| a != b);
        panic!(
            "decode of {} bytes differs (tile {}x{}): lengths {} vs {}, first difference at {:?}",
            bytes.len(),
            context.info().work_group,
            context.info().items,
            out.len(),
            expected.len(),
            first
        );
    }
}

/// The device either gives the scalar result or reports the scalar
/// overflow index with the list untouched; dispatch (mode on) gives exactly
/// what the scalar loop gives, partial sums included.
fn check_de_delta(context: &OpenClContext, list: &[i64]) {
    let mut expected = list.to_vec();
    let expected_result = delta::de_delta_list(&mut expected);
    let mut on_device = list.to_vec();
    match context.de_delta_list(&mut on_device) {
        Ok(()) => {
            assert_eq!(expected_result, Ok(()), "device summed a list that overflows");
            assert!(on_device == expected, "prefix sums of {} elements differ", list.len());
        }
        Err(opencl::Error::Overflow(i)) => {
            assert_eq!(expected_result, Err(i), "overflow index");
            assert!(on_device == list, "list changed on overflow");
        }
        Err(e) => panic!("device prefix sum failed: {e}"),
    }
    let mut dispatched = list.to_vec();
    assert_eq!(Dispatch::new(Mode::On, 0).de_delta(&mut dispatched), expected_result);
    assert!(dispatched == expected, "dispatch leaves the list as the scalar loop does");
}

// ---- data ----

/// xorshift64*: deterministic data for the large cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Words of every kind: random bits half the time, else a random first byte
/// with slots cleared at random (so words end early, or are empty).
fn random_words(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut bytes = Vec::with_capacity(n * 4);
    for _ in 0..n {
        let r = rng.next();
        let word = if r & 1 == 0 {
            (r >> 32) as u32
        } else {
            ((r >> 32) as u32) & (r as u32 | 0xFF00_0000)
        };
        bytes.extend_from_slice(&word.to_be_bytes());
    }
    bytes
}

/// Words as Yioop writes them: encoded lists of position deltas.
fn encoded_words(n_words: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut bytes = Vec::with_capacity(n_words * 4 + 64);
    let mut list = Vec::new();
    while bytes.len() < n_words * 4 {
        list.clear();
        let len = 1 + rng.next() % 64;
        for _ in 0..len {
            let r = rng.next();
            list.push(((r >> 8) & ((1 << (1 + r % 27)) - 1)) as i64);
        }
        modified9::encode(&list, &mut bytes).unwrap();
    }
    bytes.truncate(n_words * 4);
    bytes
}

fn word_strategy() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        (any::<u8>(), any::<u32>(), any::<u32>())
            .prop_map(|(b, p, z)| (b as u32) << 24 | (p & z & 0xFF_FFFF)),
        (any::<u8>(), 0u32..64).prop_map(|(b, low)| (b as u32) << 24 | low),
    ]
}

fn words_bytes(words: &[u32], tail: &[u8]) -> Vec<u8> {
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    bytes.extend_from_slice(tail);
    bytes
}

fn delta_strategy(max_len: usize) -> impl Strategy<Value = Vec<i64>> {
    let element = prop_oneof![
        6 => -1000i64..1000,
        2 => 0i64..(1 << 28),
        1 => any::<i64>(),
        1 => prop_oneof![Just(i64::MAX), Just(i64::MIN), Just(i64::MAX / 3), Just(i64::MIN / 3)],
    ];
    prop_oneof![
        3 => prop::collection::vec(-1000i64..1000, 0..max_len),
        2 => prop::collection::vec(element, 0..max_len),
        // Close to the top: overflow somewhere in the middle, or just not.
        2 => (prop::collection::vec(0i64..1000, 0..max_len), 0i64..1_000_000).prop_map(|(mut v, gap)| {
            if !v.is_empty() {
                v[0] = i64::MAX - gap;
            }
            v
        }),
    ]
}

// ---- decode ----

#[test]
fn decode_words_of_every_first_byte() {
    let contexts = all_contexts("decode_words_of_every_first_byte");
    let mut words = Vec::new();
    for first in 0..=255u32 {
        for payload in [0, 1, 2, 0xFF_FFFF, 0x80_0000, 0x12_3456, 0x10_0000, 0xFF_FFFE, 0x00_0F00] {
            words.push(first << 24 | payload);
        }
    }
    let bytes = words_bytes(&words, &[]);
    for context in contexts {
        check_decode(context, &bytes);
        for word in &words {
            check_decode(context, &word.to_be_bytes());
        }
    }
}

#[test]
fn decode_of_nothing_and_of_empty_words() {
    for context in all_contexts("decode_of_nothing_and_of_empty_words") {
        check_decode(context, &[]);
        check_decode(context, &[1, 2, 3]); // no whole word
        check_decode(context, &[0x3f, 0, 0, 0]); // an empty 24x1 word
        check_decode(context, &[0x3f, 0, 0, 0].repeat(1000));
        check_decode(context, &[0, 0, 0, 0].repeat(33)); // 1x28 zeros are kept
    }
}

#[test]
fn inputs_at_any_alignment() {
    // Postings are slices of a longer string, at any byte offset; lists are
    // slices too. CPU devices use that memory in place.
    let bytes = encoded_words(5000, 21);
    let mut rng = Rng(3);
    let list: Vec<i64> = (0..5000).map(|_| (rng.next() % 100) as i64).collect();
    for context in all_contexts("inputs_at_any_alignment") {
        for skip in 0..8 {
            check_decode(context, &bytes[skip..]);
            check_decode(context, &bytes[skip..bytes.len() - 5]);
            let (mut on_device, mut expected) = (list.clone(), list.clone());
            delta::de_delta_list(&mut expected[skip..]).unwrap();
            context.de_delta_list(&mut on_device[skip..]).expect("device prefix sum");
            assert!(on_device == expected, "prefix sums of a slice at {skip}");
        }
        assert_eq!(context.info().runtime_errors, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn decode_matches_scalar_small(
        words in prop::collection::vec(word_strategy(), 0..300),
        tail in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        let bytes = words_bytes(&words, &tail);
        for context in all_contexts("decode_matches_scalar_small") {
            check_decode(context, &bytes);
        }
    }

    #[test]
    fn decode_of_encoded_lists_matches_scalar(
        list in prop::collection::vec(prop_oneof![0i64..4, 0i64..600, 0i64..(1 << 28)], 0..400),
    ) {
        let mut bytes = Vec::new();
        modified9::encode(&list, &mut bytes).unwrap();
        for context in all_contexts("decode_of_encoded_lists_matches_scalar") {
            check_decode(context, &bytes);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn decode_matches_scalar_medium(len in 0usize..60_000, seed in any::<u64>(), encoded in any::<bool>()) {
        let bytes = if encoded { encoded_words(len, seed) } else { random_words(len, seed) };
        if let Some(context) = device("decode_matches_scalar_medium") {
            check_decode(context, &bytes);
        }
        if let Some(&tiny) = tiled("decode_matches_scalar_medium").get(1) {
            check_decode(tiny, &bytes);
        }
    }
}

#[test]
fn decode_large_fixed_sizes() {
    let Some(context) = device("decode_large_fixed_sizes") else { return };
    for (n, seed) in [(1 << 20, 1), ((1 << 20) + 4097, 2), (10_000_000, 3)] {
        check_decode(context, &random_words(n, seed));
    }
    check_decode(context, &encoded_words(10_000_000, 4));
}

// ---- prefix sum ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn de_delta_matches_scalar_small(list in delta_strategy(300)) {
        for context in all_contexts("de_delta_matches_scalar_small") {
            check_de_delta(context, &list);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn de_delta_matches_scalar_medium(list in delta_strategy(60_000)) {
        if let Some(context) = device("de_delta_matches_scalar_medium") {
            check_de_delta(context, &list);
        }
        if let Some(&tiny) = tiled("de_delta_matches_scalar_medium").get(1) {
            check_de_delta(tiny, &list);
        }
    }
}

#[test]
fn de_delta_overflow_is_found_where_the_scalar_loop_finds_it() {
    for context in all_contexts("de_delta_overflow_is_found_where_the_scalar_loop_finds_it") {
        // Sums that leave the range and come back: wrapping arithmetic alone
        // would miss them.
        check_de_delta(context, &[i64::MAX, 1, -2, 5]);
        check_de_delta(context, &[i64::MIN, -1, 1, 0]);
        check_de_delta(context, &[i64::MAX, i64::MAX, i64::MIN, i64::MIN, 3]);
        check_de_delta(context, &[i64::MIN, i64::MAX, 1]); // -1 + 1 fits
                                                           // Overflow at the last element, and at every position of a few tiles.
        for len in [2usize, 3, 8, 9, 17, 100] {
            for at in 1..len {
                let mut list = vec![1i64; len];
                list[0] = i64::MAX - at as i64 + 1;
                check_de_delta(context, &list); // overflows exactly at `at`
                list[0] -= 1;
                check_de_delta(context, &list); // just fits up to the end... or not
            }
        }
        // Exact limits: the sums reach i64::MAX and i64::MIN without passing.
        check_de_delta(context, &[i64::MAX - 10, 4, 6, -1, 1]);
        check_de_delta(context, &[i64::MIN + 10, -4, -6, 1, -1]);
    }
}

#[test]
fn de_delta_of_short_lists() {
    for context in all_contexts("de_delta_of_short_lists") {
        check_de_delta(context, &[]);
        check_de_delta(context, &[5]);
        check_de_delta(context, &[i64::MIN]);
        check_de_delta(context, &[i64::MAX, 0]);
    }
}

#[test]
fn de_delta_large_fixed_sizes() {
    let Some(context) = device("de_delta_large_fixed_sizes") else { return };
    let mut rng = Rng(99);
    let small: Vec<i64> = (0..10_000_000).map(|_| (rng.next() % 2000) as i64 - 500).collect();
    check_de_delta(context, &small);
    let mut late = vec![1_000_000_007i64; (1 << 20) + 3];
    late[0] = i64::MAX - 1_000_000_007 * ((1 << 20) - 10);
    check_de_delta(context, &late); // overflows 12 elements before the end
}

// ---- the encode-side experiment ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn delta_list_matches_scalar(list in delta_strategy(2000)) {
        for context in all_contexts("delta_list_matches_scalar") {
            prop_assert_eq!(context.delta_list(&list).unwrap(), delta::delta_list(&list));
        }
    }
}

// ---- dispatch ----

#[test]
fn dispatch_gives_scalar_results_in_every_mode() {
    let bytes = encoded_words(5000, 11);
    let mut rng = Rng(5);
    let list: Vec<i64> = (0..5000).map(|_| (rng.next() % 100) as i64).collect();
    let overflowing = [i64::MAX - 2, 1, 1, 1, 1];
    for d in [
        Dispatch::new(Mode::On, 0),
        Dispatch::new(Mode::Auto, 0),
        Dispatch::new(Mode::Auto, 1000),
        Dispatch::new(Mode::Auto, u64::MAX),
        Dispatch::new(Mode::Off, 0),
        Dispatch::default(),
    ] {
        for len in [0, 1, 3, 999, 1000, 5000] {
            let mut out = vec![7, 7];
            d.decode_words(&bytes[..len * 4], &mut out);
            assert_eq!(out, scalar_decode(&bytes[..len * 4]), "{d:?} decode of {len} words");
            let mut got = list[..len].to_vec();
            let mut expected = got.clone();
            assert_eq!(d.de_delta(&mut got), delta::de_delta_list(&mut expected));
            assert_eq!(got, expected, "{d:?} de_delta of {len}");
        }
        let mut got = overflowing.to_vec();
        assert_eq!(d.de_delta(&mut got), Err(3));
        assert_eq!(got, [i64::MAX - 2, i64::MAX - 1, i64::MAX, 1, 1]);
    }
}

#[test]
fn status_reports_a_live_context() {
    let Some(context) = device("status_reports_a_live_context") else { return };
    let status = backend::opencl_status(false);
    assert!(status.compiled && status.live && status.tried, "{status:?}");
    assert_eq!(status.device.as_deref(), Some(context.device_name()));
    assert_eq!(status.platform.as_deref(), Some(context.platform_name()));
    assert!(status.compute_units.unwrap() >= 1);
    assert!(context.is_live() && context.pid() == std::process::id());
    assert!(matches!(opencl::state(), opencl::State::Live(_)));
    // One context per process: the same one every time.
    assert!(std::ptr::eq(context, opencl::context().unwrap()));
}

// ---- in a child process ----

const CHILD: &str = "YIOOP_OPENCL_TEST_CHILD";

/// Runs `test` of this binary in a child with `env`, expecting `marker` in
/// its output (or, with `may_skip`, a skip message).
fn run_child(
    test: &str,
    role: &str,
    env: &[(&str, &std::ffi::OsStr)],
    marker: &str,
    may_skip: bool,
) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([test, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD, role);
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("the test binary runs again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let done = text.contains(marker) || (may_skip && text.contains("SKIPPED"));
    assert!(output.status.success() && done, "child {role} failed:\n{text}");
    for line in text
        .lines()
        .filter(|l| l.contains(marker) || l.contains("SKIPPED") || l.starts_with("child"))
    {
        println!("{role}: {line}");
    }
}

#[test]
fn without_a_driver_context_creation_fails_readably_and_dispatch_runs_scalar() {
    const NAME: &str = "without_a_driver_context_creation_fails_readably_and_dispatch_runs_scalar";
    if std::env::var(CHILD).as_deref() == Ok("no-icd") {
        let started = Instant::now();
        let reason = opencl::context().err().expect("no context without a driver");
        assert!(started.elapsed() < Duration::from_secs(5), "gave up quickly");
        assert!(reason.contains("no OpenCL platform"), "{reason}");
        // The failure is remembered, and shown.
        assert_eq!(opencl::context().err(), Some(reason));
        let status = backend::opencl_status(true);
        assert!(status.compiled && status.tried && !status.live, "{status:?}");
        assert_eq!(status.reason.as_deref(), Some(reason));
        assert!(matches!(opencl::state(), opencl::State::Failed(_)));
        // Mode on still works: the scalar path.
        let d = Dispatch::new(Mode::On, 0);
        let bytes = encoded_words(3000, 8);
        let mut out = vec![7, 7];
        d.decode_words(&bytes, &mut out);
        assert_eq!(out, scalar_decode(&bytes));
        let mut list = vec![i64::MAX - 1, 1, 1];
        assert_eq!(d.de_delta(&mut list), Err(2));
        assert_eq!(list, [i64::MAX - 1, i64::MAX, 1]);
        println!("NO-ICD-OK: {reason}");
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let empty = std::env::temp_dir().join(format!("yioop-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    run_child(NAME, "no-icd", &[("OCL_ICD_VENDORS", empty.as_os_str())], "NO-ICD-OK", false);
    let _ = std::fs::remove_dir(&empty);
}

extern "C" {
    fn fork() -> i32;
    fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
    fn _exit(code: i32) -> !;
    fn alarm(seconds: u32) -> u32;
}

/// A line from a forked child, written straight to stderr (the harness's
/// output capture would keep it in memory, lost at _exit).
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Forks; the child runs `body` (killed after a minute, should it hang) and
/// exits 0 if it returned; the parent gets the child's wait status.
fn in_forked_child(body: impl FnOnce()) -> i32 {
    let pid = unsafe { fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        unsafe { alarm(60) };
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).is_ok();
        unsafe { _exit(if ok { 0 } else { 1 }) };
    }
    let mut status = 0;
    unsafe { waitpid(pid, &mut status, 0) };
    status
}

#[test]
fn a_forked_child_never_uses_its_parents_context() {
    const NAME: &str = "a_forked_child_never_uses_its_parents_context";
    match std::env::var(CHILD).as_deref() {
        Ok("fork-after") => {
            let Some(parent) = device(NAME) else { return };
            let bytes = encoded_words(20_000, 3);
            check_decode(parent, &bytes);
            let status = in_forked_child(|| {
                let reason = opencl::context().err().expect("no context in the child");
                assert!(reason.contains("fork"), "{reason}");
                assert!(!parent.is_live());
                assert!(parent.decode_words(&bytes, &mut Vec::new()).is_err());
                let mut out = vec![7, 7];
                Dispatch::new(Mode::On, 0).decode_words(&bytes, &mut out);
                assert_eq!(out, scalar_decode(&bytes));
                say(&format!("child: {reason}"));
            });
            assert_eq!(status, 0, "forked child failed");
            check_decode(parent, &bytes); // the parent's context still works
            println!("FORK-AFTER-OK");
        }
        Ok(_) => {}
        Err(_) => run_child(NAME, "fork-after", &[], "FORK-AFTER-OK", true),
    }
}

#[test]
fn a_child_forked_before_any_opencl_makes_its_own_context() {
    const NAME: &str = "a_child_forked_before_any_opencl_makes_its_own_context";
    if std::env::var(CHILD).as_deref() != Ok("fork-first") {
        if std::env::var_os(CHILD).is_none() {
            run_child(NAME, "fork-first", &[], "FORK-FIRST-DONE", false);
        }
        return;
    }
    // Nothing OpenCL in this process yet: the child sets up its own.
    let status = in_forked_child(|| match opencl::context() {
        Ok(context) => {
            assert_eq!(context.pid(), std::process::id());
            check_decode(context, &encoded_words(20_000, 5));
            say(&format!("child made its own context on {}", context.device_name()));
        }
        Err(reason) => say(&format!("SKIPPED child: no OpenCL device ({reason})")),
    });
    assert_eq!(status, 0, "forked child failed");
    // And the parent can still make its own afterwards.
    if let Some(context) = device(NAME) {
        check_decode(context, &encoded_words(1000, 6));
    }
    println!("FORK-FIRST-DONE");
}

// ---- the probe: a driver that dies or hangs takes only the child down ----

mod probe_runs {
    use std::time::{Duration, Instant};
    use yioop_codec::codec::opencl::probe::{self, Ending, Reporter};

    const LIMIT: Duration = Duration::from_secs(20);

    fn aborts(report: &Reporter) -> anyhow::Result<()> {
        report.stage("step one");
        report.stage("step two");
        std::process::abort()
    }

    fn crashes(report: &Reporter) -> anyhow::Result<()> {
        report.stage("touching null");
        unsafe { std::ptr::null_mut::<u64>().write_volatile(1) };
        Ok(())
    }

    fn hangs(report: &Reporter) -> anyhow::Result<()> {
        report.stage("waiting forever");
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    fn fails(report: &Reporter) -> anyhow::Result<()> {
        report.platform("Some Platform");
        Err(anyhow::anyhow!("inner\ncause").context("outer"))
    }

    /// Writes to its descriptors 2 and 1, as a C driver does (the test
    /// harness captures println! before it reaches them).
    fn passes_and_talks(_: &Reporter) -> anyhow::Result<()> {
        for (fd, text) in [(2, "a driver's warning\n"), (1, "and its chatter\n")] {
            unsafe { libc::write(fd, text.as_ptr().cast(), text.len()) };
        }
        Ok(())
    }

    fn exits_silently(_: &Reporter) -> anyhow::Result<()> {
        unsafe { libc::_exit(3) }
    }

    #[test]
    fn an_abort_is_reported_with_the_stage_it_happened_in() {
        let seen = probe::run_in_child(LIMIT, aborts);
        assert_eq!(seen.ending, Ending::Signal(libc::SIGABRT), "{seen:?}");
        assert_eq!(seen.stage.as_deref(), Some("step two"));
    }

    #[test]
    fn a_crash_is_reported_as_its_signal() {
        let seen = probe::run_in_child(LIMIT, crashes);
        assert_eq!(seen.ending, Ending::Signal(libc::SIGSEGV), "{seen:?}");
        assert_eq!(seen.stage.as_deref(), Some("touching null"));
    }

    #[test]
    fn a_hang_is_killed_at_the_limit() {
        let started = Instant::now();
        let limit = Duration::from_millis(700);
        let seen = probe::run_in_child(limit, hangs);
        assert_eq!(seen.ending, Ending::TimedOut(limit), "{seen:?}");
        assert_eq!(seen.stage.as_deref(), Some("waiting forever"));
        assert!(started.elapsed() < limit + Duration::from_secs(3), "took {:?}", started.elapsed());
    }

    #[test]
    fn an_error_comes_back_as_its_chain_in_one_line() {
        let seen = probe::run_in_child(LIMIT, fails);
        assert_eq!(seen.ending, Ending::Failed("outer: inner cause".into()), "{seen:?}");
        assert_eq!(seen.platforms, ["Some Platform"]);
    }

    #[test]
    fn a_pass_keeps_what_the_child_wrote() {
        let seen = probe::run_in_child(LIMIT, passes_and_talks);
        assert_eq!(seen.ending, Ending::Passed, "{seen:?}");
        assert!(seen.output.contains("a driver's warning") && seen.output.contains("its chatter"), "{seen:?}");
    }

    #[test]
    fn an_exit_without_a_verdict_is_its_status() {
        assert_eq!(probe::run_in_child(LIMIT, exits_silently).ending, Ending::Exit(3));
    }
}

/// Runs this test binary's `test` again as `role`, with `set` variables
/// and `removed` ones taken away.
fn run_child_env(test: &str, role: &str, set: &[(&str, &str)], removed: &[&str], marker: &str) {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args([test, "--exact", "--nocapture", "--test-threads=1"]).env(CHILD, role);
    for (k, v) in set {
        command.env(k, v);
    }
    for k in removed {
        command.env_remove(k);
    }
    let output = command.output().expect("the test binary runs again");
    let text =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let done = text.contains(marker) || text.contains("SKIPPED");
    assert!(output.status.success() && done, "child {role} failed:\n{text}");
    for line in text.lines().filter(|l| l.contains(marker) || l.contains("SKIPPED")) {
        println!("{role}: {line}");
    }
}

/// Whether a reason says there is no OpenCL at all here (then the driver
/// tests below have nothing to probe).
fn no_opencl_at_all(reason: &str) -> bool {
    reason.contains("no OpenCL platform")
}

#[test]
fn without_ld_on_path_the_probe_fails_and_the_process_lives_on() {
    const NAME: &str = "without_ld_on_path_the_probe_fails_and_the_process_lives_on";
    if std::env::var(CHILD).as_deref() == Ok("no-ld") {
        let reason = match opencl::context() {
            Ok(c) => return println!("SKIPPED: {} links without ld", c.platform_name()),
            Err(reason) if no_opencl_at_all(reason) => return println!("SKIPPED: {reason}"),
            Err(reason) => reason,
        };
        if reason.contains("Portable Computing Language") || reason.contains("PoCL") {
            assert!(reason.contains("no `ld` on PATH"), "{reason}");
            assert!(reason.contains("env[PATH] = /usr/bin:/bin"), "{reason}");
            // PoCL 3 links at the first launch, PoCL 6 while building.
            let linking = ["during the first launch of the decode kernels", "during building the program"];
            assert!(linking.iter().any(|stage| reason.contains(stage)), "{reason}");
        }
        let bytes = encoded_words(3000, 9);
        let mut out = vec![7, 7];
        Dispatch::new(Mode::On, 0).decode_words(&bytes, &mut out);
        assert_eq!(out, scalar_decode(&bytes));
        println!("NO-LD-OK: {reason}");
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let cache = std::env::temp_dir().join(format!("yioop-no-ld-{}", std::process::id()));
    std::fs::create_dir_all(&cache).unwrap();
    let cache_text = cache.to_str().unwrap();
    run_child_env(NAME, "no-ld", &[("POCL_CACHE_DIR", cache_text)], &["PATH"], "NO-LD-OK");
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn an_unwritable_pocl_cache_is_named_with_its_fix() {
    const NAME: &str = "an_unwritable_pocl_cache_is_named_with_its_fix";
    if std::env::var(CHILD).as_deref() == Ok("no-cache") {
        match opencl::context() {
            Ok(c) => println!("SKIPPED: {} needs no PoCL cache", c.device_name()),
            Err(reason) if no_opencl_at_all(reason) => println!("SKIPPED: {reason}"),
            Err(reason) => {
                assert!(reason.contains("/proc/yioop-no-home/.cache/pocl/kcache (from HOME)"), "{reason}");
                assert!(reason.contains("set POCL_CACHE_DIR"), "{reason}");
                println!("NO-CACHE-OK: {reason}");
            }
        }
        return;
    }
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    run_child_env(
        NAME,
        "no-cache",
        &[("HOME", "/proc/yioop-no-home")],
        &["POCL_CACHE_DIR", "XDG_CACHE_HOME"],
        "NO-CACHE-OK",
    );
}

#[test]
fn a_live_context_says_its_probe_passed() {
    let Some(context) = device("a_live_context_says_its_probe_passed") else { return };
    let probe = context.info().probe;
    // Other tests of this binary may have started OpenCL first, without the
    // global context: then there is no probe, and the summary says so.
    assert!(probe.starts_with("passed in ") || probe.starts_with("none (OpenCL was already started"), "{probe}");
}

// ---- whole posting lists (src/index/shard/decoded_list.rs) ----

/// A recorded shard's whole word_docs section decoded as one list on the
/// device: every posting the slices frame gets the elements the scalar
/// decode of its own bytes gives.
#[test]
fn whole_lists_decoded_on_the_device_match_each_posting_decoded_alone() {
    use yioop_codec::index::shard::decoded_list::DecodedList;
    use yioop_codec::index::shard::word_docs::WordDocs;
    use yioop_codec::index::shard::{OpenShard, ShardFile};
    let test = "whole_lists_decoded_on_the_device_match_each_posting_decoded_alone";
    if device(test).is_none() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shard/shard-0.bin");
    let header: Vec<u32> = std::fs::read(&path).unwrap()[..12].chunks(4).map(|w| u32::from_be_bytes(w.try_into().unwrap())).collect();
    let (prefixes_len, words_len, word_docs_len) = (header[0] as i64, header[1] as i64, header[2] as i64);
    let open = std::cell::RefCell::new(OpenShard::open(&path).unwrap().unwrap());
    let file = ShardFile::new(std::fs::metadata(&path).unwrap().len() as i64, &open, 1);
    let word_docs = WordDocs { file: &file, base: 40 + prefixes_len + words_len };
    let last = word_docs_len / 4 - 1;
    let list = DecodedList::decode_on_device(&word_docs, 0, last, &Dispatch::new(Mode::On, 0)).expect("decoded on the device");
    let (mut word, mut postings) = (0, 0);
    while word <= last {
        let posting = word_docs.posting_at(word).unwrap();
        let elements = list.elements(posting.start, posting.end).expect("framed as the slices frame it");
        let mut scalar = Vec::new();
        modified9::decode_words(&posting.bytes, &mut scalar);
        assert_eq!(elements, &scalar[..], "posting at word {word}");
        word = posting.end + 1;
        postings += 1;
    }
    assert!(postings > 1000, "{postings} postings");
    assert!(list.elements(1, 0).is_none(), "no posting ends before it starts");
    let off = Dispatch::new(Mode::Off, 0);
    assert!(DecodedList::decode_on_device(&word_docs, 0, last, &off).is_none(), "yioop.opencl=off keeps lists off the device");
    let short = Dispatch::new(Mode::Auto, (last + 2) as u64);
    assert!(DecodedList::decode_on_device(&word_docs, 0, last, &short).is_none(), "shorter than opencl_min_length");
}
