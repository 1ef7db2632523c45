//! The app's module graph (issue 26): no import circle inside `src/app/`, and the shared pieces
//! (figure frame, controls, canvas, export, URL…) never import a chapter or a figure, so a chapter
//! can be taken out and loaded on its own; the shell (the page, the embed) knows the chapters only
//! through their registry, `app::chapters::UNITS`. Read from the sources: an edge is a path a module names
//! (`crate::app::…`, `super::…`, `self::…`, a child's `chapters::…`, and the items of a
//! `use …::{…}` list); a parent's
//! `mod child;` is not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Every module under `src/app/`, by path (`app::figures::rope::wheels`), with its source
/// (comments dropped).
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
                    .unwrap()
                    .with_extension("");
                let mut name = rel.to_string_lossy().replace('/', "::");
                if let Some(parent) = name.strip_suffix("::mod") {
                    name = parent.to_string();
                }
                let text = fs::read_to_string(&path).unwrap();
                let code: Vec<&str> = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap())
                    .collect();
                out.insert(name, code.join("\n"));
            }
        }
    }
    out
}

/// The paths a module's source names (`crate::…`, `super::…`, `chapters::rope::…`), with each
/// item of a `use base::{a, b::c}` list as `base::a`, `base::b`.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = (i == 0 || !is_word(bytes[i - 1])) && is_word(bytes[i]);
        let word_end = (i..bytes.len())
            .find(|&j| !is_word(bytes[j]))
            .unwrap_or(bytes.len());
        if starts_word && bytes.get(word_end) == Some(&':') && bytes.get(word_end + 1) == Some(&':')
        {
            let mut segs = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < bytes.len() && is_word(bytes[j]) {
                    j += 1;
                }
                segs.push(bytes[start..j].iter().collect::<String>());
                if bytes.get(j) == Some(&':') && bytes.get(j + 1) == Some(&':') {
                    j += 2;
                    if bytes.get(j) == Some(&'{') {
                        let end = bytes[j..]
                            .iter()
                            .position(|&c| c == '}')
                            .map_or(bytes.len(), |p| j + p);
                        let list: String = bytes[j + 1..end].iter().collect();
                        for item in list.split(',') {
                            let first = item.trim().split("::").next().unwrap_or("").trim();
                            let first: String = first.chars().take_while(|&c| is_word(c)).collect();
                            if !first.is_empty() {
                                let mut p = segs.clone();
                                p.push(first);
                                paths.push(p);
                            }
                        }
                        j = end;
                        segs.clear();
                        break;
                    }
                } else {
                    break;
                }
            }
            if !segs.is_empty() {
                paths.push(segs);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// The module a path from module `from` lands in (the longest prefix that is a module), if in
/// `src/app/`.
fn resolve(from: &str, path: &[String], mods: &BTreeMap<String, String>) -> Option<String> {
    let here: Vec<String> = from.split("::").map(str::to_string).collect();
    let child = format!("{from}::{}", path.first()?);
    let (mut full, skip) = match path[0].as_str() {
        "crate" => (Vec::new(), 1),
        "self" => (here, 1),
        "super" => (here, 0),
        // A path from a child module (`chapters::rope::Rope` in `app`).
        _ if mods.contains_key(&child) => (here, 0),
        _ => return None,
    };
    let mut rest = &path[skip..];
    while rest.first().is_some_and(|s| s == "super") {
        full.pop();
        rest = &rest[1..];
    }
    full.extend(rest.iter().cloned());
    (1..=full.len())
        .rev()
        .map(|k| full[..k].join("::"))
        .find(|m| mods.contains_key(m))
}

/// Each module's imports within `src/app/`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    mods.iter()
        .map(|(name, code)| {
            let targets = named_paths(code)
                .iter()
                .filter_map(|p| resolve(name, p, &mods))
                .filter(|t| t != name)
                .collect();
            (name.clone(), targets)
        })
        .collect()
}

/// A chapter's own code: its chapter file and its figures.
fn is_chapter(module: &str) -> bool {
    module.starts_with("app::chapters") || module.starts_with("app::figures")
}

/// The shell: the app's root and the embed page, which know the chapters through their registry.
fn is_shell(module: &str) -> bool {
    module == "app" || module == "app::embed"
}

#[test]
fn the_app_has_no_import_circle() {
    let graph = graph();
    assert!(graph.len() > 40, "found only {} modules", graph.len());
    // Depth-first search with colours; a grey target is a circle.
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        colour: &mut BTreeMap<&'a str, u8>,
        path: &mut Vec<&'a str>,
    ) -> Result<(), String> {
        colour.insert(m, 1);
        path.push(m);
        for t in &graph[m] {
            match colour.get(t.as_str()) {
                Some(1) => {
                    let at = path.iter().position(|p| p == t).unwrap();
                    return Err(format!("{} -> {t}", path[at..].join(" -> ")));
                }
                Some(_) => {}
                None => visit(t, graph, colour, path)?,
            }
        }
        path.pop();
        colour.insert(m, 2);
        Ok(())
    }
    let mut colour = BTreeMap::new();
    for m in graph.keys() {
        if !colour.contains_key(m.as_str()) {
            let mut path = Vec::new();
            if let Err(circle) = visit(m, &graph, &mut colour, &mut path) {
                panic!("import circle: {circle}");
            }
        }
    }
}

#[test]
fn shared_pieces_never_import_a_chapter() {
    let graph = graph();
    for (m, targets) in &graph {
        if is_chapter(m) || is_shell(m) {
            continue;
        }
        for t in targets {
            assert!(!is_chapter(t), "{m} (shared) imports {t} (a chapter's)");
        }
    }
    // The shell knows the chapters only through their registry (`app::chapters::UNITS`).
    for shell in ["app", "app::embed"] {
        for t in &graph[shell] {
            assert!(
                !is_chapter(t) || t == "app::chapters",
                "{shell} (the shell) imports {t}, not the chapters' registry"
            );
        }
        assert!(graph[shell].contains("app::chapters"), "{shell}");
    }
    assert!(graph["app::figure"].contains("app::canvas"));
}
