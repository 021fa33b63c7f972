//! What every module of the folder shares, at the bottom so that none of
//! them needs another for it: a lock that outlives a panic, and errors and
//! panics as the one line phpinfo shows.

use std::sync::{Mutex, MutexGuard};

/// The longest reason shown.
const MAX_REASON: usize = 1200;

/// Poisoning ignored: a device call that panicked is caught and reported
/// as an error, and must not take OpenCL down for the rest of the process.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// An error chain in one line, outermost first: what phpinfo shows.
pub(super) fn one_line(error: &anyhow::Error) -> String {
    flatten(&format!("{error:#}"))
}

/// Whitespace runs (newlines of build logs included) as single spaces,
/// clipped to a length phpinfo can show.
pub(super) fn flatten(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.char_indices().nth(MAX_REASON) {
        Some((cut, _)) => format!("{}...", &joined[..cut]),
        None => joined,
    }
}

/// The message of a caught panic, where it has one.
pub(super) fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_show_in_one_clipped_line() {
        let e = anyhow::anyhow!("build log:\nline 1\n\tline 2").context("outer");
        assert_eq!(one_line(&e), "outer: build log: line 1 line 2");
        assert!(flatten(&"x ".repeat(5000)).ends_with("..."));
    }
}
