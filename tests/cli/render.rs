//! `pe render`: every figure as SVG, PNG and CSV, and the README's pictures.

use super::*;

/// `pe render`'s output for `args` (written to a temporary file named after `name`): the JSON
/// summary and the file's text.
fn render(name: &str, args: &[&str]) -> (Value, String) {
    let path = format!("{}/render-{name}", env!("CARGO_TARGET_TMPDIR"));
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", &path]);
    let summary = json(&all);
    let text = std::fs::read_to_string(&path).expect("the file pe render wrote");
    assert_eq!(summary["out"], path.as_str());
    assert_eq!(summary["bytes"].as_u64(), Some(text.len() as u64));
    (summary, text)
}

/// The data rows of a CSV's panel `k` (from 1): the lines after its header, as fields.
fn csv_panel(text: &str, k: usize) -> (Vec<String>, Vec<Vec<String>>) {
    let marker = format!("# panel {k}: ");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&marker))
        .skip(1)
        .take_while(|l| !l.is_empty());
    let split = |l: &str| l.split(',').map(str::to_string).collect::<Vec<_>>();
    let header = split(lines.next().expect("a header row"));
    (header, lines.map(split).collect())
}

fn number(field: &str) -> f64 {
    field
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {field}"))
}

#[test]
fn render_draws_every_listed_figure_as_svg_with_its_panels() {
    let ids = json(&["render", "--list"]);
    let ids: Vec<&str> = ids["figures"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|v| v.as_str().expect("an id"))
        .collect();
    let book: Vec<&str> = pe_explorer::book::CHAPTERS
        .iter()
        .flat_map(|c| c.figures.iter().map(|f| f.id))
        .collect();
    let in_book_order: Vec<&str> = book.iter().copied().filter(|id| ids.contains(id)).collect();
    assert_eq!(ids, in_book_order, "figure ids of the book, in its order");
    for id in ids {
        let (summary, svg) = render(id, &[id, "--width", "640"]);
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{id}: {e}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{id}");
        assert_eq!(root.attribute("width"), Some("640"), "{id}");
        let height = summary["height"].as_u64().expect("height");
        assert_eq!(root.attribute("height"), Some(height.to_string().as_str()));
        let panels: Vec<_> = root
            .children()
            .filter(|n| n.tag_name().name() == "svg")
            .collect();
        let titles = summary["panels"].as_array().expect("panel titles");
        assert_eq!(panels.len(), titles.len(), "{id}: one <svg> per panel");
        let heights: u64 = panels
            .iter()
            .map(|p| {
                p.attribute("height")
                    .and_then(|h| h.parse::<u64>().ok())
                    .expect("h")
            })
            .sum();
        assert_eq!(heights, height, "{id}: the panels fill the picture");
        for (panel, title) in panels.iter().zip(titles) {
            let title = title.as_str().expect("title");
            let texts: Vec<&str> = panel
                .descendants()
                .filter_map(|n| n.text())
                .map(str::trim)
                .collect();
            assert!(texts.contains(&title), "{id}: “{title}” is drawn");
            // Something is drawn besides the background and the title: axes, curves, cells.
            assert!(
                panel.descendants().filter(|n| n.is_element()).count() > 10,
                "{id}"
            );
        }
    }
}

