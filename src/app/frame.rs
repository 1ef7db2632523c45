//! A figure's frame: the `<figure>` element every figure of the book stands in — its id (the
//! anchor, the embed's and the exports' name), the controls it reads (`data-controls`), the timing
//! of its last redraw (`data-draw-ms`, `data-drawn-at`, for the browser tests and benchmarks) —
//! and its corner buttons: downloads, embed code, link.

use leptos::prelude::*;
use leptos::tachys::html::attribute::{Attribute, AttributeValue};
use wasm_bindgen::JsCast;

use super::figure::DrawStats;
use super::near::{Near, watch};

/// The attributes of figure `id`'s `<figure>` element, spread onto it (`<figure {..frame(…)}>`,
/// its corner buttons, [`FigureLink`], first inside): the class, the id, the controls it reads
/// (`data-controls`, space-separated ids, or a closure when they change) and its redraw timing
/// (`data-draw-ms`, `data-drawn-at`); `near` follows whether it is in view ([`super::near`]).
pub fn frame(
    id: &'static str,
    controls: impl AttributeValue,
    stats: DrawStats,
    near: Near,
) -> impl Attribute {
    view! {
        <{..}
            use:watch=near
            class="figure"
            id=id
            data-controls=controls
            data-draw-ms=stats.ms_text()
            data-drawn-at=stats.at_text()
        />
    }
}

/// A figure's view:
/// `figure! { "fig-id", "controls", stats[, [attributes of its own]]; children }` is the
/// `<figure>` element with its frame (see [`frame`]) and corner buttons ([`FigureLink`]), then the
/// children (tools, canvases, readouts, the caption), built with the figure's
/// [`super::figure::FigureId`] and [`Near`] in context (text that follows the controls reads the
/// latter through [`super::near::text`]). A macro, not a component: the view stays one type, as
/// if written out in place (a component wrapping each figure's children cost 7–13 KB of gzipped
/// wasm in generic glue).
macro_rules! figure {
    ($id:literal, $controls:expr, $stats:expr $(, [$($attr:tt)*])?; $($children:tt)*) => {{
        ::leptos::prelude::provide_context($crate::app::figure::FigureId($id));
        let near = $crate::app::near::Near::new();
        ::leptos::prelude::provide_context(near);
        ::leptos::prelude::view! {
            <figure {..$crate::app::frame::frame($id, $controls, $stats, near)} $($($attr)*)?>
                {$crate::app::frame::figure_link($id)}
                $($children)*
            </figure>
        }
    }};
}
pub(crate) use figure;

/// A chapter's page: `chapter! { "id"; children }` is its `<section>`, labelled by its heading
/// (number and title as the book lists them, [`crate::book::CHAPTERS`]), then the children. A
/// macro, as [`figure!`] is: the view stays one type, as if written out in place.
macro_rules! chapter {
    ($id:literal; $($children:tt)*) => {
        ::leptos::prelude::view! {
            <section class="chapter" id=$id aria-labelledby=concat!($id, "-title")>
                <h2 id=concat!($id, "-title")>{$crate::app::frame::heading($id)}</h2>
                $($children)*
            </section>
        }
    };
}
pub(crate) use chapter;

/// A chapter's control panel beside its figures (`.figure-grid`: on a wide page the panel stays in
/// view in a column of its own): `figure_grid! { Controls; children }` builds the panel
/// `<Controls />` as a [`super::deferred::Deferred`] part, queued before the parts in `children`
/// (the figures, each usually deferred too, and the prose between them), which stack in the
/// other column. A macro, as [`chapter!`] is: the view stays one type, as if written out in place
/// (a component taking the figures as children cost about 4 KB of wasm).
macro_rules! figure_grid {
    ($controls:ident; $($children:tt)*) => {
        ::leptos::prelude::view! {
            <div class="figure-grid">
                <Deferred>
                    <$controls />
                </Deferred>
                <div class="figure-stack">
                    $($children)*
                </div>
            </div>
        }
    };
}
pub(crate) use figure_grid;

/// Chapter `id`'s heading: "number · title", from the book's registry.
pub fn heading(id: &str) -> String {
    crate::book::CHAPTERS
        .iter()
        .find(|c| c.id == id)
        .map_or_else(String::new, |c| format!("{} · {}", c.number, c.title))
}

/// The [`FigureLink`] of figure `id`, for [`figure!`].
pub fn figure_link(id: &'static str) -> impl IntoView {
    view! { <FigureLink id=id /> }
}

