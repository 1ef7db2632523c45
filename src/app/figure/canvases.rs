//! The canvases a figure is made of: an [`InteractiveCanvas`] (focusable, its selection moved by
//! the pointer and the keys, described by a live readout), a [`StillCanvas`] (an image with a text
//! alternative) and a [`DragCanvas`] (a handle dragged along it).

use std::rc::Rc;

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::app::near;

/// The id of the figure being built (set by the `figure!` view of `frame.rs`), for the parts
/// inside it that name themselves after it (an [`InteractiveCanvas`]'s readout is `{id}-readout`).
#[derive(Clone, Copy)]
pub struct FigureId(pub &'static str);

/// The id of a canvas's readout paragraph: `given`, else the figure's (`{id}-readout`, with the
/// [`FigureId`] of the figure being built).
pub(crate) fn readout_of(given: Option<&'static str>) -> String {
    match given {
        Some(id) => id.to_string(),
        None => use_context::<FigureId>()
            .map(|f| format!("{}-readout", f.0))
            .unwrap_or_default(),
    }
}

/// What the pointer and the keys do on an [`InteractiveCanvas`]: a selection moved by pointer
/// moves and keys, kept or cleared when the pointer leaves. Held as `dyn`, so the canvas's view is
/// built once for every figure.
pub struct Pointer {
    on_move: Box<dyn Fn(web_sys::MouseEvent)>,
    on_leave: Box<dyn Fn()>,
    on_key: Box<dyn Fn(web_sys::KeyboardEvent)>,
}

impl Pointer {
    /// Pointer moves and keys select; leaving the canvas keeps the selection.
    pub fn new(
        on_move: impl Fn(web_sys::MouseEvent) + 'static,
        on_key: impl Fn(web_sys::KeyboardEvent) + 'static,
    ) -> Pointer {
        Pointer {
            on_move: Box::new(on_move),
            on_leave: Box::new(|| {}),
            on_key: Box::new(on_key),
        }
    }

    /// The same, but leaving the canvas clears `selection`.
    pub fn clearing<T: Send + Sync + 'static>(self, selection: RwSignal<Option<T>>) -> Pointer {
        Pointer {
            on_leave: Box::new(move || selection.set(None)),
            ..self
        }
    }
}

/// A figure's interactive canvas: focusable (arrow keys move its selection), an image with a live
/// text alternative, described by its readout line, with the `pointer`'s handlers.
#[component]
pub fn InteractiveCanvas<L>(
    /// The canvas the figure draws on.
    node_ref: NodeRef<Canvas>,
    /// The id of the readout paragraph that describes the canvas: by default the figure's id
    /// (its [`FigureId`]) followed by `-readout`.
    #[prop(optional)]
    readout_id: Option<&'static str>,
    /// The readout's text, kept current: the paragraph follows the canvas. Without it the canvas is
    /// described by a paragraph that another canvas of the figure shows.
    #[prop(optional, into)]
    readout: Option<TextProp>,
    /// The text alternative, kept current.
    label: L,
    /// What the pointer and the keys do.
    pointer: Pointer,
) -> impl IntoView
where
    L: Fn() -> String + Send + Sync + 'static,
{
    interactive_canvas(
        node_ref,
        readout_id,
        readout,
        std::sync::Arc::new(label),
        pointer,
    )
}

/// The view of [`InteractiveCanvas`], built once for every figure's label (as `dyn`), not once
/// per closure type; [`crate::app::matrix::MatrixPair`]'s canvases too. Without `readout_id`, the
/// readout is the figure's (`{id}-readout`, with the [`FigureId`] of the figure around it).
pub(crate) fn interactive_canvas(
    node_ref: NodeRef<Canvas>,
    readout_id: Option<&'static str>,
    readout: Option<TextProp>,
    label: std::sync::Arc<dyn Fn() -> String + Send + Sync>,
    pointer: Pointer,
) -> AnyView {
    let Pointer {
        on_move,
        on_leave,
        on_key,
    } = pointer;
    let readout_id = readout_of(readout_id);
    view! {
        <div class="canvas-wrap">
            <canvas
                node_ref=node_ref
                tabindex="0"
                role="img"
                aria-label=near::text(move || label())
                aria-describedby=readout_id.clone()
                on:mousemove=on_move
                on:mouseleave=move |_| on_leave()
                on:keydown=on_key
            ></canvas>
        </div>
        {readout.map(|text| {
            view! {
                <p class="readout" id=readout_id aria-live="polite">
                    {near::text(move || text.get())}
                </p>
            }
        })}
    }
    .into_any()
}

