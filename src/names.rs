//! Choices with names: the values of an enum a URL, a config or the command line names by a word.

/// `named! { #[attributes] pub enum Type { #[attributes] Variant = "name", … } }`: the enum, and
/// its values with their names — `ALL` (every value, in the order declared), `NAMES` (their names,
/// in the same order), `as_str` and `parse` (which reads exactly those names) — written from one
/// list, so that a name is never spelt twice.
macro_rules! named {
    (
        $(#[$attr:meta])* $vis:vis enum $ty:ident {
            $( $(#[$vattr:meta])* $variant:ident = $name:literal ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        $vis enum $ty {
            $( $(#[$vattr])* $variant, )*
        }

        impl $ty {
            /// Every value, in order.
            pub const ALL: [$ty; [$($name),*].len()] = [$($ty::$variant),*];

            /// The values' names, in the order of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($name),*];

            /// The value's name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// The value named `s` ([`Self::as_str`]'s names only).
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($name => Some($ty::$variant),)*
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use named;
