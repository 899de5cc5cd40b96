//! The plot of `docs/bench/`: wave-instructions per second of each kernel on each engine
//! (log scale, grouped bars), plus the multi-wave scaling, drawn as plain SVG from a
//! `Report` (usually read back from the JSON file).

use std::fmt::Write as _;

use super::report::Report;

const W: f64 = 960.0;
const H: f64 = 470.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 250.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 70.0;

/// The series: label, colour, value of a kernel.
type Series = (
    &'static str,
    &'static str,
    fn(&super::report::KernelResult) -> Option<f64>,
);

const SERIES: [Series; 4] = [
    ("interpreter", "#9e9e9e", |k| Some(k.interp_ips)),
    ("JIT (warm)", "#1f77b4", |k| Some(k.jit_ips)),
    ("tiered (cold)", "#2ca02c", |k| Some(k.tiered_ips)),
    ("native Rust", "#d62728", |k| k.native_ips),
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Render the plot.
pub fn plot(r: &Report) -> String {
    let vals: Vec<f64> = r
        .kernels
        .iter()
        .flat_map(|k| SERIES.iter().filter_map(move |s| (s.2)(k)))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = vals
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .max(1.0)
        .log10()
        .floor();
    let hi = vals
        .iter()
        .copied()
        .fold(1.0, f64::max)
        .log10()
        .ceil()
        .max(lo + 1.0);
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let y = |v: f64| TOP + plot_h * (1.0 - (v.max(1.0).log10() - lo) / (hi - lo));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{LEFT}" y="24" font-size="16" font-weight="bold">wavejit: wave-instructions per second (log scale){}</text>"#,
        if r.quick { " — quick run" } else { "" }
    );
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="40" font-size="11" fill="#555">{}, {} cores, timed on {}, commit {}</text>"##,
        esc(&r.host.cpu),
        r.host.cores,
        esc(&r.host.clock),
        esc(&r.host.commit)
    );
    // Grid lines per decade.
    let mut d = lo;
    while d <= hi + 1e-9 {
        let yy = y(10f64.powf(d));
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">1e{d}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            yy + 4.0
        );
        d += 1.0;
    }
    let n = r.kernels.len().max(1) as f64;
    let group = plot_w / n;
    let bar = group * 0.8 / SERIES.len() as f64;
    for (i, k) in r.kernels.iter().enumerate() {
        let x0 = LEFT + group * i as f64 + group * 0.1;
        for (j, (label, colour, get)) in SERIES.iter().enumerate() {
            if let Some(v) = get(k).filter(|v| v.is_finite() && *v > 0.0) {
                let top = y(v);
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{colour}"><title>{} {}: {:.3e} inst/s</title></rect>"#,
                    x0 + bar * j as f64,
                    bar - 1.0,
                    (TOP + plot_h - top).max(0.0),
                    esc(&k.name),
                    label,
                    v
                );
            }
        }
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="11" fill="#1f77b4">{:.0}× interp</text>"##,
            x0 + group * 0.4,
            TOP + plot_h + 18.0,
            esc(&k.name),
            x0 + group * 0.4,
            TOP + plot_h + 34.0,
            k.jit_over_interp
        );
    }
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333"/>"##,
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h
    );
    // Legend and scaling on the right.
    let lx = W - RIGHT + 20.0;
    for (j, (label, colour, _)) in SERIES.iter().enumerate() {
        let ly = TOP + 20.0 * j as f64;
        let _ = writeln!(
            s,
            r#"<rect x="{lx}" y="{ly}" width="14" height="14" fill="{colour}"/><text x="{}" y="{}">{label}</text>"#,
            lx + 20.0,
            ly + 11.0
        );
    }
    let sy = TOP + 110.0;
    let _ = writeln!(
        s,
        r#"<text x="{lx}" y="{sy}" font-weight="bold">Multi-wave scaling ({})</text>"#,
        esc(&r.scaling.kernel)
    );
    let maxips = r.scaling.points.iter().map(|p| p.ips).fold(1.0, f64::max);
    for (i, p) in r.scaling.points.iter().enumerate() {
        let yy = sy + 12.0 + 22.0 * i as f64;
        let wdt = 150.0 * p.ips / maxips;
        let _ = writeln!(
            s,
            r##"<rect x="{lx}" y="{yy}" width="{wdt:.1}" height="16" fill="#1f77b4"/><text x="{:.1}" y="{:.1}">{} thr: {:.2e}/s</text>"##,
            lx + 4.0,
            yy + 12.0,
            p.threads,
            p.ips
        );
    }
    let yy = sy + 30.0 + 22.0 * r.scaling.points.len() as f64;
    let _ = writeln!(
        s,
        r#"<text x="{lx}" y="{yy}">speedup {:.2} on {} threads</text>"#,
        r.scaling.speedup, r.scaling.threads
    );
    if r.scaling.speedup_unloaded > 0.0
        && (r.scaling.speedup_unloaded - r.scaling.speedup).abs() > 0.05
    {
        let _ = writeln!(
            s,
            r##"<text x="{lx}" y="{:.1}" font-size="11" fill="#555">{:.2} without waits for a busy CPU</text>"##,
            yy + 16.0,
            r.scaling.speedup_unloaded
        );
    }
    if r.scaling.native_speedup > 0.0 {
        let _ = writeln!(
            s,
            r##"<text x="{lx}" y="{:.1}" font-size="11" fill="#555">the host's own (native, nothing shared): {:.2}</text>"##,
            yy + 32.0,
            r.scaling.native_speedup
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}
