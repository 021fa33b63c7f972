//! Runs a job in a short-lived child process under a time limit, so that a
//! driver that aborts, crashes or hangs takes only the child down.
//!
//! fork() without exec: the caller has not started OpenCL yet (a child
//! forked after that would hang in the driver), and the child calls nothing
//! of PHP's: it resets the signals PHP or php-fpm handle, closes every
//! inherited descriptor (a FastCGI socket, a client connection), runs the
//! job and leaves with `_exit`, so no atexit handler or PHP shutdown runs.
//! The child reports the steps it starts on one pipe and the driver's own
//! output (its stdout and stderr) comes back on another.

use super::base::{one_line, panic_text};
use std::ffi::c_int;
use std::time::{Duration, Instant};

/// The child's descriptor for its reports.
const REPORT_FD: c_int = 3;
/// The most driver output kept (its end).
const OUTPUT_KEPT: usize = 16 << 10;

/// What the child tells its parent, a line each.
pub struct Reporter {
    fd: c_int,
}

impl Reporter {
    /// The job starts this step (named in the reason if it dies in it).
    pub fn stage(&self, what: &str) {
        self.line("stage", what);
    }

    /// An OpenCL platform the child found.
    pub fn platform(&self, name: &str) {
        self.line("platform", name);
    }

    fn line(&self, kind: &str, text: &str) {
        let line = format!("{kind} {}\n", text.replace('\n', " "));
        write_all(self.fd, line.as_bytes());
    }
}

/// How the child ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The job returned Ok.
    Passed,
    /// The job returned this error (its chain in one line).
    Failed(String),
    /// Killed by this signal (an abort, a crash).
    Signal(i32),
    /// Exited with this code without saying how the job went.
    Exit(i32),
    /// Still running at the limit: killed.
    TimedOut(Duration),
    /// No child: fork or pipe failed.
    NotStarted(String),
}

/// What a probe saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    pub ending: Ending,
    /// The last step the child started.
    pub stage: Option<String>,
    /// The platforms the child found.
    pub platforms: Vec<String>,
    /// The end of what the child wrote to stdout and stderr.
    pub output: String,
    pub took: Duration,
}

/// Runs `job` in a forked child, killed if still running after `limit`.
pub fn run_in_child(limit: Duration, job: fn(&Reporter) -> anyhow::Result<()>) -> Probe {
    let started = Instant::now();
    let (Some(report), Some(output)) = (Pipe::new(), Pipe::new()) else {
        return not_started("cannot make a pipe", started);
    };
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return not_started("fork failed", started);
    }
    if pid == 0 {
        child(report.write, output.write, job);
    }
    report.close_write();
    output.close_write();
    let deadline = started + limit;
    let (reports, output_text) = read_both(report.read, output.read, deadline);
    let status = reap(pid, deadline);
    let mut probe = Probe {
        ending: Ending::Passed,
        stage: None,
        platforms: Vec::new(),
        output: output_text,
        took: started.elapsed(),
    };
    let verdict = parse_reports(&reports, &mut probe);
    probe.ending = ending(status, verdict, limit);
    probe
}

fn not_started(what: &str, started: Instant) -> Probe {
    let error = std::io::Error::last_os_error();
    Probe {
        ending: Ending::NotStarted(format!("{what}: {error}")),
        stage: None,
        platforms: Vec::new(),
        output: String::new(),
        took: started.elapsed(),
    }
}

/// The child: a clean slate, the job, `_exit`. Never returns.
fn child(report: c_int, output: c_int, job: fn(&Reporter) -> anyhow::Result<()>) -> ! {
    unsafe {
        reset_signals();
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        libc::dup2(null, 0);
        libc::dup2(output, 1);
        libc::dup2(output, 2);
        libc::dup2(report, REPORT_FD);
        libc::close_range(REPORT_FD as u32 + 1, u32::MAX, 0);
    }
    let reporter = Reporter { fd: REPORT_FD };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&reporter)));
    let (line, code) = match outcome {
        Ok(Ok(())) => ("ok".to_string(), 0),
        Ok(Err(e)) => (format!("error {}", one_line(&e)), 1),
        Err(payload) => (format!("error panic: {}", panic_text(&payload)), 1),
    };
    write_all(REPORT_FD, format!("{line}\n").as_bytes());
    unsafe { libc::_exit(code) }
}

