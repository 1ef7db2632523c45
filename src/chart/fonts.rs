//! The font native pictures are laid out and drawn with: plotters measures and draws text with
//! ab_glyph from a TrueType file it is given. The system's DejaVu Sans (Debian's
//! `fonts-dejavu-core`, which `make` installs), else Liberation Sans, registered once as
//! `sans-serif`, the family every chart asks for.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::OnceLock;

use plotters::style::{FontStyle, register_font};

/// Where the regular and bold faces are looked for, in order.
const FACES: [(&str, &str); 2] = [
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ),
];

/// Registers the font (once); an error names the files looked for.
pub fn register() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let read = |path: &str| std::fs::read(path).ok().map(|b| &*Box::leak(b.into_boxed_slice()));
        for (regular, bold) in FACES {
            let Some(bytes) = read(regular) else { continue };
            register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| format!("{regular} is not a font plotters can read"))?;
            if let Some(bytes) = read(bold) {
                let _ = register_font("sans-serif", FontStyle::Bold, bytes);
            }
            return Ok(());
        }
        Err(format!(
            "no sans-serif TrueType font: looked for {} (Debian: apt-get install fonts-dejavu-core)",
            FACES.map(|(regular, _)| regular).join(" and ")
        ))
    })
    .clone()
}