#[test]
fn render_csv_holds_the_numbers_the_figure_shows() {
    let p = SinusoidalParams {
        positions: 12,
        dim: 6,
        base: 100.0,
        layout: Layout::Half,
        spacing: Spacing::Paper,
    };
    let query = "n=12&d=6&base=100&layout=half&pos=3";
    // The table: one row per position, one column per dimension, the exact values.
    let (_, csv) = render(
        "heatmap.csv",
        &["fig-heatmap", "--query", query, "--format", "csv"],
    );
    assert!(csv.starts_with("# Positional Encoding Explorer · fig-heatmap"));
    assert!(csv.contains(&format!("# state: ?{query}")), "{csv}");
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header.len(), 7);
    assert_eq!(rows.len(), 12);
    for (pos, row) in rows.iter().enumerate() {
        assert_eq!(number(&row[0]), pos as f64);
        for (j, field) in row[1..].iter().enumerate() {
            // The table is computed by angle-addition steps: equal to the formula within 1e-12.
            assert!(
                (number(field) - p.value(pos, j)).abs() < 1e-12,
                "PE({pos}, {j})"
            );
        }
    }
    // Waves: one row per position, one column per chosen dimension.
    let (_, csv) = render(
        "waves.csv",
        &[
            "fig-waves",
            "--query",
            &format!("{query}&dims=1,4"),
            "--format",
            "csv",
        ],
    );
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header, ["position", "column 1", "column 4"]);
    assert_eq!(rows.len(), 12);
    assert!((number(&rows[7][2]) - p.value(7, 4)).abs() < 1e-12);
    // Similarity: the matrix, then the current position's row as a curve.
    let (summary, csv) = render(
        "similarity.csv",
        &["fig-similarity", "--query", query, "--format", "csv"],
    );
    assert_eq!(summary["panels"].as_array().map(Vec::len), Some(2));
    let mut m = Vec::new();
    similarity::sinusoidal_matrix_into(&p, &mut m);
    let (_, matrix) = csv_panel(&csv, 1);
    let (header, curve) = csv_panel(&csv, 2);
    assert_eq!(matrix.len(), 12);
    assert_eq!(number(&matrix[5][9]), m[5 * 12 + 8]);
    assert_eq!(header[0], "position b");
    assert_eq!(curve.len(), 12);
    for (b, row) in curve.iter().enumerate() {
        assert_eq!(number(&row[1]), m[3 * 12 + b], "row of position 3");
    }
    // Attention: the toy weights, rows and columns named by token.
    let (_, csv) = render(
        "attention.csv",
        &[
            "fig-attention",
            "--query",
            "s=dog+bites+man",
            "--format",
            "csv",
        ],
    );
    let (header, rows) = csv_panel(&csv, 1);
    assert_eq!(header[1..], ["dog ·0", "bites ·1", "man ·2"]);
    let w = attention::weights(&["dog", "bites", "man"], attention::TOY_DIM, false);
    assert_eq!(rows.len(), 3);
    assert_eq!(number(&rows[2][1]), w[2 * 3]);
}

#[test]
fn render_draws_pngs_at_the_scale_asked() {
    for (id, scale, width) in [
        ("fig-heatmap", "2", 640u32),
        ("fig-clocks", "1", 500),
        ("fig-naive", "1.5", 400),
    ] {
        let path = format!("{}/render-{id}.png", env!("CARGO_TARGET_TMPDIR"));
        let summary = json(&[
            "render",
            id,
            "--format",
            "png",
            "--scale",
            scale,
            "--width",
            &width.to_string(),
            "--out",
            &path,
        ]);
        let bytes = std::fs::read(&path).expect("the PNG");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{id}: PNG signature");
        assert_eq!(&bytes[12..16], b"IHDR");
        let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let scale: f64 = scale.parse().expect("scale");
        assert_eq!(
            be(16),
            (f64::from(width) * scale).round() as u32,
            "{id}: width"
        );
        assert_eq!(
            u64::from(be(20)),
            summary["height"].as_u64().expect("height"),
            "{id}"
        );
        assert_eq!(summary["width"].as_u64(), Some(u64::from(be(16))));
        // Not blank: the picture has many distinct bytes.
        let distinct: std::collections::HashSet<&u8> = bytes[100..].iter().collect();
        assert!(distinct.len() > 200, "{id}");
    }
}

#[test]
fn render_draws_the_dark_theme_and_the_query_theme() {
    let dark = "#161B22";
    let (_, svg) = render("dark.svg", &["fig-waves", "--theme", "dark"]);
    assert!(svg.contains(dark));
    let (_, svg) = render("query-dark.svg", &["fig-waves", "--query", "theme=dark"]);
    assert!(svg.contains(dark));
    let (_, svg) = render(
        "light.svg",
        &["fig-waves", "--query", "theme=dark", "--theme", "light"],
    );
    assert!(!svg.contains(dark) && svg.contains("#FFFFFF"));
}

