//! A chapter's parameters, listed once.
//!
//! Each chapter's params file holds its fields in one macro (`rope_fields!`, `context_fields!`…):
//! name, type, default and doc comment of every parameter, and apart (`own`) the fields the app
//! keeps in another form. The macro hands that list to another: [`view_struct!`] writes the view
//! and its `Default` from it here, and the app's state (`app::state::view_signals!`) one signal
//! per listed field from the same list, so a parameter is declared in its list and its
//! declaration row (`decl`), not again beside its signal or in a default.
//!
//! A list macro is called as `list!(callback { what the callback takes first })` and expands to
//! `callback! { what it takes first listed { fields } own { fields } }`.

/// Declares a chapter's list macro: `fields! { $ #[doc] name listed { … } own { … } }` defines
/// `name!` as described above. (The leading `$` lets the macro it declares have arguments of its
/// own.)
macro_rules! fields {
    ($d:tt $(#[$attr:meta])* $name:ident $($list:tt)*) => {
        $(#[$attr])*
        macro_rules! $name {
            ($d then:ident { $d($d first:tt)* }) => {
                $d then! { $d($d first)* $($list)* }
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
