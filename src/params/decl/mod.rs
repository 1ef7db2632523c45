//! Parameters declared once. A chapter's URL parameters are a [`Table`] of [`Param`] rows — key,
//! kind, range, how a bad value is reported — and this one piece of code reads, clamps, notices
//! and writes every chapter's from those rows ([`read`], [`write`]); the fuzz tests take their keys
//! from the same rows ([`Table::keys`]). A view's defaults are its `Default`: a row leaves its key
//! out of a link when the value writes as the default view's does (or as its `omit` says).
//!
//! Adding a parameter is one row, in its chapter's list ([`super::listed`]), which writes the
//! chapter's table. Rows whose range depends on other keys (a position below the number of
//! positions) are `late`: read after every other key, once the table's `fit` has fitted the value
//! to what was read.

use super::{Notice, format_number, parse_even, parse_f64, parse_multiple, parse_usize, quote};

#[cfg(test)]
mod check;
#[cfg(test)]
pub use check::{check_round_trip, check_table};

/// How one parameter is read from a link's text and written back.
pub enum Kind<V: 'static> {
    /// A whole number within a range (decimals round, out-of-range values clamp); with a `step`
    /// above 1, a value between multiples of it rounds down to one (up at the range's start).
    Int {
        /// Its name in notices (`r.d (head_dim)`).
        name: &'static str,
        /// Its range: fixed, or of the view read so far (then the row is late).
        range: Range<V>,
        /// Only multiples of this (1: any; 2: coordinates turn in pairs; 4: a head split between
        /// two axes, each turning pairs).
        step: usize,
        /// Reads it from the view.
        get: fn(&V) -> usize,
        /// Stores it in the view.
        set: fn(&mut V, usize),
    },
    /// A finite number within a range.
    Float {
        /// Its name in notices.
        name: &'static str,
        /// Its range.
        range: (f64, f64),
        /// Reads it from the view.
        get: fn(&V) -> f64,
        /// Stores it in the view.
        set: fn(&mut V, f64),
    },
    /// One of a few names (an enum's `as_str` names).
    Choice {
        /// The names a link may give, in the order a notice lists them.
        names: &'static [&'static str],
        /// Said after the names in a notice (empty, or a few words on what they mean).
        hint: &'static str,
        /// The name of the view's value.
        get: fn(&V) -> &'static str,
        /// Stores the value named (one of `names`).
        set: fn(&mut V, &str),
    },
    /// A seed: a whole number from 0 to 2⁶⁴ − 1.
    Seed {
        /// Reads it from the view.
        get: fn(&V) -> u64,
        /// Stores it in the view.
        set: fn(&mut V, u64),
    },
    /// On or off, written 1 or 0 (1, true, on, yes and 0, false, off, no are read).
    Flag {
        /// Reads it from the view.
        get: fn(&V) -> bool,
        /// Stores it in the view.
        set: fn(&mut V, bool),
    },
    /// A value with a grammar of its own (a sentence, a list, a pair of numbers): it reads the
    /// text into the view (or says why not) and writes it back.
    Own {
        /// Reads the text into the view; a notice when it is not taken as given.
        read: fn(&mut V, &str) -> Option<Notice>,
        /// The text of the view's value.
        write: fn(&V) -> String,
    },
}

/// A whole number's range: fixed, or depending on the rest of the view (read late).
#[derive(Clone, Copy)]
pub enum Range<V: 'static> {
    /// The same bounds whatever else the link says.
    Fixed((usize, usize)),
    /// Bounds from the view as read so far (the row is read after every fixed one).
    Of(fn(&V) -> (usize, usize)),
}

/// One URL parameter of a chapter's view `V`.
pub struct Param<V: 'static> {
    /// Its key, the chapter's prefix included (`r.d`).
    pub key: &'static str,
    /// How it is read and written.
    pub kind: Kind<V>,
    /// Left out of a link when this holds; `None`: when it writes as the default view's value.
    pub omit: Option<fn(&V) -> bool>,
    /// Read after every other row (and after the table's `fit`): its value depends on them.
    pub late: bool,
}

