//! `pe`: the numbers behind every figure of the Positional Encoding Explorer, as JSON.
//!
//! Prints one JSON object to stdout. Bad input prints one line to stderr and exits with status 2;
//! it never panics. Floats are printed in full (shortest round-trip form). Native only: on wasm32
//! (which `cargo clippy --target wasm32-unknown-unknown --all-targets` also builds) this is an
//! empty program, since clap is a native dependency. The CLI itself is `cli` (and its children).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(cli::run(std::env::args_os()));
}
