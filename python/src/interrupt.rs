//! Running long work with the GIL released while staying responsive to Ctrl-C.
//!
//! Python delivers signals only to its main thread, and only when that thread runs Python
//! code or calls `PyErr_CheckSignals`. So the work runs on a worker thread, and the calling
//! thread waits for it in short slices with the GIL released, checking for signals between
//! slices. What a signal does depends on the work: a launch is stopped through the device's
//! cancel token (between workgroups); a single-wave run, which has no cancel point, is left
//! to finish its bounded budget on its own while the caller gets `KeyboardInterrupt` at once.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use pyo3::panic::PanicException;
use pyo3::prelude::*;

/// How long the caller waits with the GIL released before it looks for a signal again.
const SLICE: Duration = Duration::from_millis(20);

/// What waiting for a worker ended with.
enum Waited<T> {
    Done(T),
    /// The worker ended without sending a result.
    Gone,
    /// A signal handler raised (KeyboardInterrupt, or whatever the handler raised).
    Signal(PyErr),
}

/// Wait for the worker's result in slices, checking signals between them (unless
/// `check` is false).
fn wait<T: Send>(py: Python<'_>, mut rx: Receiver<T>, check: bool) -> (Waited<T>, Receiver<T>) {
    loop {
        let (back, r) = py.detach(move || {
            let r = rx.recv_timeout(SLICE);
            (rx, r)
        });
        rx = back;
        match r {
            Ok(v) => return (Waited::Done(v), rx),
            Err(RecvTimeoutError::Disconnected) => return (Waited::Gone, rx),
            Err(RecvTimeoutError::Timeout) => {}
        }
        if check {
            if let Err(e) = py.check_signals() {
                return (Waited::Signal(e), rx);
            }
        }
    }
}

fn panicked() -> PyErr {
    PanicException::new_err("wavejit failed internally (a panic on its worker thread); please report the input that caused it")
}

/// Run `f` on a scoped worker thread with the GIL released. On a signal, set `cancel`,
/// wait for `f` to return (it checks the flag), clear the flag and raise the signal's
/// exception.
pub fn run_cancellable<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        s.spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
        });
        let r = match wait(py, rx, true) {
            (Waited::Done(Ok(v)), _) => Ok(v),
            (Waited::Done(Err(_)) | Waited::Gone, _) => Err(panicked()),
            (Waited::Signal(e), rx) => {
                cancel.store(true, Ordering::SeqCst);
                // The result (a cancellation error) is dropped: the signal's exception wins.
                let _ = wait(py, rx, false);
                Err(e)
            }
        };
        cancel.store(false, Ordering::SeqCst);
        r
    })
}

/// Run `f` on a thread of its own with the GIL released. On a signal, raise the signal's
/// exception at once and let `f` run to its end unobserved (`f` must be bounded).
pub fn run_detached<T: Send + 'static>(
    py: Python<'_>,
    f: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("wavejit-run".into())
        .spawn(move || {
            let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
        })
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("cannot start a thread: {e}")))?;
    match wait(py, rx, true).0 {
        Waited::Done(Ok(v)) => Ok(v),
        Waited::Done(Err(_)) | Waited::Gone => Err(panicked()),
        Waited::Signal(e) => Err(e),
    }
}