/// A chapter's (or a figure's) parameters: its rows, and what fits the values that depend on
/// others before the late rows are read. Written from the chapter's list of fields
/// ([`super::listed::declared!`]): every field's rows, in the list's order.
pub struct Table<V: 'static> {
    /// The rows, in the order a link writes them.
    pub params: &'static [Param<V>],
    /// Fits values whose range depends on other keys once those are read (a late row's value,
    /// when the link does not give it, is what this leaves).
    pub fit: fn(&mut V),
}

impl<V> Param<V> {
    /// Reads `text` into `view`; a notice when it is not taken as given. A value that is not
    /// understood keeps the view's current one (the default, or what `fit` left).
    fn read(&self, view: &mut V, text: &str) -> Option<Notice> {
        let key = self.key;
        match &self.kind {
            Kind::Int {
                name,
                range,
                step,
                get,
                set,
            } => {
                let bounds = match range {
                    Range::Fixed(b) => *b,
                    Range::Of(of) => of(view),
                };
                let (x, notice) = match step {
                    1 => parse_usize(name, text, bounds, get(view)),
                    2 => parse_even(name, text, bounds, get(view)),
                    _ => parse_multiple(name, text, bounds, get(view), *step),
                };
                set(view, x);
                notice
            }
            Kind::Float {
                name,
                range,
                get,
                set,
            } => {
                let (x, notice) = parse_f64(name, text, *range, get(view));
                set(view, x);
                notice
            }
            Kind::Choice {
                names,
                hint,
                get,
                set,
            } => {
                if names.contains(&text) {
                    set(view, text);
                    None
                } else {
                    let hint = if hint.is_empty() {
                        String::new()
                    } else {
                        format!(" {hint}")
                    };
                    Some(Notice(format!(
                        "{key} = “{}” is not one of {}{hint}; using {}.",
                        quote(text),
                        names.join(", "),
                        get(view)
                    )))
                }
            }
            Kind::Seed { get, set } => match text.trim().parse::<u64>() {
                Ok(seed) => {
                    set(view, seed);
                    None
                }
                Err(_) => Some(Notice(format!(
                    "{key} = “{}” is not a whole number from 0 to {}; using {}.",
                    quote(text),
                    u64::MAX,
                    get(view)
                ))),
            },
            Kind::Flag { get, set } => match text.trim() {
                "1" | "true" | "on" | "yes" => {
                    set(view, true);
                    None
                }
                "0" | "false" | "off" | "no" => {
                    set(view, false);
                    None
                }
                _ => Some(Notice(format!(
                    "{key} = “{}” is not 1 or 0; using {}.",
                    quote(text),
                    u8::from(get(view))
                ))),
            },
            Kind::Own { read, .. } => read(view, text),
        }
    }

    /// The text a link holds for the view's value.
    fn write(&self, view: &V) -> String {
        match &self.kind {
            Kind::Int { get, .. } => get(view).to_string(),
            Kind::Float { get, .. } => format_number(get(view)),
            Kind::Choice { get, .. } => get(view).to_string(),
            Kind::Seed { get, .. } => get(view).to_string(),
            Kind::Flag { get, .. } => u8::from(get(view)).to_string(),
            Kind::Own { write, .. } => write(view),
        }
    }
}

impl<V> Table<V> {
    /// Every row, in order.
    pub fn rows(&self) -> impl Iterator<Item = &Param<V>> + '_ {
        self.params.iter()
    }

    /// Every key the table reads, in order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.rows().map(|p| p.key)
    }

    /// Whether the table reads `key`.
    pub fn has(&self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }
}

