//! Code addresses seen by a kernel: the launcher loads a code object at a load base the way
//! a runtime does (code and data at base + their ELF virtual address), `s_getpc_b64`
//! returns real addresses, and `s_setpc_b64`/`s_swappc_b64` take them. The object is
//! `tests/data/launch/getpc.hsaco` (source `getpc.s`); the virtual addresses below were
//! read off `llvm-readelf-19 -S -s` of it: .text at 0x1400 (0x22c bytes), `helper` 0x1400,
//! `after_getpc` 0x1510, `after_call` 0x1534, `jump_landing` 0x1614.

use wavejit::device::{Arg, LOAD_BASE};
use wavejit_testkit::launch::{device, engines, prebuilt};

const TEXT: u64 = 0x1400;
const TEXT_LEN: u64 = 0x22c;
const AFTER_GETPC: u64 = 0x1510;
const AFTER_CALL: u64 = 0x1534;
const JUMP_LANDING: u64 = 0x1614;

#[test]
fn getpc_returns_the_loaded_address() {
    let code = prebuilt("getpc.hsaco");
    for engine in engines() {
        let mut dev = device(engine);
        let out = dev.alloc_zeroed(20).unwrap();
        for _ in 0..2 {
            dev.launch(&code, "getpc", [1, 1, 1], [1, 1, 1], &[Arg::Buffer(out)])
                .unwrap_or_else(|e| panic!("{engine}: {e}"));
            let got: Vec<u32> = dev.read_vec(out).unwrap();
            let getpc = got[0] as u64 | (got[1] as u64) << 32;
            let ret = got[2] as u64 | (got[3] as u64) << 32;
            assert_eq!(getpc, LOAD_BASE + AFTER_GETPC, "{engine}: s_getpc_b64");
            assert_eq!(ret, LOAD_BASE + AFTER_CALL, "{engine}: s_swappc_b64's link");
            assert_eq!(got[4], 5, "{engine}: the helper before the kernel ran");
        }
    }
}

/// `jump(out, target)` on a new device: `s_setpc_b64` to `target`.
fn jump(engine: &str, target: u64) -> Result<u32, String> {
    let code = prebuilt("getpc.hsaco");
    let mut dev = device(engine);
    let out = dev.alloc_zeroed(4).unwrap();
    dev.launch(
        &code,
        "jump",
        [1, 1, 1],
        [1, 1, 1],
        &[Arg::Buffer(out), Arg::U64(target)],
    )
    .map_err(|e| e.to_string())?;
    Ok(dev.read_vec::<u32>(out).unwrap()[0])
}

#[test]
fn setpc_takes_loaded_addresses() {
    for engine in engines() {
        assert_eq!(jump(engine, LOAD_BASE + JUMP_LANDING), Ok(9), "{engine}");
        // Below the code's base, or 4 GiB past it: refused by the instruction, which names
        // the whole address.
        for target in [
            0,
            JUMP_LANDING,
            LOAD_BASE + TEXT - 4,
            LOAD_BASE + JUMP_LANDING + (1 << 32),
        ] {
            let e = jump(engine, target).expect_err(engine);
            assert!(
                e.contains(&format!(
                    "s_setpc_b64 target 0x{target:x} is outside the code"
                )),
                "{engine} 0x{target:x}: {e}"
            );
        }
        // Past the end of the code: no instruction there, as for a branch.
        let past = LOAD_BASE + TEXT + TEXT_LEN + 0x100;
        let e = jump(engine, past).expect_err(engine);
        assert!(
            e.contains(&format!(
                "pc 0x{:x} is not the start of an instruction",
                TEXT_LEN + 0x100
            )),
            "{engine}: {e}"
        );
    }
}

/// Each code object launched on a device is loaded at its own base, 64 GiB (2^36 bytes)
/// after the previous one: the second object's code addresses count from there.
#[test]
fn a_second_object_gets_the_next_load_base() {
    let vadd = prebuilt("vadd-gfx803.hsaco");
    let code = prebuilt("getpc.hsaco");
    for engine in engines() {
        let mut dev = device(engine);
        let (a, b, c) = (
            dev.alloc_slice(&[1u32; 64]).unwrap(),
            dev.alloc_slice(&[2u32; 64]).unwrap(),
            dev.alloc_zeroed(4 * 64).unwrap(),
        );
        dev.launch(
            &vadd,
            "vadd",
            [64, 1, 1],
            [64, 1, 1],
            &[Arg::Buffer(a), Arg::Buffer(b), Arg::Buffer(c), Arg::U32(64)],
        )
        .unwrap_or_else(|e| panic!("{engine}: {e}"));
        let out = dev.alloc_zeroed(20).unwrap();
        dev.launch(&code, "getpc", [1, 1, 1], [1, 1, 1], &[Arg::Buffer(out)])
            .unwrap_or_else(|e| panic!("{engine}: {e}"));
        let got: Vec<u32> = dev.read_vec(out).unwrap();
        let getpc = got[0] as u64 | (got[1] as u64) << 32;
        assert_eq!(getpc, LOAD_BASE + (1 << 36) + AFTER_GETPC, "{engine}");
        assert_eq!(got[4], 5, "{engine}");
    }
}