/// The figure's link: a small corner button that puts the address of the current view, scrolled
/// to this figure (`…?query#fig-id`), in the address bar and on the clipboard. Without JavaScript
/// it is a plain `#fig-id` anchor.
#[component]
pub fn FigureLink(
    /// The figure's element id (as listed in [`crate::book::CHAPTERS`]).
    id: &'static str,
) -> impl IntoView {
    let link = expect_context::<super::url::ShareLink>();
    let title = crate::book::find_figure(id).map_or("this figure", |(_, f)| f.title);
    let copied = RwSignal::new(None::<bool>);
    let on_click = move |ev: web_sys::MouseEvent| {
        ev.prevent_default();
        link.set_fragment(id);
        link.write_now();
        let href = link.href();
        leptos::task::spawn_local(async move {
            copied.set(Some(super::clipboard::copy_text(&href).await));
            set_timeout(
                move || copied.set(None),
                std::time::Duration::from_millis(2000),
            );
        });
    };
    view! {
        <super::export::Downloads id=id title=title />
        <EmbedCode id=id title=title />
        <a
            class="figure-link"
            href=format!("#{id}")
            on:click=on_click
            aria-label=format!("Copy a link to the figure “{title}”")
            title="Copy a link to this figure"
        >
            <span aria-hidden="true">"#"</span>
            <span class="figure-link-status" aria-live="polite">
                {move || match copied.get() {
                    None => "",
                    Some(true) => "Link copied",
                    Some(false) => "In the address bar",
                }}
            </span>
        </a>
    }
}

/// HTML-escapes text for an attribute value or element content.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The address of figure `id`'s static picture (its default state, drawn by `pe render` at build
/// time into `figures/` beside the page), for readers where the frame does not run.
fn fallback_image(id: &str) -> String {
    let location = window().location();
    let path = location.pathname().unwrap_or_default();
    let dir = &path[..path.rfind('/').map_or(0, |k| k + 1)];
    format!(
        "{}{dir}figures/{id}.png",
        location.origin().unwrap_or_default()
    )
}

/// The height an iframe of figure `id` needs: the figure, or its chapter's control panel when
/// that is taller (the embed shows them side by side on a wide page), plus the caption line.
fn embed_height(id: &str) -> i32 {
    let doc = document();
    let height = |el: Option<web_sys::Element>| {
        el.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            .map_or(0, |e| e.offset_height())
    };
    let figure = doc.get_element_by_id(id);
    let panel = figure
        .as_ref()
        .and_then(|f| f.closest(".figure-grid").ok().flatten())
        .and_then(|g| g.query_selector(".controls").ok().flatten());
    height(figure).max(height(panel)) + 72
}

/// The "embed" corner button: puts an iframe snippet of this figure in the current state on the
/// clipboard and shows it, with a title, lazy loading, full width, the measured height, no
/// border, and after it a plain link for readers without frames (RSS, no JavaScript). The border
/// goes by `frameborder="0"`, not a `style` attribute: a host whose policy refuses inline styles
/// (`style-src` without `'unsafe-inline'`) would drop that and draw the frame's default border.
#[component]
fn EmbedCode(
    /// The figure's element id.
    id: &'static str,
    /// Its title in the contents.
    title: &'static str,
) -> impl IntoView {
    let link = expect_context::<super::url::ShareLink>();
    let snippet = RwSignal::new(None::<String>);
    let copied = RwSignal::new(false);
    let on_click = move |_| {
        if snippet.get_untracked().is_some() {
            snippet.set(None);
            return;
        }
        let title = escape_html(&format!("{title} — Positional Encoding Explorer"));
        // The static picture exists for every figure but the one that is text.
        let image = if crate::scene::has_picture(id) {
            format!(
                "<img src=\"{}\" alt=\"{title}\" width=\"720\" loading=\"lazy\"><br>",
                escape_html(&fallback_image(id))
            )
        } else {
            String::new()
        };
        let text = format!(
            "<iframe src=\"{}\" title=\"{title}\" loading=\"lazy\" width=\"100%\" height=\"{}\" frameborder=\"0\"></iframe>\n<p><a href=\"{}\">{image}{title}: open the live figure</a></p>",
            escape_html(&link.embed_href(id)),
            embed_height(id),
            escape_html(&link.href_without_embed(id)),
        );
        snippet.set(Some(text.clone()));
        leptos::task::spawn_local(async move {
            copied.set(super::clipboard::copy_text(&text).await);
        });
    };
    let box_id = format!("{id}-embed");
    view! {
        <button
            type="button"
            class="figure-embed"
            aria-expanded=move || snippet.with(Option::is_some).to_string()
            aria-controls=box_id.clone()
            title="Embed this figure in a web page"
            on:click=on_click
        >
            <span aria-hidden="true">"</>"</span>
            <span class="visually-hidden">{format!("Embed the figure “{title}”")}</span>
        </button>
        <div class="embed-code" id=box_id hidden=move || snippet.with(Option::is_none)>
            <label for=format!("{id}-embed-text")>
                {move || if copied.get() { "Embed code (copied):" } else { "Embed code:" }}
            </label>
            <textarea id=format!("{id}-embed-text") readonly rows="4" spellcheck="false" prop:value=move || snippet.get().unwrap_or_default()></textarea>
        </div>
    }
}