/// A view whose parameters are declared in a [`Table`], which reads it from a link and writes it
/// back ([`read`], [`write`]).
pub trait Declared: Default + Sized + 'static {
    /// The view's parameters, one row each, in the order a link writes them.
    const TABLE: &'static Table<Self>;

    /// The view query `pairs` describe, and a notice for each value not taken as given (a bad
    /// value falls back or clamps); keys of other views are passed over.
    fn from_query(pairs: &[(String, String)]) -> (Self, Vec<Notice>) {
        read(Self::TABLE, pairs)
    }

    /// The query pairs of this view, leaving out values a link need not carry (defaults).
    fn to_query(&self) -> Vec<(&'static str, String)> {
        write(Self::TABLE, self)
    }
}

/// The view a link's query `pairs` describe, and a notice for each value not taken as given.
/// Keys the table does not declare belong to others and are passed over. Keys are read in the
/// link's order (a repeated key: the last one wins, each with its notice), the late ones after the
/// others, once `fit` has run.
pub fn read<V: Default>(table: &Table<V>, pairs: &[(String, String)]) -> (V, Vec<Notice>) {
    let mut view = V::default();
    let mut notices = Vec::new();
    let row = |key: &str| table.rows().find(|p| p.key == key);
    let mut late = Vec::new();
    for (key, text) in pairs {
        match row(key) {
            Some(p) if p.late => late.push((p, text)),
            Some(p) => notices.extend(p.read(&mut view, text)),
            None => {}
        }
    }
    (table.fit)(&mut view);
    for (p, text) in late {
        notices.extend(p.read(&mut view, text));
    }
    (view, notices)
}

/// The query pairs of `view`: every row whose value is not left out (by default, those that
/// write as the default view's do), in the table's order.
pub fn write<V: Default>(table: &Table<V>, view: &V) -> Vec<(&'static str, String)> {
    let default = V::default();
    table
        .rows()
        .filter_map(|p| {
            let text = p.write(view);
            let omit = match p.omit {
                Some(omit) => omit(view),
                None => text == p.write(&default),
            };
            (!omit).then_some((p.key, text))
        })
        .collect()
}

// Row constructors, so a table reads as a list of declarations. The macros `int!`, `even!`,
// `float!`, `seed!` and `flag!` declare a row whose value is a field of the view
// (`int!("t.k", "t.k (Shaw's k)", SHAW_K, shaw_k)`), `int_within!` one whose range depends on
// the others; the `…_row` functions take its accessors.

/// A row of `kind`, written whenever it differs from the default and read in the link's order.
const fn row<V>(key: &'static str, kind: Kind<V>) -> Param<V> {
    Param {
        key,
        kind,
        omit: None,
        late: false,
    }
}

/// A whole number in `range`.
pub const fn int_row<V>(
    key: &'static str,
    name: &'static str,
    range: (usize, usize),
    get: fn(&V) -> usize,
    set: fn(&mut V, usize),
) -> Param<V> {
    let range = Range::Fixed(range);
    row(
        key,
        Kind::Int {
            name,
            range,
            step: 1,
            get,
            set,
        },
    )
}

/// A whole number in `range` that is a multiple of `step`.
const fn stepped_row<V>(
    (key, name, range): (&'static str, &'static str, (usize, usize)),
    get: fn(&V) -> usize,
    set: fn(&mut V, usize),
    multiple: usize,
) -> Param<V> {
    let mut param = int_row(key, name, range, get, set);
    if let Kind::Int { step, .. } = &mut param.kind {
        *step = multiple;
    }
    param
}

/// An even whole number in `range` (a head_dim: coordinates turn in pairs).
pub const fn even_row<V>(
    key: &'static str,
    name: &'static str,
    range: (usize, usize),
    get: fn(&V) -> usize,
    set: fn(&mut V, usize),
) -> Param<V> {
    stepped_row((key, name, range), get, set, 2)
}

/// A whole number in `range` that is a multiple of 4 (a vision head_dim: the rows and the
/// columns each take half of it, turning in pairs).
pub const fn quarter_row<V>(
    key: &'static str,
    name: &'static str,
    range: (usize, usize),
    get: fn(&V) -> usize,
    set: fn(&mut V, usize),
) -> Param<V> {
    stepped_row((key, name, range), get, set, 4)
}

