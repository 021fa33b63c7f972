//! From what a probe saw to the reason phpinfo shows: the cause first, with
//! its fix where this environment tells it, then what happened, then the
//! driver's own words.
//!
//! The known causes are PoCL's (the CPU driver Debian ships): it keeps a
//! kernel cache under `$POCL_CACHE_DIR`, else `$XDG_CACHE_HOME/pocl/kcache`,
//! else `$HOME/.cache/pocl/kcache`, and reports no device when it cannot
//! create that; and it links each kernel with `ld`, found on `PATH`, at its
//! first launch, aborting the process when there is none. php-fpm runs
//! workers with `HOME` set to the pool user's home (`/var/www` for www-data,
//! not writable) and, by default (`clear_env = yes`), no `PATH`.

use super::base::flatten;
use super::probe::{Ending, Probe};
use anyhow::anyhow;
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

const POCL: &str = "Portable Computing Language";
/// The longest excerpt of the driver's output in a reason.
const MAX_EXCERPT: usize = 400;

/// The facts of this process that explain the known failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// `PATH`, if set.
    pub path: Option<OsString>,
    /// Whether an executable `ld` is on `PATH`.
    pub ld_on_path: bool,
    /// The directory PoCL keeps its kernel cache in, and the variable it
    /// followed.
    pub pocl_cache: PathBuf,
    pub pocl_cache_from: &'static str,
    /// Whether this user can create or write `pocl_cache`.
    pub pocl_cache_writable: bool,
    /// This process's user, by name where known.
    pub user: String,
}

impl Environment {
    pub fn of_this_process() -> Environment {
        let path = std::env::var_os("PATH");
        let (pocl_cache, pocl_cache_from) = pocl_cache_dir(|name| std::env::var_os(name));
        Environment {
            ld_on_path: path.as_deref().is_some_and(|p| on_path(p, "ld")),
            path,
            pocl_cache_writable: can_create_or_write(&pocl_cache),
            pocl_cache,
            pocl_cache_from,
            user: user_name(),
        }
    }
}

/// PoCL's choice of kernel cache directory, and the variable that made it.
pub fn pocl_cache_dir(var: impl Fn(&str) -> Option<OsString>) -> (PathBuf, &'static str) {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    if let Some(dir) = set("POCL_CACHE_DIR") {
        (PathBuf::from(dir), "POCL_CACHE_DIR")
    } else if let Some(dir) = set("XDG_CACHE_HOME") {
        (Path::new(&dir).join("pocl/kcache"), "XDG_CACHE_HOME")
    } else if let Some(home) = var("HOME") {
        (Path::new(&home).join(".cache/pocl/kcache"), "HOME")
    } else {
        (PathBuf::from("/tmp/pocl/kcache"), "no HOME")
    }
}

fn on_path(path: &std::ffi::OsStr, program: &str) -> bool {
    std::env::split_paths(path).filter(|dir| !dir.as_os_str().is_empty()).any(|dir| {
        let candidate = dir.join(program);
        executable(&candidate)
    })
}

fn executable(path: &Path) -> bool {
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else { return false };
    path.is_file() && unsafe { libc::access(c_path.as_ptr(), libc::X_OK) } == 0
}

/// Whether this user can write `dir`, or create it under its nearest
/// existing ancestor as PoCL does (`mkdir -p`). Tried with a directory made
/// and removed at once: `access()` tells root yes even on /proc.
fn can_create_or_write(dir: &Path) -> bool {
    let existing = dir.ancestors().find(|a| a.exists()).unwrap_or(Path::new("/"));
    let trial = existing.join(format!(".yioop-write-check-{}", std::process::id()));
    let made = std::fs::create_dir(&trial).is_ok();
    if made {
        let _ = std::fs::remove_dir(&trial);
    }
    made
}

fn user_name() -> String {
    let uid = unsafe { libc::geteuid() };
    let entry = unsafe { libc::getpwuid(uid) };
    if entry.is_null() {
        return format!("uid {uid}");
    }
    let name = unsafe { std::ffi::CStr::from_ptr((*entry).pw_name) };
    name.to_string_lossy().into_owned()
}

/// Ok if the probe passed; else the reason, cause and fix first.
pub fn verdict(probe: &Probe, env: &Environment, limit: Duration) -> anyhow::Result<()> {
    let happened = match &probe.ending {
        Ending::Passed => return Ok(()),
        Ending::NotStarted(why) => return Err(anyhow!("cannot start the OpenCL probe: {why}")),
        Ending::Failed(chain) => chain.clone(),
        Ending::Signal(signal) => format!("the driver {} {}", death(*signal), during(probe)),
        Ending::Exit(code) => format!("the driver exited (status {code}) {}", during(probe)),
        Ending::TimedOut(_) => format!(
            "the OpenCL probe did not finish within {} s: the driver hung {}, or its first \
             build is slower than that (raise yioop.opencl_probe_timeout)",
            limit.as_secs_f64(),
            during(probe)
        ),
    };
    let mut error = match excerpt(&probe.output) {
        Some(said) => anyhow!("driver output: {said}").context(happened),
        None => anyhow!(happened),
    };
    if let Some(cause) = cause(probe, env) {
        error = error.context(cause);
    }
    Err(error.context("OpenCL probe failed, this process runs scalar"))
}

