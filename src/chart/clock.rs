//! Clock faces: one per frequency pair, the hand at angle `pos·ω_i`. The hand's tip is
//! `(sin θ, cos θ)` — horizontal offset = `PE(pos, 2i)`, vertical = `PE(pos, 2i+1)` — so the picture
//! is the encoding itself, read as the hands of clocks that tick at different speeds.

use std::f64::consts::TAU;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::theme::Theme;
use crate::math::sinusoidal::SinusoidalParams;

/// At most this many clocks in the sinusoidal figure (pairs are sampled evenly — evenly in
/// log-frequency — beyond it).
pub const MAX_CLOCKS: usize = 12;

/// The readout of pair `i` at position `pos`: its angle, and the table's sine and cosine columns
/// of that angle — read off the same column mapping the table uses, so the named columns hold
/// sin and cos of the printed angle under every layout, spacing and parity of d. The last pair of
/// an odd `d` with paper spacing has no cosine column, and the readout says so.
pub fn pair_readout(p: &SinusoidalParams, pos: usize, i: usize) -> String {
    let omega = p.pair_omega(i);
    let angle = pos as f64 * omega;
    let (sin_col, cos_col) = p.pair_columns().get(i).copied().unwrap_or((None, None));
    let part = |name: &str, col: Option<usize>| match col {
        Some(c) => format!("{name} = PE({pos}, {c}) = {:.4}", p.value(pos, c)),
        None => format!(
            "{name}: no column (odd d_model with paper spacing: the last sine has no cosine partner)"
        ),
    };
    format!(
        "pair {i}: angle = {pos} × {} = {} rad ({:.1}° into turn {}) · {} · {}",
        crate::params::format_significant(omega, 4),
        crate::params::format_significant(angle, 5),
        angle.rem_euclid(TAU).to_degrees(),
        (angle / TAU).floor() as i64 + 1,
        part("sin", sin_col),
        part("cos", cos_col),
    )
}

/// The frequency pairs shown: all of them if few, else [`MAX_CLOCKS`] spread evenly from the
/// fastest (0) to the slowest (`d/2 − 1`).
pub fn shown_pairs(p: &SinusoidalParams) -> Vec<usize> {
    let pairs = p.dim / 2;
    if pairs <= MAX_CLOCKS {
        return (0..pairs).collect();
    }
    let mut out: Vec<usize> = (0..MAX_CLOCKS)
        .map(|k| ((k * (pairs - 1)) as f64 / (MAX_CLOCKS - 1) as f64).round() as usize)
        .collect();
    out.dedup();
    out
}

/// A wavelength in a few significant digits (6.28, 62.8, 6283).
fn short(x: f64) -> String {
    if x >= 1000.0 {
        format!("{x:.0}")
    } else if x >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The sinusoidal encoding's clocks at position `pos`, one per pair in `pairs`: hand angle
/// `pos·ω_i`, labelled with the pair and its wavelength `2π/ω_i` in positions.
pub fn sinusoidal_clocks(p: &SinusoidalParams, pos: usize, pairs: &[usize]) -> Vec<Clock> {
    pairs
        .iter()
        .map(|&i| {
            let omega = p.pair_omega(i);
            let sublabel = if omega > 0.0 {
                format!("λ = {}", short(TAU / omega))
            } else {
                "λ = ∞".into()
            };
            Clock {
                angle: pos as f64 * omega,
                label: format!("pair {i}"),
                sublabel,
            }
        })
        .collect()
}

/// One clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// Hand angle in radians, clockwise from 12 o'clock (any real; taken mod 2π).
    pub angle: f64,
    /// First label line under the face (e.g. "pair 3").
    pub label: String,
    /// Second label line (e.g. "λ = 63.1").
    pub sublabel: String,
}

/// What the clock figure shows.
#[derive(Clone, Debug)]
pub struct ClockSpec {
    /// Caption.
    pub title: String,
    /// The clocks, fastest first.
    pub clocks: Vec<Clock>,
    /// Which clock to emphasise (hovered or focused), if any.
    pub selected: Option<usize>,
    /// Angles as RoPE turns its pairs: counter-clockwise from 3 o'clock (the x axis), instead of
    /// a clock's clockwise from 12.
    pub counter_clockwise: bool,
    /// Page colours and scale.
    pub theme: Theme,
}

/// Where the faces went, to find the clock under the pointer.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ClockLayout {
    /// Face centres in backend pixels, in clock order.
    pub centers: Vec<(i32, i32)>,
    /// Face radius in backend pixels.
    pub radius: i32,
}

