//! Rasterisation: which pixels a triangle covers, in 2x2 quads, with the interpolation
//! coordinates of every pixel of each quad (helper pixels included: a quad's uncovered
//! pixels run too, so that derivatives across the quad exist).
//!
//! * Pixel (x, y) is sampled at its centre (x + 0.5, y + 0.5), window coordinates, y down.
//! * Edge function, in f64: `edge(a, b, p) = (b.x − a.x)(p.y − a.y) − (b.y − a.y)(p.x − a.x)`.
//!   The triangle's `area = edge(v0, v1, v2)`; 0 draws nothing. With `w0 = edge(v1, v2, p)`,
//!   `w1 = edge(v2, v0, p)`, `w2 = edge(v0, v1, p)`, the interpolation coordinates are
//!   `I = f32(w1 / area)` and `J = f32(w2 / area)` (barycentric weights of vertices 1 and
//!   2, divided in f64 and rounded once to f32).
//! * Coverage (the top-left rule): after multiplying each `w` by the sign of `area`, a
//!   pixel is covered when every `w > 0`, or `w = 0` on a top or left edge. With the edges
//!   oriented so that the inside is on their positive side (clockwise on the screen), an
//!   edge from a to b is a left edge when `b.y < a.y` and a top edge when `b.y = a.y` and
//!   `b.x > a.x`.
//! * Front-facing: `area > 0` (clockwise on the screen, y down; counter-clockwise with y
//!   up, OpenGL's default front face).
//! * Quads are 2x2 blocks at even (x, y); lane l of a quad is pixel
//!   (x + (l & 1), y + (l >> 1)). They are visited row by row from the top left of the
//!   triangle's bounding box (clipped to the viewport); a quad without a covered pixel is
//!   skipped.

use super::scene::Triangle;

/// One 2x2 quad of a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// The top-left pixel (both even).
    pub x: u32,
    pub y: u32,
    /// Bit l: lane l's pixel is covered (and inside the viewport).
    pub covered: u8,
    /// (I, J) of each lane's pixel.
    pub ij: [[f32; 2]; 4],
}

/// A triangle set up for rasterisation.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    v: [[f64; 2]; 3],
    area: f64,
}