fn death(signal: i32) -> String {
    match signal {
        libc::SIGABRT => "aborted (SIGABRT)".into(),
        libc::SIGSEGV => "crashed (SIGSEGV)".into(),
        libc::SIGBUS => "crashed (SIGBUS)".into(),
        libc::SIGILL => "crashed (SIGILL)".into(),
        libc::SIGFPE => "crashed (SIGFPE)".into(),
        libc::SIGKILL => "was killed (SIGKILL; out of memory?)".into(),
        other => format!("was killed by signal {other}"),
    }
}

fn during(probe: &Probe) -> String {
    match &probe.stage {
        Some(stage) => format!("during {stage}"),
        None => "before it started".into(),
    }
}

/// A known cause with its fix, where the environment shows one.
fn cause(probe: &Probe, env: &Environment) -> Option<String> {
    let pocl = probe.platforms.iter().any(|p| p == POCL);
    let no_device = matches!(&probe.ending, Ending::Failed(chain) if chain.contains("no OpenCL device"));
    // PoCL 3 links kernels at their first launch, PoCL 6 while building the
    // program (where a device that never came up fails too, for its cache).
    let stage = probe.stage.as_deref().unwrap_or("");
    let links = stage.contains("first launch") || (stage.contains("building the program") && !no_device);
    if pocl && links && !env.ld_on_path {
        let path = match &env.path {
            Some(p) if !p.is_empty() => format!("PATH={}", p.to_string_lossy()),
            Some(_) => "PATH is empty".into(),
            None => "PATH is not set".into(),
        };
        return Some(format!(
            "PoCL could not link kernels: no `ld` on PATH ({path}; php-fpm clears the \
             environment: add `env[PATH] = /usr/bin:/bin` to the pool)"
        ));
    }
    if pocl && no_device && !env.pocl_cache_writable {
        return Some(format!(
            "PoCL's kernel cache directory {} (from {}) is not writable by user {}: set \
             POCL_CACHE_DIR to a directory this user owns (php-fpm: add \
             `env[POCL_CACHE_DIR] = /var/cache/yioop-pocl` to the pool and create it for the \
             pool's user)",
            env.pocl_cache.display(),
            env.pocl_cache_from,
            env.user
        ));
    }
    None
}

