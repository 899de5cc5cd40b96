//! `wavejit draw` on the command line: files written (PNG per render target exported,
//! raw floats with `--raw`), the raw layout (W x H x 4 little-endian f32, row-major from
//! the top row, unwritten pixels = clear), and errors that name the file.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use wavejit_testkit::run_program;

const BIN: &str = env!("CARGO_BIN_EXE_wavejit");

/// `wavejit draw FLAGS… DIR/scene.json DIR/ps.s --out DIR/out`: exit code and stderr.
fn draw(d: &Path, flags: &[&str]) -> (i32, String) {
    let (scene, ps, out) = (d.join("scene.json"), d.join("ps.s"), d.join("out"));
    let mut args: Vec<&OsStr> = vec![OsStr::new("draw")];
    args.extend(flags.iter().map(OsStr::new));
    args.extend([
        scene.as_os_str(),
        ps.as_os_str(),
        OsStr::new("--out"),
        out.as_os_str(),
    ]);
    let (code, _, err) = run_program(BIN, args);
    (code, err)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-draw-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A 6x4 viewport; the triangle covers the pixels whose centre has x + y < 5 (the left
/// part); POS_X and POS_Y (SPI_PS_INPUT_ENA 0x300) reach MRT2 as (x+0.5, y+0.5, 0, 1).
const SCENE: &str = r#"{"arch": "gfx7", "width": 6, "height": 4, "clear": [0.25, 0.5, 0.75, 1.0],
  "spi_ps_input_ena": 768, "triangles": [{"v": [[0, 0], [5, 0], [0, 5]]}]}"#;
const SHADER: &str =
    "v_mov_b32 v2, 0\nv_mov_b32 v3, 1.0\nexp mrt2 v0, v1, v2, v3 done vm\ns_endpgm\n";

#[test]
fn draw_writes_png_and_raw_floats() {
    let d = scratch("ok");
    std::fs::write(d.join("scene.json"), SCENE).expect("scene");
    std::fs::write(d.join("ps.s"), SHADER).expect("shader");
    let out = d.join("out");
    for engine in ["interp", "jit", "diff"] {
        let (code, err) = draw(&d, &["--raw", "--engine", engine]);
        assert_eq!(code, 0, "{engine}: {err}");
        assert!(
            err.contains("1 triangles") && err.contains("waves"),
            "{err}"
        );
        let png = std::fs::read(out.join("mrt2.png")).expect("mrt2.png");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(
            !out.join("mrt0.png").exists(),
            "only exported targets are written"
        );
        let raw = std::fs::read(out.join("mrt2.f32")).expect("mrt2.f32");
        assert_eq!(raw.len(), 6 * 4 * 16);
        let px = |x: usize, y: usize| -> [f32; 4] {
            let at = (y * 6 + x) * 16;
            [0, 1, 2, 3].map(|c| {
                let b = &raw[at + 4 * c..at + 4 * c + 4];
                f32::from_le_bytes([b[0], b[1], b[2], b[3]])
            })
        };
        // (1, 2): centre (1.5, 2.5), x + y = 4 < 5: inside. (4, 3): (4.5, 3.5): outside.
        assert_eq!(px(1, 2), [1.5, 2.5, 0.0, 1.0], "{engine}");
        assert_eq!(px(4, 3), [0.25, 0.5, 0.75, 1.0], "{engine}: clear");
    }
}

#[test]
fn mrtz_and_formats_reach_their_files_and_other_exports_are_reported() {
    // MRTZ gets x + 0.5; MRT0 is RGBA8 UNORM: (x + 0.5, y + 0.5) clamp to 1 except where
    // they are 0.5 (x = 0 or y = 0): 0.5 × 255 = 127.5 → 128.
    let d = scratch("z");
    let scene = SCENE.replace(
        "\"spi_ps_input_ena\"",
        "\"formats\": [\"rgba8_unorm\"], \"clear_depth\": 0.125, \"spi_ps_input_ena\"",
    );
    std::fs::write(d.join("scene.json"), scene).expect("scene");
    let shader = "v_mov_b32 v3, 0\nexp mrtz v0, off, off, off\nexp mrt0 v0, v1, v3, v3\n\
                  exp param4 v0, off, off, off\nexp null off, off, off, off done vm\ns_endpgm\n";
    std::fs::write(d.join("ps.s"), shader).expect("shader");
    let out = d.join("out");
    let (code, err) = draw(&d, &["--raw"]);
    assert_eq!(code, 0, "{err}");
    // One wave (the triangle's 6 quads): one export of each kind.
    assert!(
        err.contains("exports: 1 mrt, 1 mrtz, 1 null, 0 pos, 1 param"),
        "{err}"
    );
    assert!(err.contains("go nowhere"), "{err}");
    let u8s = std::fs::read(out.join("mrt0.u8")).expect("mrt0.u8");
    assert_eq!(u8s.len(), 6 * 4 * 4);
    assert_eq!(&u8s[..4], &[128, 128, 0, 0], "(0, 0)");
    assert_eq!(&u8s[(6 + 1) * 4..(6 + 2) * 4], &[255, 255, 0, 0], "(1, 1)");
    // (5, 3) is outside: the clear colour (0.25, 0.5, 0.75, 1) → 63.75, 127.5, 191.25, 255.
    assert_eq!(&u8s[(3 * 6 + 5) * 4..], &[64, 128, 191, 255]);
    let z = std::fs::read(out.join("mrtz.f32")).expect("mrtz.f32");
    assert_eq!(z.len(), 6 * 4 * 16);
    let zx = |x: usize, y: usize| {
        let at = (y * 6 + x) * 16;
        f32::from_le_bytes([z[at], z[at + 1], z[at + 2], z[at + 3]])
    };
    assert_eq!(zx(1, 2), 1.5);
    assert_eq!(zx(5, 3), 0.125, "clear_depth outside");
    assert!(!out.join("mrtz.png").exists() && !out.join("mrt0.f32").exists());
}

#[test]
fn draw_errors_name_the_file() {
    let d = scratch("bad");
    std::fs::write(d.join("scene.json"), r#"{"arch": "gfx7", "width": 6}"#).expect("scene");
    std::fs::write(d.join("ps.s"), SHADER).expect("shader");
    let (code, err) = draw(&d, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("scene.json") && err.contains("line 1"),
        "{err}"
    );
}
