//! Leaving the process at once, without the C runtime's exit-time teardown.
//!
//! `std::process::exit` runs the C library's `atexit` handlers and static destructors, libtorch's
//! among them; a network thread still in a forward pass then panics or segfaults. END must leave
//! within half a second whatever runs, so the brain flushes what it owes and calls `_exit`, which
//! ends the process (all threads) with nothing else run.
use std::io::Write;

extern "C" {
    // POSIX `_exit`; the Microsoft C runtime (which mingw links) has the same function.
    fn _exit(status: i32) -> !;
}

/// Flushes stdout and stderr, then ends the process with `code` at once.
pub fn now(code: i32) -> ! {
    let _ = std::io::stdout().lock().flush();
    let _ = std::io::stderr().lock().flush();
    // SAFETY: `_exit` takes any status and never returns; everything that must reach the
    // manager was flushed above, and nothing else needs to run.
    unsafe { _exit(code) }
}