/// The driver's most telling lines: those that say error, else the last one.
fn excerpt(output: &str) -> Option<String> {
    let lines: Vec<&str> = output.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let errors: Vec<&str> =
        lines.iter().copied().filter(|l| l.to_ascii_lowercase().contains("error")).collect();
    let chosen = if errors.is_empty() { lines.last().copied().into_iter().collect() } else { errors };
    if chosen.is_empty() {
        return None;
    }
    let mut unique: Vec<&str> = Vec::new();
    for line in chosen {
        if !unique.contains(&line) {
            unique.push(line);
        }
    }
    let text = flatten(&unique.join(" / "));
    Some(match text.char_indices().nth(MAX_EXCERPT) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::opencl::base::one_line;

    fn env(ld: bool, cache_writable: bool) -> Environment {
        Environment {
            path: Some(if ld { "/usr/bin:/bin".into() } else { OsString::new() }),
            ld_on_path: ld,
            pocl_cache: PathBuf::from("/var/www/.cache/pocl/kcache"),
            pocl_cache_from: "HOME",
            pocl_cache_writable: cache_writable,
            user: "www-data".into(),
        }
    }

    fn probe(ending: Ending, stage: &str, output: &str) -> Probe {
        Probe {
            ending,
            stage: Some(stage.into()),
            platforms: vec![POCL.into()],
            output: output.into(),
            took: Duration::from_millis(300),
        }
    }

    fn reason(p: &Probe, e: &Environment) -> String {
        one_line(&verdict(p, e, Duration::from_secs(60)).unwrap_err())
    }

    #[test]
    fn an_abort_at_first_launch_without_ld_names_path_and_the_pool_fix() {
        let output = "error: unable to execute command: Executable \"ld\" doesn't exist!\n\
                      Final linking of kernel m9_tile_counts failed.\n";
        let p = probe(Ending::Signal(libc::SIGABRT), "the first launch of the decode kernels", output);
        let text = reason(&p, &env(false, true));
        assert!(text.starts_with("OpenCL probe failed, this process runs scalar: PoCL could not link kernels: no `ld` on PATH (PATH is empty;"), "{text}");
        assert!(text.contains("env[PATH] = /usr/bin:/bin"), "{text}");
        assert!(text.contains("aborted (SIGABRT) during the first launch of the decode kernels"), "{text}");
        assert!(text.contains("Executable \"ld\" doesn't exist"), "{text}");
        assert!(!text.contains('\n'));
    }

    #[test]
    fn pocl_6_links_while_building_and_gets_the_same_cause() {
        let output = "error: unable to execute command: Executable \"ld\" doesn't exist!\n\
                      error: linker command failed with exit code 1 (use -v to see invocation)\n";
        let p = probe(Ending::Signal(libc::SIGABRT), "building the program", output);
        let text = reason(&p, &env(false, true));
        assert!(text.contains("PoCL could not link kernels: no `ld` on PATH"), "{text}");
        assert!(text.contains("aborted (SIGABRT) during building the program"), "{text}");
        assert!(!reason(&p, &env(true, true)).contains("no `ld` on PATH"));
        // No device at all (an unwritable kernel cache) is that cause, not ld.
        let failed = Ending::Failed("no OpenCL device available on platform(s): Portable Computing Language".into());
        let text = reason(&probe(failed, "building the program", ""), &env(false, false));
        assert!(text.contains("POCL_CACHE_DIR") && !text.contains("no `ld` on PATH"), "{text}");
    }

    #[test]
    fn the_same_abort_with_ld_on_path_names_no_path_cause() {
        let p = probe(Ending::Signal(libc::SIGABRT), "the first launch of the decode kernels", "boom");
        let text = reason(&p, &env(true, true));
        assert!(!text.contains("PATH"), "{text}");
        assert!(text.contains("aborted (SIGABRT)") && text.contains("driver output: boom"), "{text}");
    }

    #[test]
    fn no_device_with_an_unwritable_cache_names_pocl_cache_dir() {
        let failed = Ending::Failed("no OpenCL device available on platform(s): Portable Computing Language".into());
        let text = reason(&probe(failed.clone(), "building the program", ""), &env(true, false));
        assert!(text.contains("/var/www/.cache/pocl/kcache (from HOME) is not writable by user www-data"), "{text}");
        assert!(text.contains("env[POCL_CACHE_DIR]"), "{text}");
        assert!(text.ends_with("no OpenCL device available on platform(s): Portable Computing Language"), "{text}");
        // A writable cache is not blamed.
        assert!(!reason(&probe(failed, "building the program", ""), &env(true, true)).contains("POCL_CACHE_DIR"));
    }

    #[test]
    fn hangs_and_crashes_say_what_and_where() {
        let hung = reason(&probe(Ending::TimedOut(Duration::from_secs(60)), "the first launch of the delta kernels", ""), &env(true, true));
        assert!(hung.contains("did not finish within 60 s: the driver hung during the first launch of the delta kernels"), "{hung}");
        assert!(hung.contains("yioop.opencl_probe_timeout"), "{hung}");
        let crashed = reason(&probe(Ending::Signal(libc::SIGSEGV), "building the program", "x\nsegfault at 0\n"), &env(true, true));
        assert!(crashed.contains("crashed (SIGSEGV) during building the program: driver output: segfault at 0"), "{crashed}");
        let passed = probe(Ending::Passed, "the first launch of the delta kernels", "");
        assert!(verdict(&passed, &env(false, false), Duration::from_secs(1)).is_ok());
    }

    #[test]
    fn pocl_cache_dir_follows_pocls_order() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
        };
        const ALL: &[(&str, &str)] = &[("POCL_CACHE_DIR", "/c"), ("XDG_CACHE_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(pocl_cache_dir(vars(ALL)), (PathBuf::from("/c"), "POCL_CACHE_DIR"));
        assert_eq!(pocl_cache_dir(vars(&ALL[1..])), (PathBuf::from("/x/pocl/kcache"), "XDG_CACHE_HOME"));
        assert_eq!(pocl_cache_dir(vars(&[("XDG_CACHE_HOME", ""), ("HOME", "/h")])), (PathBuf::from("/h/.cache/pocl/kcache"), "HOME"));
        assert_eq!(pocl_cache_dir(vars(&[])), (PathBuf::from("/tmp/pocl/kcache"), "no HOME"));
    }

    #[test]
    fn writability_is_judged_on_the_nearest_existing_ancestor() {
        let dir = std::env::temp_dir().join(format!("yioop-diag-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(can_create_or_write(&dir.join("a/b/c")));
        assert!(!can_create_or_write(Path::new("/proc/yioop/kcache")), "/proc takes no new directories");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