/// A figure's canvas that only shows (no pointer, no keys): an image with its text alternative.
#[component]
pub fn StillCanvas(
    /// The canvas the figure draws on.
    node_ref: NodeRef<Canvas>,
    /// The text alternative (fixed, or kept current).
    #[prop(into)]
    label: TextProp,
) -> impl IntoView {
    view! {
        <div class="canvas-wrap">
            <canvas node_ref=node_ref role="img" aria-label=near::text(move || label.get())></canvas>
        </div>
    }
}

/// Called on a drag's press (`true`) and on each move while pressed (`false`).
type DragFn = dyn Fn(&web_sys::PointerEvent, bool);

/// What the pointer and the keys do on a [`DragCanvas`]: `drag` for the press and each move while
/// pressed (the canvas captures the pointer meanwhile), `hover` for moves while not pressed,
/// `leave` when the pointer leaves, `key` for keys. Held as `dyn`, like [`Pointer`].
pub struct Drag {
    drag: Box<DragFn>,
    hover: Box<dyn Fn(&web_sys::PointerEvent)>,
    leave: Box<dyn Fn()>,
    key: Box<dyn Fn(web_sys::KeyboardEvent)>,
}

impl Drag {
    /// `drag(event, first)` on the press (`first` true) and on every move while pressed; `key` on
    /// keys.
    pub fn new(
        drag: impl Fn(&web_sys::PointerEvent, bool) + 'static,
        key: impl Fn(web_sys::KeyboardEvent) + 'static,
    ) -> Drag {
        Drag {
            drag: Box::new(drag),
            hover: Box::new(|_| {}),
            leave: Box::new(|| {}),
            key: Box::new(key),
        }
    }

    /// The same, with `hover` on moves while not pressed and `leave` when the pointer leaves.
    pub fn hovering(
        self,
        hover: impl Fn(&web_sys::PointerEvent) + 'static,
        leave: impl Fn() + 'static,
    ) -> Drag {
        Drag {
            hover: Box::new(hover),
            leave: Box::new(leave),
            ..self
        }
    }
}

/// A figure's canvas that the pointer drags (a vector's tip, a point cloud's view): focusable
/// (the keys do what dragging does), an image with a live text alternative, described by its
/// readout paragraph, which follows it (`{id}-readout` of the figure, as for an
/// [`InteractiveCanvas`]).
#[component]
pub fn DragCanvas<L>(
    /// The canvas the figure draws on.
    node_ref: NodeRef<Canvas>,
    /// The text alternative, kept current.
    label: L,
    /// What the pointer and the keys do.
    drag: Drag,
    /// The readout's text, kept current.
    #[prop(into)]
    readout: TextProp,
    /// The readout paragraph's id: by default the figure's id followed by `-readout` (a figure
    /// whose other canvas has that one names its own).
    #[prop(optional)]
    readout_id: Option<&'static str>,
) -> impl IntoView
where
    L: Fn() -> String + Send + Sync + 'static,
{
    drag_canvas(
        node_ref,
        std::sync::Arc::new(label),
        drag,
        readout,
        readout_id,
    )
}

/// The view of [`DragCanvas`], built once for every figure's label.
fn drag_canvas(
    node_ref: NodeRef<Canvas>,
    label: std::sync::Arc<dyn Fn() -> String + Send + Sync>,
    drag: Drag,
    readout: TextProp,
    readout_id: Option<&'static str>,
) -> AnyView {
    let Drag {
        drag,
        hover,
        leave,
        key,
    } = drag;
    let readout_id = readout_of(readout_id);
    let drag = Rc::new(drag);
    let pressed = StoredValue::new(false);
    let on_down = {
        let drag = drag.clone();
        move |ev: web_sys::PointerEvent| {
            pressed.set_value(true);
            if let Some(el) = node_ref.get_untracked() {
                let _ = el.set_pointer_capture(ev.pointer_id());
            }
            drag(&ev, true);
        }
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if pressed.get_value() {
            drag(&ev, false);
        } else {
            hover(&ev);
        }
    };
    let on_up = move |_| pressed.set_value(false);
    view! {
        <div class="canvas-wrap">
            <canvas
                node_ref=node_ref
                class="draggable"
                tabindex="0"
                role="img"
                aria-label=near::text(move || label())
                aria-describedby=readout_id.clone()
                on:pointerdown=on_down
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=on_up
                on:pointerleave=move |_| leave()
                on:keydown=key
            ></canvas>
        </div>
        <p class="readout" id=readout_id aria-live="polite">{near::text(move || readout.get())}</p>
    }
    .into_any()
}
