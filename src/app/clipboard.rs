//! The clipboard, for the copy-link and copy-snippet buttons.

use leptos::prelude::*;

/// Puts `text` on the clipboard; `false` if the browser has no clipboard here (an insecure
/// context) or refuses.
pub async fn copy_text(text: &str) -> bool {
    let navigator = window().navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        return false;
    }
    let clipboard = navigator.clipboard();
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .is_ok()
}
