//! The edge where raw input (a URL query, a typed number) becomes typed, clamped parameters.
//!
//! Pure and web-free so it is tested natively; `app::state` wraps it in signals. Nothing here can
//! panic: every malformed or out-of-range value falls back to a default or is clamped, and a
//! [`Notice`] says what happened so the page can show it.

pub mod context;
pub mod decl;
pub mod listed;
pub mod models;
pub mod rope;
pub mod sinusoids;
pub mod tables;
pub mod vision;

pub use decl::Declared;
pub use sinusoids::*;

/// Every chapter's view: what a link's query describes, typed and clamped. The app holds it in
/// signals (`app::state`); `scene` draws any figure from it natively.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Views {
    /// Chapter 1's encoding, position and waves.
    pub sinusoidal: SinusoidalView,
    /// The order-blindness figure.
    pub order: OrderView,
    /// The naive-fixes figure.
    pub naive: NaiveView,
    /// Chapter 2, RoPE.
    pub rope: rope::RopeView,
    /// Chapter 3, context extension.
    pub context: context::ContextView,
    /// Chapter 4, tables and biases.
    pub tables: tables::TablesView,
    /// Chapter 5, today's models.
    pub models: models::ModelsView,
    /// Chapter 6, beyond a line: images and video.
    pub vision: vision::VisionView,
}

/// The query key naming the one figure a page embeds (`?embed=fig-heatmap`): not a state key, it
/// picks what the page shows.
pub const EMBED_KEY: &str = "embed";

/// Every key a link's query sets: each chapter's, from its tables, and `theme`.
pub fn state_keys() -> impl Iterator<Item = &'static str> {
    sinusoids::keys()
        .chain(rope::TABLE.keys())
        .chain(context::TABLE.keys())
        .chain(tables::TABLE.keys())
        .chain(models::TABLE.keys())
        .chain(vision::TABLE.keys())
        .chain(["theme"])
}

/// Whether `key` is one a link's query sets: a chapter's state key or `theme`.
pub fn is_state_key(key: &str) -> bool {
    state_keys().any(|k| k == key)
}

impl Views {
    /// The views described by query `pairs`, and a notice for each value not taken as given.
    pub fn from_query(pairs: &[(String, String)]) -> (Views, Vec<Notice>) {
        let (sinusoidal, mut notices) = SinusoidalView::from_query(pairs);
        let (order, more) = OrderView::from_query(pairs);
        notices.extend(more);
        let (naive, more) = NaiveView::from_query(pairs);
        notices.extend(more);
        let (rope, more) = rope::RopeView::from_query(pairs);
        notices.extend(more);
        let (context, more) = context::ContextView::from_query(pairs);
        notices.extend(more);
        let (tables, more) = tables::TablesView::from_query(pairs);
        notices.extend(more);
        let (models, more) = models::ModelsView::from_query(pairs);
        notices.extend(more);
        let (vision, more) = vision::VisionView::from_query(pairs);
        notices.extend(more);
        let views = Views {
            sinusoidal,
            order,
            naive,
            rope,
            context,
            tables,
            models,
            vision,
        };
        (views, notices)
    }
}

/// A message for the reader about an input that was not taken as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice(pub String);

/// Longest piece of a reader's value a notice quotes (a link is untrusted: it must not be able to
/// fill the page's banner with its own words).
pub const QUOTE_CHARS: usize = 40;

/// Longest query string read, in bytes (longer links are cut at the last `&` before this).
pub const MAX_QUERY_BYTES: usize = 8192;

/// Longest sentence (or word) a text field takes, in characters.
pub const MAX_SENTENCE_CHARS: usize = 200;

/// `text` as a notice quotes it: at most [`QUOTE_CHARS`] characters, then "…"; control characters
/// (line breaks, bidi overrides…) shown as "�".
pub fn quote(text: &str) -> String {
    quote_cut(text, QUOTE_CHARS)
}

/// A whole message that may hold a reader's text (a config's error, say): one line of at most
/// 240 characters, cut like [`quote`].
pub fn quote_line(text: &str) -> String {
    quote_cut(text, 240)
}

