//! A chapter's parameters, listed once.
//!
//! Each chapter's params file holds its fields in one macro (`rope_fields!`, `context_fields!`…):
//! of every parameter its doc comment, name, type, default and URL row, and apart (`own`) the
//! fields the app keeps in another form. A field's row follows its default:
//!
//! ```text
//! /// Shaw's `k`.
//! shaw_k: usize = 4 => int!("t.k", "t.k (Shaw's k)", SHAW_K),
//! ```
//!
//! is the row `int!(…, shaw_k)` of [`decl`](super::decl): the key, its name in notices and its
//! range, for the field of that name. A field under several keys, or read in a grammar of its own,
//! gives its rows written out instead (`=> [own("r.s1", …), own("r.s2", …)]`); a field no link
//! carries gives none.
//!
//! The macro hands that list to another: [`view_struct!`] writes the view and its `Default` from
//! its fields, and the app's state (`app::state::view_signals!`) one signal per listed field;
//! [`declared!`] writes the chapter's [`Table`](super::decl::Table) from its rows (every field's,
//! the own fields' first, in the order a link writes them). So a parameter is one row of its list
//! and nothing else: not again beside its signal, in a default or in a table.
//!
//! A list macro is called as `list!(callback { what the callback takes first })` and expands to
//! `callback! { what it takes first listed { fields } own { fields } }`, each field
//! `name: Type = default` (its rows left out); `list!(rows callback { … })` expands to
//! `callback! { what it takes first [rows, …] }`, every field's rows in order, the own fields'
//! first. (Types in a list are written from `crate::`: the list expands in the app's
//! state too.)

/// Declares a chapter's list macro: `fields! { $ #[doc] name listed { … } own { … } }` defines
/// `name!` as described above. (The leading `$` lets the macro it declares have arguments of its
/// own.) The grammar of a list's fields is here and nowhere else.
macro_rules! fields {
    (
        $d:tt $(#[$attr:meta])* $name:ident
        listed { $(
            $(#[$fattr:meta])* $field:ident : $ty:ty = $default:expr
            $(=> $row:ident ! $args:tt)? $(=> [$($rows:expr),* $(,)?])?
        ),* $(,)? }
        own { $(
            $(#[$oattr:meta])* $own:ident : $oty:ty = $odefault:expr
            $(=> $orow:ident ! $oargs:tt)? $(=> [$($orows:expr),* $(,)?])?
        ),* $(,)? }
    ) => {
        $(#[$attr])*
        macro_rules! $name {
            (rows $d then:ident { $d($d first:tt)* }) => {
                $d then! { $d($d first)* [
                    $(
                        $( $crate::params::listed::row_of!($orow $oargs $own), )?
                        $( $( $orows, )* )?
                    )*
                    $(
                        $( $crate::params::listed::row_of!($row $args $field), )?
                        $( $( $rows, )* )?
                    )*
                ] }
            };
            ($d then:ident { $d($d first:tt)* }) => {
                $d then! { $d($d first)*
                    listed { $( $(#[$fattr])* $field: $ty = $default, )* }
                    own { $( $(#[$oattr])* $own: $oty = $odefault, )* }
                }
            };
        }
    };
}
pub(crate) use fields;

/// The view struct of a chapter's list (`#[attributes] Name listed { … } own { … }`, each field
/// `name: Type = default`), every field public, the listed ones first, and its `Default`.
macro_rules! view_struct {
    (
        $(#[$attr:meta])* $name:ident
        listed { $( $(#[$fattr:meta])* $field:ident : $ty:ty = $default:expr ),* $(,)? }
        own { $( $(#[$oattr:meta])* $own:ident : $oty:ty = $odefault:expr ),* $(,)? }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $( $(#[$fattr])* pub $field: $ty, )*
            $( $(#[$oattr])* pub $own: $oty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name {
                    $( $field: $default, )*
                    $( $own: $odefault, )*
                }
            }
        }
    };
}
pub(crate) use view_struct;

/// `list!(rows declared { TABLE View, fit; })`: the view's parameter table `TABLE`, every field's
/// rows in the list's order (the own fields' first), and the view's
/// [`Declared`](super::decl::Declared). `fit` fits the values whose range depends on other keys
/// before the late rows are read ([`Table::fit`](super::decl::Table)).
macro_rules! declared {
    ($table:ident $view:ident, $fit:expr; [ $($rows:expr,)* ]) => {
        impl $crate::params::decl::Declared for $view {
            const TABLE: &'static $crate::params::decl::Table<$view> = &$table;
        }

        /// The parameters of the view, from its list: each field's rows, in the order a link
        /// writes them.
        pub const $table: $crate::params::decl::Table<$view> = $crate::params::decl::Table {
            params: &[ $($rows,)* ],
            fit: $fit,
        };
    };
}
pub(crate) use declared;

/// `row_of!(int ("t.k", "t.k (Shaw's k)", SHAW_K) shaw_k)`: the [`decl`](super::decl) row
/// `int!("t.k", "t.k (Shaw's k)", SHAW_K, shaw_k)`, the view's field given last.
macro_rules! row_of {
    ($row:ident ( $($arg:tt)* ) $field:ident) => {
        $crate::params::decl::$row!($($arg)*, $field)
    };
}
pub(crate) use row_of;