impl ClockLayout {
    /// The clock whose face contains backend pixel `(px, py)`.
    pub fn clock_at(&self, px: f64, py: f64) -> Option<usize> {
        let r = f64::from(self.radius);
        self.centers.iter().position(|&(cx, cy)| {
            let (dx, dy) = (px - f64::from(cx), py - f64::from(cy));
            dx * dx + dy * dy <= r * r
        })
    }
}

/// The grid (columns, rows) that gives `n` square cells the largest size in a `w × h` area.
pub fn grid(n: usize, w: f64, h: f64) -> (usize, usize) {
    let n = n.max(1);
    (1..=n)
        .map(|cols| (cols, n.div_ceil(cols)))
        .max_by(|a, b| {
            let size = |(c, r): (usize, usize)| (w / c as f64).min(h / r as f64);
            size(*a).total_cmp(&size(*b))
        })
        .unwrap_or((1, 1))
}

/// The tip of a hand of length `r` at `angle` (clockwise from 12 o'clock) around `(cx, cy)`.
fn tip(cx: f64, cy: f64, r: f64, angle: f64) -> (i32, i32) {
    (
        (cx + r * angle.sin()).round() as i32,
        (cy - r * angle.cos()).round() as i32,
    )
}

/// Draws every clock face: rim, 12 ticks, a swept arc from 12 o'clock to the hand (showing how far
/// round this turn is), the hand, and two label lines — the [`draw_faces`] and the
/// [`draw_hands`] of one picture.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ClockSpec,
) -> Result<ClockLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&spec.theme.background)?;
    let layout = draw_faces(root, spec)?;
    draw_hands(root, spec)?;
    Ok(layout)
}

/// Where the faces go on `root`: their centres (in clock order) and radius, in backend pixels.
struct Faces {
    centers: Vec<(f64, f64)>,
    radius: f64,
}

impl Faces {
    fn of<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, spec: &ClockSpec) -> Faces {
        let t = &spec.theme;
        let title_h = super::theme::title_height(t) as i32;
        let (w, h) = root.dim_in_pixel();
        let label_h = f64::from(t.px(36.0));
        let area_h = (f64::from(h) - f64::from(title_h)).max(1.0);
        let (cols, rows) = grid(spec.clocks.len(), f64::from(w), area_h);
        let cell_w = f64::from(w) / cols as f64;
        let cell_h = area_h / rows as f64;
        let radius = ((cell_w.min(cell_h - label_h)) / 2.0 - f64::from(t.px(8.0))).max(4.0);
        let centers = (0..spec.clocks.len())
            .map(|k| {
                let (col, row) = (k % cols, k / cols);
                let cx = cell_w * (col as f64 + 0.5);
                let cy = f64::from(title_h) + cell_h * row as f64 + (cell_h - label_h) / 2.0;
                (cx, cy)
            })
            .collect();
        Faces { centers, radius }
    }
}

/// The centre of a face in whole pixels.
fn pixel((cx, cy): (f64, f64)) -> (i32, i32) {
    (cx.round() as i32, cy.round() as i32)
}

/// Label line `line` under every face: 0 the label, 1 the sublabel.
fn draw_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ClockSpec,
    centers: &[(f64, f64)],
    radius: f64,
    line: i32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    let size = if line == 0 { 12.0 } else { 11.0 };
    let font = ("sans-serif", t.font(size)).into_font().color(&t.text);
    let top = font.pos(Pos::new(HPos::Center, VPos::Top));
    for (clock, &(cx, cy)) in spec.clocks.iter().zip(centers) {
        let text = if line == 0 {
            &clock.label
        } else {
            &clock.sublabel
        };
        let y = (cy + radius + f64::from(t.px(6.0))) as i32 + line * t.px(15.0) as i32;
        root.draw(&Text::new(
            text.clone(),
            (cx.round() as i32, y),
            top.clone(),
        ))?;
    }
    Ok(())
}

/// What stays while only the angles change: each face's rim and 12 ticks ([`draw_face`]), and
/// its first label line (on whatever `root` already shows: [`draw`] fills it first). Returns
/// where the faces are.
pub fn draw_faces<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ClockSpec,
) -> Result<ClockLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let layout = draw_face_labels(root, spec)?;
    for &c in &layout.centers {
        draw_face(root, c, layout.radius, &spec.theme)?;
    }
    Ok(layout)
}

