//! A chapter's parameters, listed once.
//!
//! Each chapter's params file holds its fields in one macro (`rope_fields!`, `context_fields!`…):
//! name, type and doc comment of every parameter, and apart (`own`) the fields the app keeps in
//! another form. The macro hands that list to another: [`view_struct!`] writes the view from it
//! here, and the app's state (`app::state::view_signals!`) one signal per listed field from the
//! same list, so a parameter is declared in its list and its declaration row (`decl`), not again
//! beside its signal.
//!
//! A list macro is called as `list!(callback { what the callback takes first })` and expands to
//! `callback! { what it takes first listed { fields } own { fields } }`.

/// The view struct of a chapter's list (`#[attributes] Name listed { … } own { … }`), every
/// field public, the listed ones first.
macro_rules! view_struct {
    (
        $(#[$attr:meta])* $name:ident
        listed { $( $(#[$fattr:meta])* $field:ident : $ty:ty ),* $(,)? }
        own { $( $(#[$oattr:meta])* $own:ident : $oty:ty ),* $(,)? }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $( $(#[$fattr])* pub $field: $ty, )*
            $( $(#[$oattr])* pub $own: $oty, )*
        }
    };
}
pub(crate) use view_struct;
