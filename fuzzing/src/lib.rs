//! Differential fuzzing: random programs from the table-driven generator
//! (`wavejit_isa::progen`) run in the reference interpreter and in a second engine (the
//! JIT), and the whole final states are compared bit for bit. A mismatch is minimised and
//! written as a reproducer that `wavejit run --engine diff` replays.
//!
//! - `engine` — the engines behind one trait (interpreter, JIT, the self-test's planted bugs);
//! - `heap` — the allocator kept from returning freed state copies to the OS;
//! - `case` — a case (program + state) and running it safely (panics caught);
//! - `compare` — the bit-for-bit comparison, naming each differing register and lane;
//! - `probe` — which table rows the interpreter implements (the generator's pool);
//! - `minimise` — shrinking a mismatching case;
//! - `repro` — reproducer files;
//! - `target` — one-shot entry points of the cargo-fuzz targets;
//! - `campaign` — many programs on many threads, the summary, the self-test.
//!
//! Program `i` of a campaign with seed `s` is a function of `(s, i)` alone, so a campaign
//! finds the same mismatches whatever `--jobs` says, and a mismatch can be regenerated
//! from its index. Each program runs from several initial states (`--states`; state `k`
//! a function of `(s, i, k)`): compiling is most of a program's cost, and the code
//! compiled once meets every state.

pub mod campaign;
pub mod case;
pub mod compare;
pub mod engine;
pub mod heap;
pub mod minimise;
pub mod probe;
pub mod repro;
pub mod target;

pub use campaign::{
    run, self_test, self_test_ok, Against, Config, Found, SelfTest, Summary, MAX_SELF_TEST_LEN,
};