/// The faces' first label line alone; returns where the faces are, for a [`draw_face`] at each
/// centre (the app stamps one drawn face there instead of drawing each: `app::dial`).
pub fn draw_face_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ClockSpec,
) -> Result<ClockLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let Faces { centers, radius } = Faces::of(root, spec);
    draw_labels(root, spec, &centers, radius, 0)?;
    Ok(ClockLayout {
        centers: centers.into_iter().map(pixel).collect(),
        radius: radius as i32,
    })
}

/// One face without its hand: the rim of `radius` around `center` and 12 ticks.
pub fn draw_face<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    center: (i32, i32),
    radius: i32,
    t: &Theme,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.draw(&Circle::new(
        center,
        radius,
        ShapeStyle::from(t.axis).stroke_width(t.px(1.5)),
    ))?;
    let tick = ShapeStyle::from(t.axis.mix(0.6)).stroke_width(t.px(1.0));
    let (cx, cy, r) = (f64::from(center.0), f64::from(center.1), f64::from(radius));
    for h in 0..12 {
        let a = TAU * f64::from(h) / 12.0;
        root.draw(&PathElement::new(
            vec![tip(cx, cy, r * 0.86, a), tip(cx, cy, r, a)],
            tick,
        ))?;
    }
    Ok(())
}

