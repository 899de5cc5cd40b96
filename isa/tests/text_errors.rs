//! Assembler errors: a table of bad lines (`tests/data/gcn/text/asm_errors.txt`) with the
//! line and column each error must name and what its message must say; and mutated or
//! random text, which must give `Ok` or an `AsmError`, never a panic.

mod text_util;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use text_util::{assert_no_fails, rows, table, CORPORA};
use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::Gen;

#[test]
fn bad_lines_give_the_expected_line_column_and_reason() {
    let mut fails = Vec::new();
    let mut n = 0;
    for (i, c) in table("text/asm_errors.txt") {
        let c: Vec<&str> = c.iter().map(String::as_str).collect();
        assert_eq!(c.len(), 4, "asm_errors.txt:{}: expected 4 columns", i + 1);
        let gen: Gen = c[0].parse().expect("generation");
        let src = c[1].replace("\\n", "\n");
        let (line, col) = c[2].split_once(':').expect("LINE:COL");
        let (line, col): (u32, u32) = (line.parse().expect("line"), col.parse().expect("col"));
        n += 1;
        let r = assemble(gen, &src);
        let ok = match (&r, c[3]) {
            (Ok(_), "OK") => true,
            (Err(e), want) => e.line == line && e.col == col && e.msg.contains(want),
            _ => false,
        };
        if !ok {
            fails.push(format!(
                "asm_errors.txt:{} [{gen}] `{}`: want {line}:{col} `{}`, got {:?}",
                i + 1,
                c[1],
                c[3],
                r.map(|a| a.words())
            ));
        }
    }
    assert_no_fails(&fails, &format!("of {n} cases"), fails.len());
    eprintln!("{n} error cases ok");
}

#[test]
fn mutated_and_random_text_never_panics() {
    let mut rng = StdRng::seed_from_u64(0xbad);
    let corpus: Vec<(Gen, String)> = CORPORA
        .iter()
        .flat_map(|f| rows(f))
        .map(|r| (r.gen, r.text))
        .collect();
    let alphabet: Vec<char> = "v s[]:,()|-+&;#/.0123456789xabcdefglmnoprtuw_\"\t é\u{0}"
        .chars()
        .collect();
    let mut errs = 0;
    for i in 0..40_000 {
        let (gen, base) = &corpus[rng.random_range(0..corpus.len())];
        let mut t: Vec<char> = base.chars().collect();
        match i % 4 {
            0 => {
                // Random edits.
                for _ in 0..rng.random_range(1..4) {
                    let p = rng.random_range(0..=t.len());
                    match rng.random_range(0..3) {
                        0 if p < t.len() => {
                            t.remove(p);
                        }
                        1 => t.insert(p, alphabet[rng.random_range(0..alphabet.len())]),
                        _ if p < t.len() => t[p] = alphabet[rng.random_range(0..alphabet.len())],
                        _ => {}
                    }
                }
            }
            1 => t.truncate(rng.random_range(0..=t.len())),
            2 => {
                // Digits replaced by huge or odd numbers.
                let s: String = t.iter().collect();
                let big = [
                    "99999999999999999999999",
                    "-0",
                    "1e400",
                    "0x",
                    "0b2",
                    ".5",
                    "65536",
                    "-32769",
                ];
                t = s
                    .replacen(
                        |c: char| c.is_ascii_digit(),
                        big[rng.random_range(0..big.len())],
                        1,
                    )
                    .chars()
                    .collect();
            }
            _ => {
                t = (0..rng.random_range(0..40))
                    .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                    .collect();
            }
        }
        let s: String = t.into_iter().collect();
        let g = *gen;
        let r = std::panic::catch_unwind(|| assemble(g, &s));
        match r {
            Ok(Err(e)) => {
                errs += 1;
                assert!(
                    e.line == 1 && e.col >= 1 && e.col <= s.chars().count() as u32 + 1,
                    "`{s}`: error position {e:?}"
                );
            }
            Ok(Ok(_)) => {}
            Err(_) => panic!("assemble panicked on {g} `{s}`"),
        }
    }
    eprintln!("40000 mutated lines: {errs} rejected with positioned errors, none panicked");
}
