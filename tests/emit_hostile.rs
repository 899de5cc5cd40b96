//! Hostile code-object sources: the example sources mutated at random (lines deleted,
//! duplicated, swapped, truncated; characters replaced) and a few crafted ones never make
//! `wavejit::emit::build` panic or hang, and every error names a line of the input (or the
//! line after its last). Whatever builds must load again with `CodeObject::parse`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit::emit::build;
use wavejit::load::CodeObject;
use wavejit_testkit::root;

fn check(src: &str) {
    match build(src, None) {
        Ok(out) => {
            CodeObject::parse(&out.bytes).expect("a built object loads");
        }
        Err(e) => {
            let lines = src.lines().count() as u32;
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "line {} of {lines}: {}\n{src}",
                e.line,
                e.msg
            );
            assert!(e.col >= 1, "{}", e.msg);
        }
    }
}

#[test]
fn mutated_examples_never_panic() {
    let mut rng = StdRng::seed_from_u64(17);
    let dir = root().join("examples/codeobj");
    let mut sources = Vec::new();
    for e in std::fs::read_dir(&dir).expect("examples/codeobj") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "s") {
            sources.push(std::fs::read_to_string(p).expect("read"));
        }
    }
    assert!(sources.len() >= 3);
    const PIECES: &[&str] = &[
        ".amdhsa_kernel",
        ".end_amdhsa_kernel",
        ".amdgpu_metadata",
        ".end_amdgpu_metadata",
        "\"",
        "[",
        "{",
        ":",
        "-",
        "0x",
        "99999999999999999999999",
        "// @kernel",
        "(",
        ")",
        "*",
        ".p2align 16",
        ".size",
        "\t",
        "é",
    ];
    for round in 0..3000 {
        let src = &sources[round % sources.len()];
        let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
        for _ in 0..rng.random_range(1..4) {
            let n = lines.len();
            if n == 0 {
                break;
            }
            let i = rng.random_range(0..n);
            match rng.random_range(0..6) {
                0 => {
                    lines.remove(i);
                }
                1 => {
                    let l = lines[i].clone();
                    lines.insert(i, l);
                }
                2 => lines.swap(i, rng.random_range(0..n)),
                3 => {
                    let l = &lines[i];
                    let cut = l
                        .char_indices()
                        .map(|(j, _)| j)
                        .nth(rng.random_range(0..=l.chars().count().max(1) - 1))
                        .unwrap_or(0);
                    lines[i] = l[..cut].to_string();
                }
                4 => {
                    let p = PIECES[rng.random_range(0..PIECES.len())];
                    let l = &lines[i];
                    let at = l
                        .char_indices()
                        .map(|(j, _)| j)
                        .nth(rng.random_range(0..=l.chars().count()))
                        .unwrap_or(l.len());
                    lines[i] = format!("{}{p}{}", &l[..at], &l[at..]);
                }
                _ => lines.truncate(i),
            }
        }
        check(&(lines.join("\n") + "\n"));
    }
}

#[test]
fn crafted_inputs() {
    let deep = format!(
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\nk: s_endpgm\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n.amdgpu_metadata\na: {}\n.end_amdgpu_metadata\n",
        "[".repeat(5000)
    );
    for src in [
        "",
        "\n\n",
        ".amdgcn_target",
        ".amdgcn_target \"",
        ".amdgcn_target \"amdgcn-amd-amdhsa--\"",
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx803:xnack+:sramecc-\"",
        ".amdhsa_code_object_version 99999999999999999999999999999999999999999",
        ".amdhsa_kernel\n.end_amdhsa_kernel",
        ".end_amdhsa_kernel",
        ".amdgpu_metadata\n.end_amdgpu_metadata",
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\nk: s_endpgm\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n.amdgpu_metadata\n&a [*a]\n.end_amdgpu_metadata\n",
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\nk: s_endpgm\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.amdhsa_group_segment_fixed_size 0xffffffff\n.amdhsa_kernarg_size 4294967295\n.end_amdhsa_kernel\n// @kernel k(ulong16 a, double3 b)\n",
        ".amdgcn_target \"amdgcn-amd-amdhsa--gfx803\"\nk: s_endpgm\n.size k, k-k\n.size k, 0xffffffffffffffff\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n// @kernel k()\n",
        &deep,
    ] {
        check(src);
    }
}
