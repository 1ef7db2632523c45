//! `pe render`: one figure of the explainer drawn natively, from the page's own link query, by the
//! same scene and chart code the page runs (`pe_explorer::scene`).

use serde_json::{Value, json};

use super::args::{RenderArgs, RenderFormat, ThemeArg};
use super::check::{self, Checked};
use pe_explorer::chart::theme::Theme;
use pe_explorer::math::limits;
use pe_explorer::params::{MAX_QUERY_BYTES, ThemeChoice, Views, is_state_key, parse_query, quote};
use pe_explorer::scene;

/// The views of `query`, strictly: an unknown key, or a value the page would clamp or replace
/// (with a notice), is an error here.
fn views(query: &str) -> Checked<(Views, ThemeChoice)> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(format!(
            "--query is {} bytes; at most {MAX_QUERY_BYTES}",
            query.len()
        ));
    }
    let pairs = parse_query(query);
    if let Some((key, _)) = pairs.iter().find(|(k, _)| !is_state_key(k)) {
        return Err(format!(
            "--query has an unknown key “{}” (keys are the page's link keys: n, d, base, pos, r.base, c.s, t.h…)",
            quote(key)
        ));
    }
    let (views, notices) = Views::from_query(&pairs);
    let (theme, notice) = ThemeChoice::from_query(&pairs);
    if let Some(first) = notice.iter().chain(&notices).next() {
        return Err(format!("--query: {}", first.0));
    }
    Ok((views, theme))
}

/// Runs `pe render`: writes the file and returns its summary (or, with `--list`, the ids).
pub fn run(args: RenderArgs) -> Checked<Value> {
    if args.list {
        return Ok(json!({ "figures": scene::ids().collect::<Vec<_>>() }));
    }
    let Some(out) = args.out.as_deref() else {
        return Err("--out is required (see pe render --help)".into());
    };
    let width = check::int("width", args.width, limits::RENDER_WIDTH)?;
    let scale = match args.format {
        RenderFormat::Png => check::real("scale", args.scale, limits::RENDER_SCALE)?,
        _ => 1.0,
    };
    let (views, choice) = views(args.query.trim_start_matches('?'))?;
    let theme = match (args.theme, choice) {
        (Some(ThemeArg::Dark), _) | (None, ThemeChoice::Dark) => Theme::DARK,
        _ => Theme::LIGHT,
    };
    let size = (width, scale);
    if !args.all {
        let Some(id) = args.figure.as_deref() else {
            return Err("a figure id or --all is required (see pe render --help)".into());
        };
        return write(id, &views, theme, size, args.format, out);
    }
    if !std::path::Path::new(out).is_dir() {
        return Err(format!(
            "--out {} is not a folder (--all writes one file per figure into it)",
            quote(out)
        ));
    }
    let written = scene::ids()
        .map(|id| {
            let ext = format_name(args.format);
            write(
                id,
                &views,
                theme,
                size,
                args.format,
                &format!("{out}/{id}.{ext}"),
            )
        })
        .collect::<Checked<Vec<Value>>>()?;
    Ok(json!({ "figures": written }))
}

/// The extension and format name of `format`.
fn format_name(format: RenderFormat) -> &'static str {
    match format {
        RenderFormat::Svg => "svg",
        RenderFormat::Csv => "csv",
        RenderFormat::Png => "png",
    }
}

/// Draws figure `id` at `(width, scale)` in `format` and writes it to `out`; returns its summary.
fn write(
    id: &str,
    views: &Views,
    theme: Theme,
    (width, scale): (u32, f64),
    format: RenderFormat,
    out: &str,
) -> Checked<Value> {
    let picture = scene::picture(id, views, theme.scaled(scale))?;
    let device_width = (f64::from(width) * scale).round() as u32;
    let height: u32 = scene::svg::heights(&picture, device_width, scale)
        .iter()
        .sum();
    let bytes = match format {
        RenderFormat::Svg => scene::svg::render(&picture, width, None)?.into_bytes(),
        RenderFormat::Csv => picture.csv().into_bytes(),
        RenderFormat::Png => scene::png::render(&picture, width, scale)?,
    };
    std::fs::write(out, &bytes).map_err(|e| format!("could not write {}: {e}", quote(out)))?;
    Ok(json!({
        "figure": picture.id,
        "format": format_name(format),
        "out": out,
        "bytes": bytes.len(),
        "width": device_width,
        "height": height,
        "panels": picture.panels.iter().map(|(p, _)| p.title()).collect::<Vec<_>>(),
    }))
}
