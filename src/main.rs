//! Entry point. In the browser (wasm32) it mounts the app; natively there is nothing to run — the
//! native tool is `pe` (`cargo run --bin pe -- --help`).

#[cfg(target_arch = "wasm32")]
fn main() {
    pe_explorer::app::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "pe-explorer is the browser app: run `make serve` and open http://127.0.0.1:8080. \
         For numbers on the command line use `pe` (cargo run --bin pe -- --help)."
    );
}