/// `edge(a, b, p)`.
fn edge(a: [f64; 2], b: [f64; 2], p: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

impl Setup {
    /// `None` for a triangle of zero area.
    pub fn new(t: &Triangle) -> Option<Setup> {
        let area = edge(t.v[0], t.v[1], t.v[2]);
        (area != 0.0 && area.is_finite()).then_some(Setup { v: t.v, area })
    }

    pub fn front_facing(&self) -> bool {
        self.area > 0.0
    }

    /// Whether the edge a→b, oriented with the inside on its positive side, is a top or
    /// left edge.
    fn top_left(&self, a: usize, b: usize) -> bool {
        let (a, b) = if self.area > 0.0 {
            (self.v[a], self.v[b])
        } else {
            (self.v[b], self.v[a])
        };
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        dy < 0.0 || (dy == 0.0 && dx > 0.0)
    }

    /// The interpolation coordinates and coverage of pixel (x, y).
    pub fn pixel(&self, x: u32, y: u32) -> ([f32; 2], bool) {
        let p = [x as f64 + 0.5, y as f64 + 0.5];
        let [v0, v1, v2] = self.v;
        let w = [edge(v1, v2, p), edge(v2, v0, p), edge(v0, v1, p)];
        let s = self.area.signum();
        let inside = |k: usize, a: usize, b: usize| {
            let e = w[k] * s;
            e > 0.0 || (e == 0.0 && self.top_left(a, b))
        };
        let covered = inside(0, 1, 2) && inside(1, 2, 0) && inside(2, 0, 1);
        let ij = [(w[1] / self.area) as f32, (w[2] / self.area) as f32];
        (ij, covered)
    }

    /// Every quad with a covered pixel inside the `width` x `height` viewport, row by
    /// row.
    pub fn quads(&self, width: u32, height: u32, mut out: impl FnMut(Quad)) {
        let xs = self.v.map(|v| v[0]);
        let ys = self.v.map(|v| v[1]);
        let lo = |c: [f64; 3]| c.iter().fold(f64::INFINITY, |m, &x| m.min(x));
        let hi = |c: [f64; 3]| c.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x));
        // Pixels whose centre can be inside: floor(min - 0.5) ..= ceil(max - 0.5), clipped.
        let range = |l: f64, h: f64, n: u32| -> Option<(u32, u32)> {
            let a = (l - 0.5).floor().max(0.0);
            let b = (h - 0.5).ceil().min(n as f64 - 1.0);
            (a <= b).then_some((a as u32, b as u32))
        };
        let (Some((x0, x1)), Some((y0, y1))) =
            (range(lo(xs), hi(xs), width), range(lo(ys), hi(ys), height))
        else {
            return;
        };
        for qy in (y0 & !1..=y1).step_by(2) {
            for qx in (x0 & !1..=x1).step_by(2) {
                let mut q = Quad {
                    x: qx,
                    y: qy,
                    covered: 0,
                    ij: [[0.0; 2]; 4],
                };
                for l in 0..4u32 {
                    let (px, py) = (qx + (l & 1), qy + (l >> 1));
                    let (ij, c) = self.pixel(px, py);
                    q.ij[l as usize] = ij;
                    if c && px < width && py < height {
                        q.covered |= 1 << l;
                    }
                }
                if q.covered != 0 {
                    out(q);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(v: [[f64; 2]; 3]) -> Setup {
        Setup::new(&Triangle { v, attrs: vec![] }).expect("not degenerate")
    }

    fn coverage(s: &Setup, w: u32, h: u32) -> Vec<(u32, u32)> {
        let mut px = Vec::new();
        s.quads(w, h, |q| {
            for l in 0..4 {
                if q.covered >> l & 1 != 0 {
                    px.push((q.x + (l & 1), q.y + (l >> 1)));
                }
            }
        });
        px.sort();
        px
    }

    #[test]
    fn two_triangles_sharing_a_diagonal_cover_each_pixel_once() {
        // The square (0,0)-(4,4) split along its diagonal: the diagonal passes through the
        // centres (0.5,0.5)...(3.5,3.5), which belong to exactly one of the two triangles.
        let a = tri([[0.0, 0.0], [4.0, 0.0], [4.0, 4.0]]);
        let b = tri([[0.0, 0.0], [4.0, 4.0], [0.0, 4.0]]);
        let mut all = coverage(&a, 8, 8);
        all.extend(coverage(&b, 8, 8));
        all.sort();
        let want: Vec<(u32, u32)> = (0..4).flat_map(|x| (0..4).map(move |y| (x, y))).collect();
        let mut w = want.clone();
        w.sort();
        assert_eq!(all, w, "16 pixels, none twice");
    }

    #[test]
    fn top_and_left_edges_are_in_bottom_and_right_are_out() {
        // The right triangle (0.5,0.5) (2.5,0.5) (0.5,2.5) has pixel centres on each of its
        // edges. Its top edge holds (0,0), (1,0) and (2,0), its left edge (0,0), (0,1) and
        // (0,2), its hypotenuse (2,0), (1,1) and (0,2). Top and left are in, the hypotenuse
        // (neither) is out: (0,0), (0,1), (1,0).
        let s = tri([[0.5, 0.5], [2.5, 0.5], [0.5, 2.5]]);
        assert_eq!(coverage(&s, 4, 4), vec![(0, 0), (0, 1), (1, 0)]);
        // The same triangle wound the other way covers the same pixels.
        let r = tri([[0.5, 0.5], [0.5, 2.5], [2.5, 0.5]]);
        assert_eq!(coverage(&r, 4, 4), vec![(0, 0), (0, 1), (1, 0)]);
        assert!(s.front_facing() && !r.front_facing());
    }

    #[test]
    fn coordinates_are_the_weights_of_vertices_1_and_2() {
        // v0 = (0,0), v1 = (8,0), v2 = (0,8): at the centre (2.5, 4.5), I = x/8 and
        // J = y/8.
        let s = tri([[0.0, 0.0], [8.0, 0.0], [0.0, 8.0]]);
        let (ij, c) = s.pixel(2, 4);
        assert!(c);
        assert_eq!(ij, [2.5 / 8.0, 4.5 / 8.0]);
    }

    #[test]
    fn quads_hold_helper_pixels_and_clip_to_the_viewport() {
        // A thin triangle covering only pixel (1,1)'s centre: its quad at (0,0) has lane 3
        // covered and lanes 0-2 as helpers with coordinates of their own.
        let s = tri([[1.0, 1.0], [2.0, 1.2], [1.2, 2.0]]);
        let mut qs = Vec::new();
        s.quads(4, 4, |q| qs.push(q));
        assert_eq!(qs.len(), 1);
        assert_eq!((qs[0].x, qs[0].y, qs[0].covered), (0, 0, 0b1000));
        assert_ne!(qs[0].ij[0], qs[0].ij[3]);
        // Clipped: a viewport of 1x1 has no (1,1).
        let mut none = 0;
        s.quads(1, 1, |_| none += 1);
        assert_eq!(none, 0);
    }
}
