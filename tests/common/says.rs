//! What the claims tests ask of a sentence: that it says some phrases and never others. Shared by
//! the test crates that check prose (included with `#[path]`, so it is not a test crate itself); a crate may use only one of the two.

#![allow(dead_code)]

/// Fails, naming every phrase `text` lacks and showing the text, unless it contains each of
/// `phrases`.
#[track_caller]
pub fn assert_says(text: &str, phrases: &[&str]) {
    let missing: Vec<&str> = phrases
        .iter()
        .copied()
        .filter(|p| !text.contains(p))
        .collect();
    assert!(missing.is_empty(), "missing {missing:?} in:\n{text}");
}

/// Fails, naming every phrase `text` has and showing the text, if it contains any of `phrases`.
#[track_caller]
pub fn assert_never_says(text: &str, phrases: &[&str]) {
    let present: Vec<&str> = phrases
        .iter()
        .copied()
        .filter(|p| text.contains(p))
        .collect();
    assert!(present.is_empty(), "should not say {present:?} in:\n{text}");
}

/// Fails, showing the text, unless `text` begins with `opening`.
#[track_caller]
pub fn assert_opens(text: &str, opening: &str) {
    assert!(
        text.starts_with(opening),
        "should open with {opening:?}:\n{text}"
    );
}