/// `text` cut to `max` characters (then "…"), control and bidi characters shown as "�".
fn quote_cut(text: &str, max: usize) -> String {
    let visible = |c: char| {
        if c.is_control()
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
        {
            '\u{fffd}'
        } else {
            c
        }
    };
    let mut out: String = text.chars().take(max).map(visible).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Refuses a text field's value longer than [`MAX_SENTENCE_CHARS`] characters (`what` names it).
pub fn check_length(what: &str, text: &str) -> Result<(), Notice> {
    let n = text.chars().count();
    if n > MAX_SENTENCE_CHARS {
        Err(Notice(format!(
            "{what} has {n} characters; at most {MAX_SENTENCE_CHARS} are taken. Keeping the previous one."
        )))
    } else {
        Ok(())
    }
}

/// Decodes `%XX` escapes and `+` (as a space) of one query component. Invalid escapes are kept
/// literally; invalid UTF-8 is replaced (never an error, never a panic).
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes one query component: unreserved characters (RFC 3986) as they are, the rest as `%XX`.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The `key=value` pairs of a query string (with or without its leading `?`), decoded, in order.
pub fn parse_query(search: &str) -> Vec<(String, String)> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (k, v) = part.split_once('=').unwrap_or((part, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// [`parse_query`] of at most [`MAX_QUERY_BYTES`] bytes: a longer query is cut at its last `&`
/// within the limit (so no value is read half), with a notice.
pub fn parse_query_capped(search: &str) -> (Vec<(String, String)>, Option<Notice>) {
    if search.len() <= MAX_QUERY_BYTES {
        return (parse_query(search), None);
    }
    let mut end = MAX_QUERY_BYTES;
    while !search.is_char_boundary(end) {
        end -= 1;
    }
    let kept = search[..end].rfind('&').map_or("", |amp| &search[..amp]);
    let notice = Notice(format!(
        "The link's settings are {} KB long; only the first {} KB are read.",
        search.len().div_ceil(1024),
        MAX_QUERY_BYTES / 1024
    ));
    (parse_query(kept), Some(notice))
}

/// Builds a query string (with a leading `?`, or empty when there are no pairs).
pub fn build_query(pairs: &[(&str, String)]) -> String {
    if pairs.is_empty() {
        return String::new();
    }
    let body: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v)))
        .collect();
    format!("?{}", body.join("&"))
}

/// Formats a float for a URL or a label: the shortest form that reads back as the same value.
pub fn format_number(x: f64) -> String {
    format!("{x}")
}

/// Clamps a float to `[lo, hi]`; a non-finite value becomes `fallback`. Every clamp comes with a notice naming `what`.
pub fn clamp_f64(
    what: &str,
    value: f64,
    (lo, hi): (f64, f64),
    fallback: f64,
) -> (f64, Option<Notice>) {
    if !value.is_finite() {
        (
            fallback,
            Some(Notice(format!(
                "{what} must be a finite number; using {fallback}."
            ))),
        )
    } else if value < lo || value > hi {
        let (bound, side) = if value < lo {
            (lo, "below the minimum")
        } else {
            (hi, "above the maximum")
        };
        (
            bound,
            Some(Notice(format!(
                "{what} = {} is {side} {bound}; using {bound}.",
                quote(&format_significant(value, 6))
            ))),
        )
    } else {
        (value, None)
    }
}

/// Parses and clamps an integer from text (a URL value or a number box). Text that is not a number
/// gives `fallback` and a notice. Decimals are rounded; negative numbers clamp to the minimum.
pub fn parse_usize(
    what: &str,
    text: &str,
    (lo, hi): (usize, usize),
    fallback: usize,
) -> (usize, Option<Notice>) {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => {
            let (v, notice) = clamp_f64(what, x.round(), (lo as f64, hi as f64), fallback as f64);
            (v as usize, notice)
        }
        _ => (
            fallback,
            Some(Notice(format!(
                "{what} = “{text}” is not a number; using {fallback}.",
                text = quote(text)
            ))),
        ),
    }
}

/// An even number in `range`: odd values are rounded down (with a notice).
pub fn parse_even(
    what: &str,
    text: &str,
    range: (usize, usize),
    fallback: usize,
) -> (usize, Option<Notice>) {
    let (v, notice) = parse_usize(what, text, range, fallback);
    if v % 2 == 1 {
        let even = if v > range.0 { v - 1 } else { v + 1 };
        let notice = notice.or_else(|| {
            Some(Notice(format!(
                "{what} = {v} is odd (coordinates rotate in pairs); using {even}."
            )))
        });
        (even, notice)
    } else {
        (v, notice)
    }
}

