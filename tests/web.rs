//! Browser tier (wasm-bindgen-test in headless Chromium): the app mounts and its heatmap draws;
//! charts measure text without touching the page; text out of view waits for the controls to settle.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Waits for `ms` milliseconds (lets effects run and the canvas lay out).
async fn sleep(ms: u64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        set_timeout(
            move || {
                let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            },
            Duration::from_millis(ms),
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A fresh container of a known width in the test page, with the page's canvas rule (canvases
/// fill their figure's width) so sizing is exercised as on the real page.
fn container() -> HtmlElement {
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some("canvas { display: block; width: 100%; }"));
    document().head().unwrap().append_child(&style).unwrap();
    let el: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    el.style().set_property("width", "900px").unwrap();
    document().body().unwrap().append_child(&el).unwrap();
    el
}

/// Polls `found` every 20 ms until it gives a value: waits up to 5 s, then fails naming `what`.
/// A fixed sleep in its place is a race: the unoptimised build on 2 cores draws 100–150 ms after
/// a change, later under load.
async fn wait_for<T>(what: &str, found: impl Fn() -> Option<T>) -> T {
    for _ in 0..250 {
        if let Some(value) = found() {
            return value;
        }
        sleep(20).await;
    }
    panic!("{what}: not within 5 s");
}

/// The first canvas under `root` that matches `selector`, once there is one.
async fn canvas_at(root: &HtmlElement, selector: &str, what: &str) -> HtmlCanvasElement {
    wait_for(what, || root.query_selector(selector).unwrap())
        .await
        .unchecked_into()
}

/// The heatmap's canvas, scrolled into view (figures off screen do not draw), once its part of the
/// book is built (the app builds the book a part per task, src/app/deferred.rs).
async fn heatmap_canvas(root: &HtmlElement) -> HtmlCanvasElement {
    let canvas = canvas_at(
        root,
        "#fig-heatmap canvas",
        "the heatmap canvas in the page",
    )
    .await;
    canvas.scroll_into_view();
    canvas
}

/// The heatmap's cells layer, once the figure has drawn (the layer is made by its first draw).
async fn cells_layer(root: &HtmlElement) -> HtmlCanvasElement {
    canvas_at(
        root,
        "#fig-heatmap canvas.cells",
        "the heatmap's cells layer",
    )
    .await
}

/// Number of distinct colours on the canvas.
fn colours(canvas: &HtmlCanvasElement) -> usize {
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let data = ctx
        .get_image_data(
            0.0,
            0.0,
            f64::from(canvas.width()),
            f64::from(canvas.height()),
        )
        .unwrap()
        .data();
    let mut seen: Vec<u32> = data
        .chunks_exact(4)
        .map(|p| u32::from_be_bytes([0, p[0], p[1], p[2]]))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[wasm_bindgen_test]
async fn app_mounts_and_the_heatmap_draws() {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), pe_explorer::app::App);
    let canvas = heatmap_canvas(&root).await;
    // The cells are painted on a layer over the figure's canvas, one pixel per shown cell.
    let cells = cells_layer(&root).await;
    assert!(
        canvas.width() > 300,
        "canvas sized to its container: {}",
        canvas.width()
    );
    let n = colours(&cells);
    assert!(n > 100, "only {n} colours drawn");
    let figure = root.query_selector("#fig-heatmap").unwrap().unwrap();
    let ms: f64 = figure
        .get_attribute("data-draw-ms")
        .unwrap()
        .parse()
        .unwrap();
    assert!(ms >= 0.0);
    drop(handle);
}

#[wasm_bindgen_test]
async fn changing_d_model_redraws() {
    let root = container();
    let handle = leptos::mount::mount_to(root.clone(), pe_explorer::app::App);
    heatmap_canvas(&root).await;
    let cells = cells_layer(&root).await;
    let before = cells.to_data_url().unwrap();
    let input: web_sys::HtmlInputElement = root
        .query_selector("#ctl-d")
        .unwrap()
        .unwrap()
        .unchecked_into();
    input.set_value("16");
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    wait_for("the heatmap redrawn for d = 16", || {
        (cells.to_data_url().unwrap() != before).then_some(())
    })
    .await;
    let exact: web_sys::HtmlInputElement = root
        .query_selector("#ctl-d-value")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(exact.value(), "16");
    drop(handle);
}

/// Text out of view waits until the controls have been still (src/app/near.rs), then follows;
/// text in view follows at once.
#[wasm_bindgen_test]
async fn text_out_of_view_follows_once_the_controls_settle() {
    use pe_explorer::app::near::{Near, watch};
    let root = container();
    let value = RwSignal::new(1u32);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let near = Near::new();
        view! {
            <div id="near-spacer" style="height: 20000px"></div>
            <p id="near-text" use:watch=near>{near.text(move || value.get().to_string())}</p>
        }
    });
    let text = || {
        document()
            .get_element_by_id("near-text")
            .and_then(|p| p.text_content())
            .unwrap_or_default()
    };
    sleep(100).await;
    assert_eq!(text(), "1");
    value.set(2);
    // Effects have run by the next task; the paragraph is far below the viewport.
    sleep(0).await;
    assert_eq!(
        text(),
        "1",
        "text out of view waits while the controls move"
    );
    sleep(500).await;
    assert_eq!(text(), "2", "and follows once they have been still");
    document()
        .get_element_by_id("near-text")
        .unwrap()
        .scroll_into_view();
    sleep(200).await;
    value.set(3);
    sleep(0).await;
    assert_eq!(text(), "3", "text in view follows at once");
    drop(handle);
}

