//! A Rust panic kills the whole wasm app (release builds abort). Instead of a frozen page the
//! reader gets a banner: what went wrong, a link that reloads the last state the page wrote to
//! its address (URL writes trail the controls, so that is the state before the failing change),
//! and a link to start afresh.

/// The banner's element id (the boot script looks for it too).
pub const BANNER_ID: &str = "panic";

/// Longest piece of the panic message the banner quotes (it may hold text from the URL).
const MAX_MESSAGE_CHARS: usize = 300;

/// Installs the hook: the message to the console (as before) and the banner on the page.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_banner(&info.to_string());
    }));
}

/// `message` cut to [`MAX_MESSAGE_CHARS`] characters, with "…" when cut.
pub fn cut(message: &str) -> String {
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message.to_string(),
    }
}

/// Puts the banner at the top of the page (once: a second panic leaves the first message).
/// Built with DOM calls and text nodes only — the message is never parsed as HTML.
pub fn show_banner(message: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    if document.get_element_by_id(BANNER_ID).is_some() {
        return;
    }
    let Some(body) = document.body() else {
        return;
    };
    let make = |tag: &str, class: &str, text: &str| {
        document.create_element(tag).ok().inspect(|el| {
            el.set_class_name(class);
            el.set_text_content(Some(text));
        })
    };
    let Some(banner) = make("div", "panic-banner", "") else {
        return;
    };
    banner.set_id(BANNER_ID);
    let _ = banner.set_attribute("role", "alert");
    let here = window.location().href().unwrap_or_default();
    let fresh = window.location().pathname().unwrap_or_default();
    let parts = [
        make("strong", "", "Something went wrong — reload."),
        make(
            "p",
            "panic-message",
            &format!("The explainer stopped: {}", cut(message)),
        ),
        make("a", "panic-reload", "Reload at the last good state"),
        make("a", "panic-fresh", "Start afresh"),
    ];
    for (part, href) in parts.into_iter().zip([None, None, Some(here), Some(fresh)]) {
        let Some(part) = part else { continue };
        if let Some(href) = href {
            let _ = part.set_attribute("href", &href);
        }
        let _ = banner.append_child(&part);
    }
    let _ = body.insert_before(&banner, body.first_child().as_ref());
}
