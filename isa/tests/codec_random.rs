//! Random words: for each generation, any dword sequence either fails to decode with a
//! typed error at offset 0, or decodes to an instruction whose encoding is exactly the
//! words it consumed and decodes back to the same instruction. 20,000 sequences per
//! generation here; 1,000,000 per generation in the ignored test (run it with
//! `cargo test --release -p wavejit-isa --test codec_random -- --ignored`).
//!
//! Half of the first dwords carry a random encoding tag, so that every encoding (not only
//! VOP2, which takes half of all dwords) is exercised.

mod codec_util;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wavejit_isa::error::DecodeErrorKind;
use wavejit_isa::gcn::{decode, encode};
use wavejit_isa::Gen;

/// A first dword: random, or random with a tag and a VOP1/VOP2/VOPC SRC0 that asks for
/// SDWA/DPP now and then.
fn first_word(rng: &mut StdRng) -> u32 {
    let w: u32 = rng.random();
    if rng.random_bool(0.5) {
        return w;
    }
    let (m, v) = codec_util::TAGS[rng.random_range(0..codec_util::TAGS.len())];
    let mut w = (w & !m) | v;
    if w >> 31 == 0 && rng.random_bool(0.3) {
        w = (w & !0x1FF) | if rng.random_bool(0.5) { 0xF9 } else { 0xFA };
    }
    w
}

struct Tally {
    ok: u64,
    errors: std::collections::BTreeMap<String, u64>,
}

fn run(gen: Gen, n: u64, seed: u64) -> Tally {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut t = Tally {
        ok: 0,
        errors: Default::default(),
    };
    for i in 0..n {
        let words = [first_word(&mut rng), rng.random(), rng.random()];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        match decode(gen, &bytes, 0) {
            Ok((inst, size)) => {
                assert!(
                    size == 4 || size == 8,
                    "#{i} {gen} {words:08x?}: size {size}"
                );
                let used = &words[..size as usize / 4];
                let back = encode(gen, &inst).unwrap_or_else(|e| {
                    panic!("#{i} {gen} {words:08x?}: {inst:?} does not encode: {e}")
                });
                assert_eq!(
                    back, used,
                    "#{i} {gen} {words:08x?}: {inst:?} encodes differently"
                );
                let (again, size2) = decode(gen, &bytes[..size as usize], 0)
                    .unwrap_or_else(|e| panic!("#{i} {gen} {words:08x?}: re-decode: {e}"));
                assert_eq!((again, size2), (inst, size), "#{i} {gen} {words:08x?}");
                t.ok += 1;
            }
            Err(e) => {
                assert_eq!(e.offset, 0);
                // Three dwords are more than any instruction needs.
                assert!(
                    !matches!(e.kind, DecodeErrorKind::Truncated { .. }),
                    "#{i} {gen} {words:08x?}: {e}"
                );
                let name = format!("{:?}", e.kind);
                let key = name.split([' ', '{', '(']).next().unwrap_or("").to_string();
                *t.errors.entry(key).or_default() += 1;
            }
        }
    }
    t
}

#[test]
fn random_words_round_trip_or_fail_typed() {
    for (k, gen) in Gen::ALL.into_iter().enumerate() {
        let t = run(gen, 20_000, 0x5eed_0000 + k as u64);
        eprintln!("{gen}: {} decoded, errors {:?}", t.ok, t.errors);
        // Not a vacuous pass: most tagged words are instructions.
        assert!(t.ok > 5_000, "{gen}: only {} of 20000 decoded", t.ok);
    }
}

#[test]
#[ignore = "1e6 words per generation; run in release mode"]
fn random_words_round_trip_or_fail_typed_1e6() {
    for (k, gen) in Gen::ALL.into_iter().enumerate() {
        let t = run(gen, 1_000_000, 0x1e6_0000 + k as u64);
        eprintln!("{gen}: {} decoded, errors {:?}", t.ok, t.errors);
        assert!(t.ok > 250_000, "{gen}: only {} decoded", t.ok);
    }
}