/// Text waiting for the controls to settle whose part is unmounted meanwhile (an embed swapped)
/// is dropped when the controls settle, without a panic.
#[wasm_bindgen_test]
async fn waiting_text_of_an_unmounted_part_is_dropped() {
    use pe_explorer::app::near::{Near, watch};
    use std::sync::atomic::{AtomicBool, Ordering};
    static PANICKED: AtomicBool = AtomicBool::new(false);
    let root = container();
    let value = RwSignal::new(1u32);
    let handle = leptos::mount::mount_to(root.clone(), move || {
        let near = Near::new();
        view! {
            <div style="height: 20000px"></div>
            <p use:watch=near>{near.text(move || value.get().to_string())}</p>
        }
    });
    sleep(100).await;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| PANICKED.store(true, Ordering::SeqCst)));
    value.set(2);
    sleep(0).await;
    drop(handle);
    sleep(500).await;
    std::panic::set_hook(hook);
    assert!(!PANICKED.load(Ordering::SeqCst));
}

/// Starts recording every node added to or removed from the page.
fn watch_dom() -> js_sys::Function {
    js_sys::Function::new_no_args(
        "const mo = new MutationObserver(() => {});
         mo.observe(document.documentElement, { childList: true, subtree: true });
         return () => { const n = mo.takeRecords().length; mo.disconnect(); return n; };",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap()
    .unchecked_into()
}

/// A line plot with caption, right-aligned labels and a legend — everything plotters measures —
/// draws through the app's backend without touching the page: plotters' own wasm text measurement
/// appends a span to the body and reads its size (a forced page layout per label).
#[wasm_bindgen_test]
fn charts_measure_text_without_touching_the_page() {
    use pe_explorer::chart::lines::{self, LinePlotSpec, Series};
    use pe_explorer::chart::theme::Theme;
    use plotters::prelude::{IntoFont, TextStyle};

    let canvas: HtmlCanvasElement = document()
        .create_element("canvas")
        .unwrap()
        .unchecked_into();
    canvas.set_width(800);
    canvas.set_height(400);
    document().body().unwrap().append_child(&canvas).unwrap();
    let spec = LinePlotSpec {
        title: "A caption".into(),
        x_desc: "position",
        y_desc: "value",
        x_range: 0.0..10.0,
        y_range: -1.0..1.0,
        series: (0..4)
            .map(|k| Series {
                label: format!("series {k}"),
                color: lines::series_color(k),
                points: (0..=10)
                    .map(|x| (f64::from(x), f64::from(x).sin()))
                    .collect(),
                dots: false,
                line: true,
            })
            .collect(),
        marker: Some((3.0, "pos 3".into())),
        theme: Theme::LIGHT,
    };
    let mutations = watch_dom();
    let root = pe_explorer::app::backend::area(&canvas).expect("a 2D context");
    lines::draw(&root, &spec).expect("the plot draws");
    root.present().unwrap();
    let changed = mutations.call0(&wasm_bindgen::JsValue::NULL).unwrap();
    assert_eq!(
        changed.as_f64(),
        Some(0.0),
        "drawing added or removed page nodes"
    );

    // And the measurements are real: wider text is wider, heights are about one line.
    let backend = pe_explorer::app::backend::area(&canvas).unwrap();
    let style: TextStyle = ("sans-serif", 20.0).into_font().into();
    let (wide, h) = backend.estimate_text_size("mmmmmmmm", &style).unwrap();
    let (narrow, _) = backend.estimate_text_size("iiii", &style).unwrap();
    assert!(wide > 2 * narrow && wide > 80, "widths {wide} vs {narrow}");
    assert!((18..=40).contains(&h), "height {h} for a 20 px font");
    canvas.remove();
}

/// The panic banner (what the panic hook shows; a real panic would end this test's wasm too):
/// one banner, the message quoted as text and cut, links to reload and to start afresh.
#[wasm_bindgen_test]
fn a_panic_shows_a_banner_with_the_message_as_text() {
    // show_banner is what the hook (app::panic::install) calls; installing a hook here would
    // race the test runner's own.
    use pe_explorer::app::panic::{BANNER_ID, show_banner};
    let hostile = format!("<img src=x onerror=alert(1)>{}", "x".repeat(1000));
    show_banner(&hostile);
    show_banner("a second panic");
    let banners = document()
        .query_selector_all(&format!("#{BANNER_ID}"))
        .unwrap();
    assert_eq!(banners.length(), 1, "one banner, however many panics");
    let banner: HtmlElement = banners.get(0).unwrap().unchecked_into();
    let text = banner.text_content().unwrap();
    assert!(text.contains("Something went wrong — reload."), "{text}");
    assert!(
        text.contains("<img src=x onerror=alert(1)>"),
        "quoted as text: {text}"
    );
    assert!(
        text.contains('…') && text.len() < 600,
        "cut: {} bytes",
        text.len()
    );
    assert!(
        banner.query_selector("img").unwrap().is_none(),
        "never parsed as HTML"
    );
    let links = banner.query_selector_all("a[href]").unwrap();
    assert_eq!(links.length(), 2);
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    banner.remove();
}

/// The shell's chapter registry and the book list the same chapters in the same order, so every
/// chapter the contents name is one the page builds and the embed can find.
#[wasm_bindgen_test]
fn the_chapter_registry_matches_the_book() {
    let units: Vec<&str> = pe_explorer::app::chapters::UNITS
        .iter()
        .map(|u| u.id)
        .collect();
    let book: Vec<&str> = pe_explorer::book::CHAPTERS.iter().map(|c| c.id).collect();
    assert_eq!(units, book);
}
