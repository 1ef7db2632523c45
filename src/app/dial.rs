//! Painting a clock figure (chapter 1's clocks, chapter 2's wheels) in two layers, as matrix
//! figures do ([`super::matrix`]): the figure's canvas holds the faces (rims, ticks, the pair
//! labels), drawn again only when they change (size, theme, which pairs); a `hands` canvas over
//! it holds what moves (title, swept arcs, hands, angle labels), cleared and drawn on every
//! input. At head_dim 128 the wheels are 64 faces, and their 768 tick strokes were redrawn on
//! every move of the position, for nothing (issue 25).
//!
//! The faces are all alike, so one is drawn (rim and ticks, into a canvas off the page) and
//! stamped at every centre with `drawImage`: a change of head_dim redraws the faces, and 64 faces
//! were 64 rims and 768 tick strokes, the most of that redraw.
//!
//! The hands canvas lies exactly over the figure's canvas with the same backing store, ignored
//! by the pointer and assistive technology; a PNG export stacks it over the faces, as the page
//! shows them.

use leptos::prelude::document;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::app::backend;
use crate::app::canvas::{self, Surface};
use crate::app::matrix::Layer;
use crate::chart::clock::{self, ClockLayout, ClockSpec};
use crate::chart::theme::Theme;

/// A reusable painter: the hands canvas and what the faces show survive between redraws.
#[derive(Default)]
pub struct ClockPainter {
    hands: Option<Layer>,
    /// What the figure's canvas shows: its backing size, the theme and the faces' labels.
    faces: Option<((u32, u32), Theme, Vec<String>)>,
    layout: Option<ClockLayout>,
    /// One face, drawn off the page, and the radius and theme it was drawn for.
    face: Option<(HtmlCanvasElement, (i32, Theme))>,
}

impl ClockPainter {
    /// Sizes the surface (CSS height from `height(width)`), draws `spec`'s faces if they
    /// changed, and its hands over them. Returns where the faces are, or `None` while the canvas
    /// is not ready.
    pub fn paint(
        &mut self,
        surface: &Surface,
        height: impl Fn(f64) -> f64,
        spec: &ClockSpec,
    ) -> Option<ClockLayout> {
        let (css_w, css_h) = canvas::fit(surface, height)?;
        let el = &surface.el;
        let size = (el.width(), el.height());
        let labels = || spec.clocks.iter().map(|c| &c.label);
        let same = self.faces.as_ref().is_some_and(|(s, t, drawn)| {
            *s == size && *t == spec.theme && drawn.iter().eq(labels())
        });
        if !same {
            // Forgotten first: a face drawing that fails is drawn again next time.
            self.faces = None;
            let root = backend::area(el)?;
            root.fill(&spec.theme.background).ok()?;
            let layout = clock::draw_face_labels(&root, spec).ok()?;
            root.present().ok()?;
            let (face, half) = self.face(layout.radius, spec.theme)?;
            let ctx = canvas::context_2d(el)?;
            for &(cx, cy) in &layout.centers {
                let _ = ctx.draw_image_with_html_canvas_element(
                    face,
                    f64::from(cx - half),
                    f64::from(cy - half),
                );
            }
            self.layout = Some(layout);
            self.faces = Some((size, spec.theme, labels().cloned().collect()));
        }
        if self.hands.is_none() {
            self.hands = Some(Layer::over(el, "layer hands")?);
        }
        let hands = self.hands.as_mut()?;
        hands.place(size, (0.0, 0.0, css_w, css_h));
        canvas::context_2d(&hands.el)?.clear_rect(0.0, 0.0, f64::from(size.0), f64::from(size.1));
        let root = backend::area(&hands.el)?;
        clock::draw_hands(&root, spec).ok()?;
        root.present().ok()?;
        self.layout.clone()
    }

    /// One face of `radius` in theme `t`, on a canvas off the page (drawn again only when they
    /// change), and the offset from its top-left corner to the face's centre.
    fn face(&mut self, radius: i32, t: Theme) -> Option<(&HtmlCanvasElement, i32)> {
        // Room around the rim for its stroke.
        let half = radius + t.px(4.0) as i32;
        if self
            .face
            .as_ref()
            .is_none_or(|(_, key)| *key != (radius, t))
        {
            let el: HtmlCanvasElement = match self.face.take() {
                Some((el, _)) => el,
                None => document().create_element("canvas").ok()?.dyn_into().ok()?,
            };
            let side = u32::try_from(2 * half + 1).ok()?;
            // Setting the size clears the canvas, also to the same size.
            el.set_width(side);
            el.set_height(side);
            let root = backend::area(&el)?;
            clock::draw_face(&root, (half, half), radius, &t).ok()?;
            root.present().ok()?;
            self.face = Some((el, (radius, t)));
        }
        self.face.as_ref().map(|(el, _)| (el, half))
    }
}
