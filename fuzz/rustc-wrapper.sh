#!/bin/sh
# The rustc wrapper of the cargo-fuzz build (.cargo/config.toml names it): wavejit's own
# crates and the fuzz targets are compiled as cargo-fuzz asks; every other crate
# (Cranelift, regalloc2, hashbrown, ...) without sanitizer-coverage instrumentation and
# without debug assertions or overflow checks. Coverage then guides the fuzzer through
# wavejit's decoder, interpreter, JIT lowering and program generator, and libFuzzer no
# longer traces every comparison inside Cranelift's compiler nor collects its edges after
# each input; regalloc2 no longer validates its allocator at every step. Those were most
# of the time of a run (see README.md). Sanitizers (-Zsanitizer) are left on everywhere.
rustc="$1"
shift
ours=false
prev=
for a in "$@"; do
    case "$prev" in
    --crate-name)
        case "$a" in wavejit*) ours=true ;; esac
        ;;
    esac
    case "$a" in fuzz_targets/*.rs | */fuzz_targets/*.rs) ours=true ;; esac
    prev="$a"
done
if [ "$ours" = true ]; then
    exec "$rustc" "$@"
fi
# Rebuild the argument list without the instrumentation and assertion flags.
for a in "$@"; do
    shift
    case "$a" in
    -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-*) continue ;;
    -Cdebug-assertions | -Cdebug-assertions=* | -Coverflow[-_]checks | -Coverflow[-_]checks=*) continue ;;
    esac
    set -- "$@" "$a"
done
exec "$rustc" "$@"
