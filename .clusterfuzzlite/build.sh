#!/bin/bash -eu
# Build wavejit's cargo-fuzz targets for ClusterFuzzLite / OSS-Fuzz and copy them to
# $OUT. fuzz/ is its own Cargo workspace, so its binaries are under fuzz/target.
# `-O` optimises (the targets run the interpreter and the Cranelift JIT: an unoptimised
# build is ~20x slower); `--debug-assertions` keeps integer overflow checks, which have
# found real interpreter bugs. Run in fuzz/, cargo reads fuzz/.cargo/config.toml: its rustc
# wrapper builds third-party crates (Cranelift, ...) without coverage instrumentation and
# debug assertions (fuzz/README.md, "What is instrumented").
cd "$SRC/wavejit/fuzz"
cargo fuzz build -O --debug-assertions
out_dir=target/x86_64-unknown-linux-gnu/release
for t in decode_diff gen_diff asm_text; do
    cp "$out_dir/$t" "$OUT/"
done