#[test]
fn render_rejects_bad_ids_queries_widths_and_paths() {
    let out = format!("{}/render-bad", env!("CARGO_TARGET_TMPDIR"));
    let cases: [(&[&str], &[&str]); 7] = [
        (&["fig-nothing"], &["fig-nothing", "fig-waves"]),
        (
            &["fig-waves", "--query", "n=99999"],
            &["--query", "n (positions)"],
        ),
        (&["fig-waves", "--query", "zz=1"], &["unknown key", "zz"]),
        (
            &["fig-waves", "--query", "theme=sepia"],
            &["--query", "theme"],
        ),
        (
            &["fig-waves", "--width", "10"],
            &["--width 10", "320..=2400"],
        ),
        (
            &["fig-waves", "--format", "png", "--scale", "9"],
            &["--scale 9", "4"],
        ),
        (
            &["fig-waves", "--out", "/nonexistent/dir/x.svg"],
            &["could not write"],
        ),
    ];
    for (args, wants) in cases {
        let mut all = vec!["render"];
        all.extend_from_slice(args);
        if !args.contains(&"--out") {
            all.extend_from_slice(&["--out", &out]);
        }
        assert_one_line_error(&pe(&all), &format!("{args:?}"), wants);
    }
}

#[test]
fn render_all_writes_one_file_per_figure() {
    let dir = format!("{}/render-all", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).expect("folder");
    let ids = json(&["render", "--list"]);
    let v = json(&["render", "--all", "--format", "csv", "--out", &dir]);
    let written = v["figures"].as_array().expect("summaries");
    assert_eq!(written.len(), ids["figures"].as_array().map_or(0, Vec::len));
    for s in written {
        let id = s["figure"].as_str().expect("id");
        let text = std::fs::read_to_string(format!("{dir}/{id}.csv")).expect("the file");
        assert!(text.starts_with(&format!("# Positional Encoding Explorer · {id}")));
    }
    // Every figure as a PNG, 400 CSS pixels wide at 1.5 device pixels per CSS pixel.
    let v = json(&[
        "render", "--all", "--format", "png", "--width", "400", "--scale", "1.5", "--out", &dir,
    ]);
    for s in v["figures"].as_array().expect("summaries") {
        let id = s["figure"].as_str().expect("id");
        let bytes = std::fs::read(format!("{dir}/{id}.png")).expect("the PNG");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{id}");
        assert_eq!(
            u32::from_be_bytes(bytes[16..20].try_into().expect("4")),
            600,
            "{id}"
        );
        assert_eq!(s["width"].as_u64(), Some(600), "{id}");
    }
    let out = pe(&["render", "--all", "--out", "/nonexistent/folder"]);
    assert_one_line_error(&out, "--all into no folder", &["not a folder"]);
}

#[test]
fn the_readme_pictures_are_what_pe_render_draws_now() {
    let root = env!("CARGO_MANIFEST_DIR");
    let list = std::fs::read_to_string(format!("{root}/docs/figures/list.txt")).expect("list");
    for line in list.lines().filter(|l| !l.trim().is_empty()) {
        let (id, theme) = line.split_once(' ').expect("id theme");
        let name = format!("{id}-{theme}.png");
        let fresh = format!("{}/readme-{name}", env!("CARGO_TARGET_TMPDIR"));
        json(&[
            "render", id, "--format", "png", "--theme", theme, "--width", "720", "--scale", "1",
            "--out", &fresh,
        ]);
        let committed = std::fs::read(format!("{root}/docs/figures/{name}")).expect("committed");
        assert!(
            std::fs::read(&fresh).expect("fresh") == committed,
            "docs/figures/{name} is stale: run `make pictures`"
        );
    }
}