/// [`parse_usize`] for a value that must be a multiple of `step` (4: a vision head, whose rows
/// and columns each take half of it in pairs): one between multiples rounds down, or up to the
/// first multiple at the range's start.
pub fn parse_multiple(
    what: &str,
    text: &str,
    range: (usize, usize),
    fallback: usize,
    step: usize,
) -> (usize, Option<Notice>) {
    let (v, notice) = parse_usize(what, text, range, fallback);
    if v % step == 0 {
        return (v, notice);
    }
    let down = v - v % step;
    let m = if down >= range.0.max(step) {
        down
    } else {
        down + step
    };
    let notice = notice.or_else(|| {
        Some(Notice(format!(
            "{what} = {v} is not a multiple of {step} (the rows and the columns each turn half \
             of the head, in pairs); using {m}."
        )))
    });
    (m, notice)
}

/// Parses and clamps a float from text; see [`parse_usize`].
pub fn parse_f64(
    what: &str,
    text: &str,
    range: (f64, f64),
    fallback: f64,
) -> (f64, Option<Notice>) {
    match text.trim().parse::<f64>() {
        Ok(x) => clamp_f64(what, x, range, fallback),
        Err(_) => (
            fallback,
            Some(Notice(format!(
                "{what} = “{text}” is not a number; using {fallback}.",
                text = quote(text)
            ))),
        ),
    }
}

/// The reader's colour-scheme choice (`theme=light|dark` in the URL; absent = follow the system).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    /// Reads `theme` from query pairs; an unknown value gives `Auto` and a notice.
    pub fn from_query(pairs: &[(String, String)]) -> (ThemeChoice, Option<Notice>) {
        match pairs.iter().rev().find(|(k, _)| k == "theme") {
            None => (ThemeChoice::Auto, None),
            Some((_, v)) => match v.as_str() {
                "light" => (ThemeChoice::Light, None),
                "dark" => (ThemeChoice::Dark, None),
                "auto" => (ThemeChoice::Auto, None),
                other => (
                    ThemeChoice::Auto,
                    Some(Notice(format!(
                        "theme = “{other}” is not one of light, dark, auto; following the system.",
                        other = quote(other)
                    ))),
                ),
            },
        }
    }

    /// The query pair for this choice (none for `Auto`).
    pub fn to_query(self) -> Option<(&'static str, String)> {
        match self {
            ThemeChoice::Auto => None,
            ThemeChoice::Light => Some(("theme", "light".into())),
            ThemeChoice::Dark => Some(("theme", "dark".into())),
        }
    }
}

/// A number with `digits` significant digits: plain when that reads well (0.0001, 57.3, 54400),
/// scientific for tiny or huge magnitudes (1.000e-6), never "0.000000" for a small nonzero value.
pub fn format_significant(x: f64, digits: i32) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&magnitude) {
        return format!("{:.*e}", (digits - 1).max(0) as usize, x);
    }
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Rounds a positive number to `digits` significant digits (for log-slider values: 11220.18 → 11200).
pub fn round_significant(x: f64, digits: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let magnitude = x.abs().log10().floor() as i32;
    let factor = 10f64.powi(digits - 1 - magnitude);
    (x * factor).round() / factor
}

#[cfg(test)]
mod tests {
    use super::parse_query as q;
    use super::*;