/// What changes with the angles, over the faces (on a clear layer above them, or after
/// [`draw_faces`] on the same area): the title, the selected face's halo, each swept arc, hand
/// and centre, and the second label line.
pub fn draw_hands<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &ClockSpec,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &spec.theme;
    super::theme::draw_title(root, &spec.title, t)?;
    let Faces { centers, radius } = Faces::of(root, spec);
    // Hand directions in the clock convention of [`tip`].
    let dial = |angle: f64| {
        if spec.counter_clockwise {
            std::f64::consts::FRAC_PI_2 - angle
        } else {
            angle
        }
    };
    if let Some((k, &c)) = spec.selected.and_then(|k| centers.get(k).map(|c| (k, c))) {
        let color = super::lines::series_color(k);
        root.draw(&Circle::new(
            pixel(c),
            radius as i32 + t.px(4.0) as i32,
            color.mix(0.15).filled(),
        ))?;
    }
    for (k, (clock, &(cx, cy))) in spec.clocks.iter().zip(&centers).enumerate() {
        let center = pixel((cx, cy));
        let color = super::lines::series_color(k);
        // The swept sector from 12 o'clock to the hand, as a faint wedge.
        let turn = clock.angle.rem_euclid(TAU);
        let steps = ((turn / TAU) * 64.0).ceil().max(1.0) as usize;
        let mut wedge = vec![center];
        wedge.extend(
            (0..=steps).map(|s| tip(cx, cy, radius * 0.96, dial(turn * s as f64 / steps as f64))),
        );
        root.draw(&Polygon::new(wedge, color.mix(0.18).filled()))?;
        let hand = ShapeStyle::from(color).stroke_width(t.px(3.0));
        let end = tip(cx, cy, radius * 0.9, dial(turn));
        root.draw(&PathElement::new(vec![center, end], hand))?;
        root.draw(&Circle::new(end, t.px(3.0) as i32, color.filled()))?;
    }
    for &c in &centers {
        root.draw(&Circle::new(pixel(c), t.px(2.5) as i32, t.text.filled()))?;
    }
    draw_labels(root, spec, &centers, radius, 1)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::math::sinusoidal::Layout;
    use crate::params::SINUSOIDAL_DEFAULT;

    #[test]
    fn pairs_are_spread_from_fastest_to_slowest() {
        let p = SINUSOIDAL_DEFAULT; // d = 128: 64 pairs
        let pairs = shown_pairs(&p);
        assert_eq!(pairs.len(), MAX_CLOCKS);
        assert_eq!(pairs.first(), Some(&0));
        assert_eq!(pairs.last(), Some(&63));
        let small = SinusoidalParams { dim: 6, ..p };
        assert_eq!(shown_pairs(&small), vec![0, 1, 2]);
    }

    #[test]
    fn readout_columns_hold_sin_and_cos_of_the_printed_angle_for_every_setting() {
        use crate::math::sinusoidal::Spacing;
        for layout in [Layout::Interleaved, Layout::Half] {
            for spacing in [Spacing::Paper, Spacing::Fairseq] {
                for dim in 2..=13 {
                    let p = SinusoidalParams {
                        dim,
                        layout,
                        spacing,
                        ..SINUSOIDAL_DEFAULT
                    };
                    let pos = 37;
                    let mut missing = 0;
                    for i in 0..p.pairs() {
                        let text = pair_readout(&p, pos, i);
                        let angle = pos as f64 * p.pair_omega(i);
                        let (s, c) = p.pair_columns()[i];
                        let s = s.expect("every pair has a sine column");
                        assert_eq!(
                            p.value(pos, s),
                            angle.sin(),
                            "{layout:?} {spacing:?} d={dim} pair {i}"
                        );
                        assert!(
                            text.contains(&format!("sin = PE({pos}, {s}) = {:.4}", angle.sin())),
                            "{text}"
                        );
                        match c {
                            Some(c) => {
                                assert_eq!(
                                    p.value(pos, c),
                                    angle.cos(),
                                    "{layout:?} {spacing:?} d={dim} pair {i}"
                                );
                                assert!(
                                    text.contains(&format!(
                                        "cos = PE({pos}, {c}) = {:.4}",
                                        angle.cos()
                                    )),
                                    "{text}"
                                );
                            }
                            None => {
                                missing += 1;
                                assert!(text.contains("no cosine partner"), "{text}");
                            }
                        }
                    }
                    let lone = spacing == Spacing::Paper && dim % 2 == 1;
                    assert_eq!(missing, usize::from(lone), "{layout:?} {spacing:?} d={dim}");
                }
            }
        }
        // The case issue 14 reported: fairseq spacing, odd d, half-split: pair 0's cosine is
        // column 2 (the sine block is ⌊5/2⌋ = 2 wide), not 3.
        let p = SinusoidalParams {
            dim: 5,
            layout: Layout::Half,
            spacing: crate::math::sinusoidal::Spacing::Fairseq,
            ..SINUSOIDAL_DEFAULT
        };
        assert_eq!(
            p.pair_columns(),
            vec![(Some(0), Some(2)), (Some(1), Some(3))]
        );
    }

    #[test]
    fn hands_are_the_encoding() {
        // The hand of pair i at pos points at (sin, cos) = (PE(pos, 2i), PE(pos, 2i+1)).
        let p = SINUSOIDAL_DEFAULT;
        let clocks = sinusoidal_clocks(&p, 37, &[0, 5, 63]);
        for (clock, i) in clocks.iter().zip([0, 5, 63]) {
            assert!((clock.angle.sin() - p.value(37, 2 * i)).abs() < 1e-9);
            assert!((clock.angle.cos() - p.value(37, 2 * i + 1)).abs() < 1e-9);
        }
        assert_eq!(clocks[0].sublabel, "λ = 6.28");
    }

    #[test]
    fn grid_maximises_the_cell() {
        assert_eq!(grid(1, 100.0, 100.0), (1, 1));
        assert_eq!(grid(8, 800.0, 200.0), (8, 1));
        assert_eq!(grid(8, 400.0, 400.0), (3, 3));
        assert_eq!(grid(0, 10.0, 10.0), (1, 1));
    }

    #[test]
    fn hand_tip_reads_as_sin_and_cos() {
        // A quarter turn points to 3 o'clock: x = +r (sin = 1), y unchanged (cos = 0).
        assert_eq!(tip(0.0, 0.0, 10.0, TAU / 4.0), (10, 0));
        // Zero points to 12 o'clock: up is −y in pixels.
        assert_eq!(tip(0.0, 0.0, 10.0, 0.0), (0, -10));
    }

    #[test]
    fn clock_at_finds_the_face() {
        let l = ClockLayout {
            centers: vec![(50, 50), (150, 50)],
            radius: 40,
        };
        assert_eq!(l.clock_at(50.0, 50.0), Some(0));
        assert_eq!(l.clock_at(180.0, 60.0), Some(1));
        assert_eq!(l.clock_at(100.0, 50.0), None);
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn svg_has_every_face_and_label() {
        let spec = ClockSpec {
            title: "clocks at position 7".into(),
            clocks: (0..6)
                .map(|k| Clock {
                    angle: 7.0 / 10f64.powi(k),
                    label: format!("pair {k}"),
                    sublabel: format!("λ = {:.1}", TAU * 10f64.powi(k)),
                })
                .collect(),
            selected: Some(2),
            counter_clockwise: false,
            theme: Theme::DARK,
        };
        let svg = crate::chart::svg::render(720, 300, |root| {
            draw(root, &spec).map(|_| ()).map_err(|e| e.to_string())
        })
        .unwrap();
        assert!(svg.contains("clocks at position 7"));
        for k in 0..6 {
            assert!(svg.contains(&format!("pair {k}")));
        }
    }
}
