//! What every chapter's tests check of its parameter table: each row sound on its own
//! ([`check_table`]), and a view that sets every row reading back from its link
//! ([`check_round_trip`]).

use super::{Kind, Table, read, write};

/// Every row of `table` is sound: keys are distinct and carry `prefix`; every choice's names set
/// a value that reads back as that name; every row's default reads back from its own text
/// without a notice (rows the default view leaves out by their `omit` aside); an empty link is
/// the default view, which writes nothing; other chapters' keys do not reach it. For the
/// chapters' tests.
pub fn check_table<V: Default + PartialEq + std::fmt::Debug>(table: &Table<V>, prefix: &str) {
    // An empty link is the default view, and the default view writes nothing.
    assert_eq!(read(table, &[]), (V::default(), vec![]));
    assert!(write(table, &V::default()).is_empty());
    // Other chapters' keys do not reach this table.
    for key in crate::params::state_keys().filter(|k| !table.has(k)) {
        let pairs = vec![(key.to_string(), "7".to_string())];
        assert_eq!(read(table, &pairs), (V::default(), vec![]), "{key}");
    }
    let keys: Vec<&str> = table.keys().collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(k.starts_with(prefix), "{k} lacks the prefix {prefix:?}");
        assert!(!keys[..i].contains(k), "{k} is declared twice");
    }
    for p in table.rows() {
        if let Kind::Choice {
            names, get, set, ..
        } = &p.kind
        {
            for name in *names {
                let mut view = V::default();
                set(&mut view, name);
                assert_eq!(get(&view), *name, "{}: {name} does not read back", p.key);
            }
        }
        let default = V::default();
        if p.omit.is_some_and(|omit| omit(&default)) {
            continue; // a value the default view does not have (an override)
        }
        let text = p.write(&default);
        let pairs = vec![(p.key.to_string(), text.clone())];
        let (back, notices) = read(table, &pairs);
        assert!(notices.is_empty(), "{} = {text}: {notices:?}", p.key);
        assert_eq!(back, default, "{} = {text} does not read back", p.key);
    }
}

/// `view`, which sets every row of `table` away from its default, writes one pair a row, each
/// with a declared key, and reads back from its link as itself without a notice. For the
/// chapters' tests.
pub fn check_round_trip<V: Default + PartialEq + std::fmt::Debug>(table: &Table<V>, view: &V) {
    let pairs = write(table, view);
    assert_eq!(pairs.len(), table.rows().count(), "{pairs:?}");
    for (k, _) in &pairs {
        assert!(table.has(k), "{k}");
    }
    let link = crate::params::build_query(&pairs);
    let (back, notices) = read(table, &crate::params::parse_query(&link));
    assert_eq!(&back, view, "{link}");
    assert!(notices.is_empty(), "{link}: {notices:?}");
}
