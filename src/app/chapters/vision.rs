//! Chapter 6, "Beyond a line": RoPE over positions with more than one coordinate — the patches
//! of an image in a vision encoder (axial 2D RoPE). Each figure carries its own controls.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::figures::vision::grid::PatchGrid;
use crate::app::frame::chapter;

/// The chapter.
#[component]
pub fn Vision() -> impl IntoView {
    chapter! { "vision";
        <p>
            "Text is a line: every token has one position. An image is a grid of patches, "
            "and a video is a grid over time. Vision transformers and vision-language models "
            "give each token two or three coordinates and share RoPE's rotary pairs among "
            "them. In a vision encoder each patch has a row and a column, and the head's "
            "pairs are split between the two:"
        </p>
        <div class="figure-stack">
            <Deferred>
                <PatchGrid />
            </Deferred>
        </div>
        <p class="bridge">
            "Transformers 5.24 declares \u{201c}axial\u{201d} the default rope type of a config "
            "in 34 model folders, mostly for their vision encoders: the Qwen2-VL, Qwen2.5-VL "
            "and Qwen3-VL families, GLM-4V, Pixtral, Gemma 4 and SAM 3 among them. The name "
            "does not fix how the frequencies are shared. Qwen2.5-VL, Qwen3-VL and GLM-4V give "
            "rows and columns the same head_dim/4 frequencies, as drawn above; Pixtral builds "
            "head_dim/2 frequencies over the whole head and gives the even-numbered ones to "
            "the rows and the odd-numbered ones to the columns, so its columns turn at "
            "frequencies in between its rows'. Qwen3-VL and GLM-4V also add a learned "
            "absolute position embedding, interpolated to the image's size."
        </p>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel (it has none: each figure carries its own controls); `None` for an id not of this
/// chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    Some(match id {
        "fig-vision-grid" => (view! { <PatchGrid /> }.into_any(), false),
        _ => return None,
    })
}
