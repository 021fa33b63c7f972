//! Memory shared by the processes a server forks from one another.
//!
//! php-fpm and Apache's prefork start PHP's modules in their master process
//! and then fork() the workers: a mapping made at module startup is the same
//! memory in every worker (as opcache's is). A [`SharedLock`] inside it
//! orders them; it is robust, so a worker killed while holding it (fpm's
//! `request_terminate_timeout`) hands the next one a lock marked
//! `recovered` instead of leaving every other worker waiting forever.

use std::ptr::NonNull;

/// An anonymous shared mapping, zero-filled. Its pages are taken only as
/// they are first written.
pub struct SharedMemory {
    base: NonNull<u8>,
    len: usize,
}

// Reached only through raw pointers, under a SharedLock it holds.
unsafe impl Send for SharedMemory {}
unsafe impl Sync for SharedMemory {}

impl SharedMemory {
    /// `len` bytes mapped; None for 0 or where the system refuses.
    pub fn map(len: usize) -> Option<SharedMemory> {
        if len == 0 {
            return None;
        }
        let prot = libc::PROT_READ | libc::PROT_WRITE;
        let at = unsafe { libc::mmap(std::ptr::null_mut(), len, prot, libc::MAP_SHARED | libc::MAP_ANONYMOUS, -1, 0) };
        if at == libc::MAP_FAILED {
            return None;
        }
        Some(SharedMemory { base: NonNull::new(at.cast())?, len })
    }

    pub fn base(&self) -> *mut u8 {
        self.base.as_ptr()
    }

    /// Bytes mapped (never 0).
    pub fn size(&self) -> usize {
        self.len
    }
}

impl Drop for SharedMemory {
    fn drop(&mut self) {
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.len) };
    }
}

/// A process-shared, robust pthread mutex at a place in shared memory.
pub struct SharedLock(*mut libc::pthread_mutex_t);

/// The lock held; released when dropped.
pub struct Held<'a> {
    lock: &'a SharedLock,
    /// The last holder died holding it: what it guarded may be half
    /// written.
    pub recovered: bool,
}

impl SharedLock {
    /// Bytes a lock takes in shared memory.
    pub const SIZE: usize = std::mem::size_of::<libc::pthread_mutex_t>();

    /// Makes a lock at `at` (aligned, [`Self::SIZE`] bytes, in memory no
    /// process uses yet). None where the system has no such lock.
    ///
    /// # Safety
    /// `at` must stay mapped as long as the lock is used.
    pub unsafe fn init(at: *mut libc::pthread_mutex_t) -> Option<SharedLock> {
        let mut attr = std::mem::MaybeUninit::<libc::pthread_mutexattr_t>::uninit();
        if libc::pthread_mutexattr_init(attr.as_mut_ptr()) != 0 {
            return None;
        }
        let made = libc::pthread_mutexattr_setpshared(attr.as_mut_ptr(), libc::PTHREAD_PROCESS_SHARED) == 0
            && libc::pthread_mutexattr_setrobust(attr.as_mut_ptr(), libc::PTHREAD_MUTEX_ROBUST) == 0
            && libc::pthread_mutex_init(at, attr.as_ptr()) == 0;
        libc::pthread_mutexattr_destroy(attr.as_mut_ptr());
        made.then_some(SharedLock(at))
    }

    /// Waits for the lock. None where it cannot be had (a holder died and
    /// the one who found it could not make it consistent again).
    pub fn lock(&self) -> Option<Held<'_>> {
        match unsafe { libc::pthread_mutex_lock(self.0) } {
            0 => Some(Held { lock: self, recovered: false }),
            libc::EOWNERDEAD => {
                unsafe { libc::pthread_mutex_consistent(self.0) };
                Some(Held { lock: self, recovered: true })
            }
            _ => None,
        }
    }
}

unsafe impl Send for SharedLock {}
unsafe impl Sync for SharedLock {}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        unsafe { libc::pthread_mutex_unlock(self.lock.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock_in(memory: &SharedMemory) -> SharedLock {
        unsafe { SharedLock::init(memory.base().cast()) }.unwrap()
    }

    #[test]
    fn a_mapping_is_shared_with_a_forked_child() {
        let memory = SharedMemory::map(4096).unwrap();
        let lock = lock_in(&memory);
        let counter = unsafe { memory.base().add(64).cast::<u64>() };
        let child = unsafe { libc::fork() };
        if child == 0 {
            let held = lock.lock();
            unsafe { *counter += 41 };
            drop(held);
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(child, &mut status, 0) };
        let held = lock.lock().unwrap();
        unsafe { *counter += 1 };
        assert!(!held.recovered);
        assert_eq!(unsafe { *counter }, 42, "the child's write is seen");
    }

    #[test]
    fn a_lock_whose_holder_died_is_had_again_marked_recovered() {
        let memory = SharedMemory::map(4096).unwrap();
        let lock = lock_in(&memory);
        let child = unsafe { libc::fork() };
        if child == 0 {
            std::mem::forget(lock.lock()); // dies holding it
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        unsafe { libc::waitpid(child, &mut status, 0) };
        let held = lock.lock().expect("not left locked forever");
        assert!(held.recovered);
        drop(held);
        assert!(!lock.lock().unwrap().recovered, "consistent again after");
    }

    #[test]
    fn nothing_is_mapped_for_zero_bytes() {
        assert!(SharedMemory::map(0).is_none());
    }
}
