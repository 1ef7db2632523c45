//! The signals of a chapter's listed parameters, written from its list.

/// One signal per listed parameter of a chapter's view (its list: [`crate::params::listed`]), and
/// the chapter's state around them. Called as
/// `list!(view_signals { pub struct Signals for View; pub struct State { other fields } })`, it
/// writes the struct `Signals`, its making from a view, the view read back (tracked) given the
/// fields the state keeps its own way, and the struct `State` (if asked for), which holds the same
/// signals as its own fields beside its other ones. (Its own fields, not a `Signals` it derefs to:
/// a closure that reads `state.dim` then captures that signal alone, not a copy of the state, and
/// the wasm stays the size it was.)
macro_rules! view_signals {
    (
        $(#[$attr:meta])* pub struct $name:ident for $view:ident;
        $(#[$sattr:meta])* pub struct $state:ident {
            $( $(#[$xattr:meta])* $xvis:vis $x:ident : $xty:ty ),* $(,)?
        }
        listed { $( $(#[$fattr:meta])* $field:ident : $ty:ty = $default:expr ),* $(,)? }
        own { $( $(#[$oattr:meta])* $own:ident : $oty:ty = $odefault:expr ),* $(,)? }
    ) => {
        view_signals! {
            $(#[$attr])* pub struct $name for $view
            listed { $( $(#[$fattr])* $field : $ty ),* }
            own { $( $(#[$oattr])* $own : $oty ),* }
        }

        $(#[$sattr])*
        #[derive(Clone, Copy)]
        pub struct $state {
            $( $(#[$fattr])* pub $field: ::leptos::prelude::RwSignal<$ty>, )*
            $( $(#[$xattr])* $xvis $x: $xty, )*
        }

        impl $state {
            /// The state of `signals` and the other fields, in their declared order (as many as
            /// the state declares: chapter 1 keeps its encoding's five parameters there).
            #[allow(clippy::too_many_arguments)]
            fn assemble(signals: $name, $($x: $xty),*) -> $state {
                let $name { $($field),* } = signals;
                $state { $($field,)* $($x,)* }
            }

            /// The view the state's signals hold (read tracked), with its own fields given.
            pub fn tracked(self, $($own: $oty),*) -> $view {
                use ::leptos::prelude::Get;
                $view { $($field: self.$field.get(),)* $($own,)* }
            }
        }
    };
    (
        $(#[$attr:meta])* pub struct $name:ident for $view:ident
        listed { $( $(#[$fattr:meta])* $field:ident : $ty:ty $(= $default:expr)? ),* $(,)? }
        own { $( $(#[$oattr:meta])* $own:ident : $oty:ty $(= $odefault:expr)? ),* $(,)? }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy)]
        pub struct $name {
            $( $(#[$fattr])* pub $field: ::leptos::prelude::RwSignal<$ty>, )*
        }

        impl $name {
            /// A signal holding each listed field of `view`.
            pub fn new(view: $view) -> $name {
                let $view { $($field,)* .. } = view;
                $name { $($field: ::leptos::prelude::RwSignal::new($field),)* }
            }

            /// The view the signals hold (read tracked), with the state's own fields given.
            pub fn tracked(self, $($own: $oty),*) -> $view {
                use ::leptos::prelude::Get;
                $view { $($field: self.$field.get(),)* $($own,)* }
            }
        }
    };
}
pub(crate) use view_signals;
