//! Entry point. In the browser (wasm32) it mounts the app; natively there is nothing to run — the
//! native tool is `pe` (`cargo run --bin pe -- --help`).

#[cfg(target_arch = "wasm32")]
fn main() {
    // In a task of its own: the module's instantiation (the streaming compile's last steps, about
    // 60 ms on a 4× slowed phone profile) and the first screen's mount (about 150 ms) were one
    // long task, during which the page could not answer a tap.
    leptos::prelude::set_timeout(pe_explorer::app::mount, std::time::Duration::ZERO);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "pe-explorer is the browser app: run `make serve` and open http://127.0.0.1:8080. \
         For numbers on the command line use `pe` (cargo run --bin pe -- --help)."
    );
}