/// A whole number whose range depends on the other keys (read after them).
pub const fn int_within_row<V>(
    key: &'static str,
    name: &'static str,
    range: fn(&V) -> (usize, usize),
    get: fn(&V) -> usize,
    set: fn(&mut V, usize),
) -> Param<V> {
    let range = Range::Of(range);
    row(
        key,
        Kind::Int {
            name,
            range,
            step: 1,
            get,
            set,
        },
    )
    .late()
}

/// A finite number in `range`.
pub const fn float_row<V>(
    key: &'static str,
    name: &'static str,
    range: (f64, f64),
    get: fn(&V) -> f64,
    set: fn(&mut V, f64),
) -> Param<V> {
    row(
        key,
        Kind::Float {
            name,
            range,
            get,
            set,
        },
    )
}

/// One of `names`.
pub const fn choice<V>(
    key: &'static str,
    names: &'static [&'static str],
    get: fn(&V) -> &'static str,
    set: fn(&mut V, &str),
) -> Param<V> {
    let hint = "";
    row(
        key,
        Kind::Choice {
            names,
            hint,
            get,
            set,
        },
    )
}

/// A seed (0 … 2⁶⁴ − 1).
pub const fn seed_row<V>(key: &'static str, get: fn(&V) -> u64, set: fn(&mut V, u64)) -> Param<V> {
    row(key, Kind::Seed { get, set })
}

/// On or off (written 1 or 0).
pub const fn flag_row<V>(
    key: &'static str,
    get: fn(&V) -> bool,
    set: fn(&mut V, bool),
) -> Param<V> {
    row(key, Kind::Flag { get, set })
}

/// A value with its own grammar.
pub const fn own<V>(
    key: &'static str,
    read: fn(&mut V, &str) -> Option<Notice>,
    write: fn(&V) -> String,
) -> Param<V> {
    row(key, Kind::Own { read, write })
}

/// Declares a row of `$kind` (`int_row`, `float_row`, …) whose value is the view's field
/// `$field` (a path like `params.dim` or `view[0]`), after the kind's other arguments.
macro_rules! field_row {
    ($kind:ident, $key:literal, $($arg:expr,)* @ $($field:tt)+) => {
        $crate::params::decl::$kind($key, $($arg,)* |v| v.$($field)+, |v, x| v.$($field)+ = x)
    };
}