/// Default handling for every signal a driver may die of or PHP handles,
/// none blocked: the parent then sees the real cause of a death.
unsafe fn reset_signals() {
    for signal in 1..32 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            libc::signal(signal, libc::SIG_DFL);
        }
    }
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
}

struct Pipe {
    read: c_int,
    write: c_int,
}

impl Pipe {
    fn new() -> Option<Pipe> {
        let mut fds = [0 as c_int; 2];
        let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == 0;
        made.then_some(Pipe { read: fds[0], write: fds[1] })
    }

    fn close_write(&self) {
        unsafe { libc::close(self.write) };
    }
}

fn write_all(fd: c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            return;
        }
        bytes = &bytes[n as usize..];
    }
}

/// Reads both pipes until both are closed or the deadline passes; closes
/// them. Gives the reports and the end of the output.
fn read_both(report: c_int, output: c_int, deadline: Instant) -> (String, String) {
    let mut fds = [
        libc::pollfd { fd: report, events: libc::POLLIN, revents: 0 },
        libc::pollfd { fd: output, events: libc::POLLIN, revents: 0 },
    ];
    let mut texts = [Vec::new(), Vec::new()];
    while fds.iter().any(|p| p.fd >= 0) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, left.as_millis().max(1) as c_int) };
        if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break;
        }
        for (p, text) in fds.iter_mut().zip(texts.iter_mut()) {
            if p.fd >= 0 && p.revents != 0 && !read_some(p.fd, text) {
                unsafe { libc::close(p.fd) };
                p.fd = -1;
            }
        }
    }
    for p in fds.iter().filter(|p| p.fd >= 0) {
        unsafe { libc::close(p.fd) };
    }
    let [reports, output] = texts;
    (String::from_utf8_lossy(&reports).into_owned(), String::from_utf8_lossy(&output).into_owned())
}

/// One read into `text`, keeping its last OUTPUT_KEPT bytes; false at the
/// end of the pipe.
fn read_some(fd: c_int, text: &mut Vec<u8>) -> bool {
    let mut buf = [0u8; 4096];
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        return std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted;
    }
    text.extend_from_slice(&buf[..n as usize]);
    if text.len() > OUTPUT_KEPT {
        text.drain(..text.len() - OUTPUT_KEPT);
    }
    n > 0
}

/// The child's wait status, or None if it was still running at the
/// deadline (then it is killed and reaped). Polls, so that a child that
/// closed its pipes but hangs cannot hold the caller past the deadline.
fn reap(pid: libc::pid_t, deadline: Instant) -> Option<c_int> {
    loop {
        let mut status = 0;
        let got = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if got == pid {
            return Some(status);
        }
        if got < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return Some(0); // reaped by someone else (SIGCHLD ignored): the reports tell
        }
        if Instant::now() >= deadline {
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Fills in the stage and platforms; gives the job's own verdict, if the
/// child got as far as writing one.
fn parse_reports(reports: &str, probe: &mut Probe) -> Option<Result<(), String>> {
    let mut verdict = None;
    for line in reports.lines() {
        let (kind, text) = line.split_once(' ').unwrap_or((line, ""));
        match kind {
            "stage" => probe.stage = Some(text.to_string()),
            "platform" => probe.platforms.push(text.to_string()),
            "ok" => verdict = Some(Ok(())),
            "error" => verdict = Some(Err(text.to_string())),
            _ => {}
        }
    }
    verdict
}

fn ending(status: Option<c_int>, verdict: Option<Result<(), String>>, limit: Duration) -> Ending {
    let Some(status) = status else {
        return Ending::TimedOut(limit);
    };
    if libc::WIFSIGNALED(status) {
        return Ending::Signal(libc::WTERMSIG(status));
    }
    match verdict {
        Some(Ok(())) => Ending::Passed,
        Some(Err(chain)) => Ending::Failed(chain),
        None => Ending::Exit(if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 }),
    }
}
