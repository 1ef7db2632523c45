//! Blocks far from the view cost a control's move nothing (issue 25).
//!
//! After the wasm has run, each move of a control makes the browser style, lay out, paint and
//! commit the page again. For chapter 3's model (`ctl-c-model` at #fig-ctx-wavelengths, a trace of
//! 60 moves) that was about 6.5 of the reader's 10 ms at the median, much of it for blocks nobody
//! sees: the book is about 60 000 px tall and a screen 900. So once the book is built, each
//! chapter, block of a chapter and figure of a figure column more than a screen from the view takes
//! `data-far`, under which styles/figures.css gives it `content-visibility: auto`: the browser
//! skips its rendering. It keeps the size it last had (`contain-intrinsic-size: auto`, which it
//! has from the start), so nothing moves, the scroll bar stays true and a link into the book lands
//! where it did; it stays in the accessibility tree and find-in-page reaches it.
//!
//! Not `content-visibility: auto` on every block at once: the browser renders such a block again
//! only within half a screen of the view, so a jump of most of a screen (Page Down) showed blocks
//! still skipped for a frame, and the book's browser test counted their appearing as layout
//! shifts (3.9 on a desktop window, against a budget of 0.01). A block loses `data-far` a screen
//! ahead, while it is still out of view; after a longer jump (the scroll bar, End), in the scroll
//! event, before the frame is drawn.

use leptos::prelude::*;

use super::near;

/// How far from the view a block is rendered: a screen above and below (the margin of the figures'
/// sizing, so the two share an observer).
const MARGIN: &str = "100% 0px";

/// The blocks that can be skipped (styles/figures.css gives them their remembered size).
const BLOCKS: &str = ".chapter, .chapter > *, .figure-stack > *";

/// Once the whole book is built and every figure off screen is sized, one frame later (every block
/// has been laid out at its size and keeps it), marks each block `data-far` while it is more than a
/// screen from the view. A figure sized inside a skipped block would keep the size it had before.
pub fn skip_once_built() {
    super::deferred::when_built(|| {
        super::figure::after_sizing(|| {
            request_animation_frame(|| {
                set_timeout(watch_blocks, std::time::Duration::ZERO);
            });
        });
    });
}

/// Watches every block; `<main id="app">` then carries `data-skipping` (the bench and the browser
/// tests wait for it).
fn watch_blocks() {
    let Ok(list) = document().query_selector_all(BLOCKS) else {
        return;
    };
    let blocks: Vec<Block> = (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .map(|el| Block {
            within: el
                .parent_element()
                .and_then(|p| p.closest(BLOCKS).ok().flatten()),
            el,
        })
        .collect();
    for block in &blocks {
        let el = block.el.clone();
        near::observe(&block.el, MARGIN, move |near| {
            let _ = el.toggle_attribute_with_force(FAR, !near);
        });
    }
    WATCHED.with(|w| *w.borrow_mut() = blocks);
    // Scroll events come in the frame's update, before its layout: blocks that a jump of more than
    // a screen (the scroll bar, End, a link) brought into view are rendered in that frame, before
    // the observer, which reports after the frame, has caught up. For the page's life (dropping
    // the handle keeps the listener).
    let _ = window_event_listener(leptos::ev::scroll, |_| show_blocks_in_view());
    super::deferred::mark_book("data-skipping", true);
}

/// The attribute of a block more than a screen from the view.
const FAR: &str = "data-far";

/// A watched block, and the watched block it is in, if any.
struct Block {
    el: web_sys::Element,
    within: Option<web_sys::Element>,
}

thread_local! {
    /// Every watched block, in page order.
    static WATCHED: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Renders the skipped blocks in the viewport, outermost first: a block's place is read only once
/// the block it is in is rendered (reading it inside a skipped block would lay that block out). A
/// scroll within the margin finds none, and reads only the outermost skipped blocks' boxes, which
/// need no layout.
fn show_blocks_in_view() {
    let height = super::shifted::viewport_height();
    WATCHED.with(|watched| {
        let watched = watched.borrow();
        // A round per level (a figure sits in a figure grid in a chapter); each round renders at
        // least one block, so the rounds end.
        loop {
            let due: Vec<&web_sys::Element> = watched
                .iter()
                .filter(|b| b.el.has_attribute(FAR))
                .filter(|b| b.within.as_ref().is_none_or(|w| !w.has_attribute(FAR)))
                .filter(|b| super::shifted::in_viewport(&b.el, height))
                .map(|b| &b.el)
                .collect();
            if due.is_empty() {
                break;
            }
            for el in due {
                let _ = el.remove_attribute(FAR);
            }
        }
    });
}
