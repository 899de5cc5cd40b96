//! Benchmarks: the fixed kernel suite of `bench/kernels/` run on the
//! interpreter, the JIT and the tiered engine, against native Rust baselines, on one and on
//! all host cores — what `wavejit bench` and the criterion benches measure.
//!
//! Layout: `clock` (what times are measured on), `suite` (the kernels, their sizes and states), `native` (the native Rust
//! baselines, also the reference of three kernels), `reference` (the independent
//! computations of the other kernels), `engines` (running a kernel on an engine, the
//! lds_matmul grid, lane-operation counts), `measure` (timing everything), `report` (JSON
//! schema, targets, table, Markdown), `svg` (the plot), `real` (OpenCL C kernels built by
//! clang-19 and launched through the `Device`).

pub mod clock;
pub mod draw;
pub mod engines;
pub mod measure;
pub mod native;
pub mod real;
pub mod reference;
pub mod report;
pub mod suite;
pub mod svg;

pub use measure::{run, Options};
pub use report::Report;
