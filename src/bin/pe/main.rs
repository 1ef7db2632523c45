//! `pe`: the numbers behind every figure of the Positional Encoding Explorer, as JSON.
//!
//! Prints one JSON object to stdout. Bad input prints one line to stderr and exits with status 2;
//! it never panics. Floats are printed in full (shortest round-trip form).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(cli::run(std::env::args_os()));
}