/// Declares each `$name!(key, name, range, field)`: a row of `$row` with that key, name and
/// range, whose value is the view's `field`. (`$d` is a `$`, so that the macros it declares can
/// have arguments of their own.)
macro_rules! ranged_rows {
    ($d:tt $($(#[$doc:meta])* $name:ident => $row:ident;)*) => {$(
        $(#[$doc])*
        macro_rules! $name {
            ($d key:literal, $d label:literal, $d range:expr, $d($d field:tt)+) => {
                $d crate::params::decl::field_row!($row, $d key, $d label, $d range, @ $d($d field)+)
            };
        }
    )*};
}

ranged_rows! { $
    /// `int!(key, name, range, field)`: a whole number in `range`, the view's `field`.
    int => int_row;
    /// `even!(key, name, range, field)`: an even whole number in `range`, the view's `field`.
    even => even_row;
    /// `quarter!(key, name, range, field)`: a multiple of 4 in `range`, the view's `field`.
    quarter => quarter_row;
    /// `int_within!(key, name, |v| range, field)`: a whole number whose range depends on the
    /// other keys (read after them), the view's `field`.
    int_within => int_within_row;
    /// `float!(key, name, range, field)`: a finite number in `range`, the view's `field`.
    float => float_row;
}

/// `seed!(key, field)`: a seed, the view's `field`.
macro_rules! seed {
    ($key:literal, $($field:tt)+) => {
        $crate::params::decl::field_row!(seed_row, $key, @ $($field)+)
    };
}

/// `named!(key, Type, field[; hint])`: one of `Type`'s named values ([`crate::names::named!`]),
/// the view's `field` (a path like `params.layout`); a name `Type` does not know reads as its
/// default, and a notice about it ends with `hint`.
macro_rules! named {
    ($key:literal, $ty:ty, $($field:ident).+; $hint:literal) => {
        $crate::params::decl::Param::hint(
            $crate::params::decl::choice(
                $key,
                <$ty>::NAMES,
                |v| v.$($field).+.as_str(),
                |v, s| v.$($field).+ = <$ty>::parse(s).unwrap_or_default(),
            ),
            $hint,
        )
    };
    ($key:literal, $ty:ty, $($field:ident).+) => {
        $crate::params::decl::named!($key, $ty, $($field).+; "")
    };
}

/// `flag!(key, field)`: on or off, the view's `field`.
macro_rules! flag {
    ($key:literal, $($field:tt)+) => {
        $crate::params::decl::field_row!(flag_row, $key, @ $($field)+)
    };
}

/// `list!(key, name, parse, range, example, field)`: `N` items written `a,b,…` (the view's
/// `field`, an array), each read by `parse` (`parse_usize`, `parse_f64`) within `range`; a list of
/// another length is not `example` (`"two numbers like 1,0"`).
macro_rules! list {
    ($key:literal, $name:literal, $parse:expr, $range:expr, $example:literal, $field:ident) => {
        $crate::params::decl::own(
            $key,
            |v, text| {
                let slots = &mut v.$field;
                $crate::params::decl::read_list($key, $name, text, $parse, $range, slots, $example)
            },
            |v| $crate::params::decl::write_list(&v.$field),
        )
    };
}

/// `sentence!(key, field)`: a sentence for the toy attention (1 to 16 words, checked by
/// [`check_sentence`](crate::params::check_sentence); a refused one keeps the previous, with its
/// notice), the view's `field`, a `String`.
macro_rules! sentence {
    ($key:literal, $($field:tt)+) => {
        $crate::params::decl::own(
            $key,
            |v, text| {
                $crate::params::check_sentence(text)
                    .map(|_| v.$($field)+ = text.to_string())
                    .err()
            },
            |v| v.$($field)+.clone(),
        )
    };
}

pub(crate) use {
    even, field_row, flag, float, int, int_within, list, named, quarter, seed, sentence,
};

impl<V> Param<V> {
    /// The same row, left out of a link when `omit` holds (instead of when it writes as the
    /// default view's value).
    pub const fn omit_when(mut self, omit: fn(&V) -> bool) -> Param<V> {
        self.omit = Some(omit);
        self
    }

    /// The same row, read after every other (its value depends on them).
    pub const fn late(mut self) -> Param<V> {
        self.late = true;
        self
    }

    /// The same choice row, with a few words after its names in a notice.
    pub const fn hint(mut self, hint: &'static str) -> Param<V> {
        if let Kind::Choice { hint: h, .. } = &mut self.kind {
            *h = hint;
        }
        self
    }
}

/// How a list's items are read: `parse_usize` or `parse_f64` (name, text, range, fallback).
pub type ItemParser<T> = fn(&str, &str, (T, T), T) -> (T, Option<Notice>);

/// Reads a list of `N` items in `range` written `a,b,…` into `slots` (each bad one keeps its
/// slot; the first notice is said); a list of another length keeps them all and says it is not
/// `example` (`two numbers like 1,0`).
pub fn read_list<T: Copy + ToString, const N: usize>(
    key: &str,
    name: &str,
    text: &str,
    parse: ItemParser<T>,
    range: (T, T),
    slots: &mut [T; N],
    example: &str,
) -> Option<Notice> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != N {
        return Some(Notice(format!(
            "{key} = “{}” is not {example}; using {}.",
            quote(text),
            write_list(slots)
        )));
    }
    let mut notice = None;
    for (slot, part) in slots.iter_mut().zip(parts) {
        let (x, n) = parse(name, part, range, *slot);
        *slot = x;
        notice = notice.or(n);
    }
    notice
}

/// A list as a link writes it: `a,b,…`.
pub fn write_list<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}
