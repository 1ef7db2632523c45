//! Split points: where a build split by chapter (the `split` feature, `tools/build.mjs`) cuts the
//! wasm. A function declared with [`split_point!`] is `async` and returns `Result<_, LoadError>`.
//! In a split build, its body and everything only it reaches go to a wasm module of their own,
//! which the first call fetches. Elsewhere (`trunk serve`, the wasm tests, `--one-module`) it runs
//! at once and never fails.

/// Why a split point's module could not be fetched. A failure is not kept: the next call tries
/// again.
pub type LoadError = leptos::wasm_split::SplitLoaderError;

/// `split_point! { module: fn name(args) -> T { body } }` is `async fn name(args) -> Result<T,
/// LoadError>` whose value is `body`, split into `module` under the `split` feature (Leptos's
/// re-export of `wasm_split`, in its fallible form).
macro_rules! split_point {
    ($module:ident: $(#[$doc:meta])* $vis:vis fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[cfg(feature = "split")]
        #[leptos::wasm_split::wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible)]
        $vis fn $name($($arg: $ty),*) -> Result<$ret, $crate::app::split::LoadError> {
            let value = $body;
            Ok(value)
        }

        $(#[$doc])*
        #[cfg(not(feature = "split"))]
        $vis async fn $name($($arg: $ty),*) -> Result<$ret, $crate::app::split::LoadError> {
            let value = $body;
            Ok(value)
        }
    };
}

pub(crate) use split_point;
