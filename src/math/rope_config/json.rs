//! Reading JSON values for a config: numbers within this app's limits, messages that name the
//! key (`rope_scaling.factor`) and show the value.

use serde_json::{Map, Value};

/// serde_json's message as `line L, column C: what`.
pub(super) fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let what = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(w, _)| w);
    format!("line {}, column {}: {what}", e.line(), e.column())
}

/// A JSON value's kind, for messages.
pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as it appears in the config, cut short for messages.
pub(super) fn shown(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// A number in messages and ranges: plain when short, exponent form (`1e6`) when long.
pub fn number_text(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-2..1e5).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` within the inclusive range, or an error naming `what`.
pub(super) fn in_range(what: &str, v: f64, (lo, hi): (f64, f64)) -> Result<f64, String> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{what} {} is out of this app's range {}..={}",
            number_text(v),
            number_text(lo),
            number_text(hi)
        ))
    }
}

/// A whole number within the inclusive `usize` range.
pub(super) fn int_in_range(what: &str, v: f64, (lo, hi): (usize, usize)) -> Result<usize, String> {
    in_range(what, v, (lo as f64, hi as f64)).map(|v| v as usize)
}

/// Where a value sits, for messages: `rope_scaling.factor`, or a top-level key alone.
pub(super) fn path(owner: &str, key: &str) -> String {
    if owner.is_empty() {
        key.to_string()
    } else {
        format!("{owner}.{key}")
    }
}

/// A number of `map` (None when absent or null), or an error naming `owner.key`.
pub(super) fn number(
    map: &Map<String, Value>,
    owner: &str,
    key: &str,
) -> Result<Option<f64>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(|| format!("{} is not a finite number", path(owner, key))),
        Some(other) => Err(format!(
            "{} must be a number, got {}",
            path(owner, key),
            shown(other)
        )),
    }
}

/// A whole, non-negative number of `map` (None when absent or null).
pub(super) fn whole(
    map: &Map<String, Value>,
    owner: &str,
    key: &str,
) -> Result<Option<f64>, String> {
    match number(map, owner, key)? {
        Some(v) if v < 0.0 || v.fract() != 0.0 => Err(format!(
            "{} must be a whole number, got {}",
            path(owner, key),
            number_text(v)
        )),
        v => Ok(v),
    }
}