    #[test]
    fn quotes_are_short_and_plain() {
        assert_eq!(quote("abc"), "abc");
        let long = "é".repeat(1200);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 1);
        assert!(q.ends_with('…'));
        assert_eq!(quote("a\nb\u{202e}c"), "a\u{fffd}b\u{fffd}c");
        // A clamp notice of a huge number stays short.
        let (_, n) = parse_f64("base", "1e300", (2.0, 1e6), 10_000.0);
        assert!(n.unwrap().0.len() < 80);
        let (v, n) = parse_usize("n", &"9".repeat(300), (1, 1024), 64);
        assert_eq!(v, 1024);
        assert!(n.unwrap().0.len() < 120);
        // 1,200 nines overflow to infinity: not finite, so the default.
        let (v, n) = parse_usize("n", &"9".repeat(1200), (1, 1024), 64);
        assert_eq!(v, 64);
        assert!(n.unwrap().0.len() < 120);
        let (_, n) = parse_usize("n", &"x".repeat(1200), (1, 1024), 64);
        assert!(n.unwrap().0.len() < 120);
    }

    #[test]
    fn long_queries_are_cut_at_a_whole_pair() {
        let short = "?n=3&d=4";
        assert_eq!(parse_query_capped(short), (parse_query(short), None));
        let long = format!("?n=3&d=4&s={}&base=99", "w%20".repeat(4000));
        let (pairs, notice) = parse_query_capped(&long);
        assert_eq!(pairs, parse_query("?n=3&d=4"));
        assert!(notice.unwrap().0.contains("only the first 8 KB"));
        // Multi-byte text at the cut never splits a character.
        let wide = format!("?a=1&s={}", "é".repeat(5000));
        assert_eq!(parse_query_capped(&wide).0, parse_query("?a=1"));
        assert!(check_length("The sentence", &"a".repeat(MAX_SENTENCE_CHARS)).is_ok());
        assert!(check_length("The sentence", &"a".repeat(MAX_SENTENCE_CHARS + 1)).is_err());
    }

    #[test]
    fn every_chapter_table_is_sound() {
        decl::check_table(&sinusoids::TABLE, "");
        decl::check_table(&sinusoids::ORDER_TABLE, "");
        decl::check_table(&sinusoids::NAIVE_TABLE, "");
        decl::check_table(&rope::TABLE, rope::PREFIX);
        decl::check_table(&context::TABLE, context::PREFIX);
        decl::check_table(&tables::TABLE, tables::PREFIX);
        decl::check_table(&models::TABLE, models::PREFIX);
        decl::check_table(&vision::TABLE, vision::PREFIX);
    }

    #[test]
    fn chapter_keys_never_collide() {
        let mut all: Vec<&str> = state_keys().collect();
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count, "a key is read by two chapters");
        assert!(sinusoids::keys().all(|k| !k.contains('.')));
        assert!(is_state_key("r.pair") && is_state_key("theme") && !is_state_key("r.zzz"));
    }

    #[test]
    fn query_round_trips_through_encoding() {
        let pairs = vec![
            ("s", "the brown dog & co=1 ü".to_string()),
            ("n", "7".into()),
        ];
        let built = build_query(&pairs);
        let back = parse_query(&built);
        assert_eq!(
            back,
            vec![
                ("s".into(), "the brown dog & co=1 ü".into()),
                ("n".into(), "7".into())
            ]
        );
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%zz%41"), "%zzA");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
    }

    #[test]
    fn theme_choice_reads_and_writes() {
        assert_eq!(
            ThemeChoice::from_query(&q("theme=dark")),
            (ThemeChoice::Dark, None)
        );
        assert_eq!(
            ThemeChoice::from_query(&q("n=3")),
            (ThemeChoice::Auto, None)
        );
        let (choice, notice) = ThemeChoice::from_query(&q("theme=purple"));
        assert_eq!(choice, ThemeChoice::Auto);
        assert!(notice.is_some());
        assert_eq!(
            ThemeChoice::Light.to_query(),
            Some(("theme", "light".to_string()))
        );
        assert_eq!(ThemeChoice::Auto.to_query(), None);
    }

    #[test]
    fn significant_formatting() {
        assert_eq!(format_significant(0.000001, 4), "1.000e-6");
        assert_eq!(format_significant(1e-4, 4), "0.0001000");
        assert_eq!(format_significant(57.2958, 3), "57.3");
        assert_eq!(format_significant(54410.2, 4), "54410");
        assert_eq!(format_significant(-0.01234, 2), "-0.012");
        assert_eq!(format_significant(0.0, 3), "0");
        assert_eq!(format_significant(2.5e9, 3), "2.50e9");
    }

    #[test]
    fn significant_rounding() {
        assert_eq!(round_significant(11220.18, 3), 11200.0);
        assert_eq!(round_significant(2.0, 3), 2.0);
        assert_eq!(round_significant(999_999.0, 3), 1_000_000.0);
    }
}
