//! Chapter 6, "Beyond a line": RoPE over positions with more than one coordinate — the patches
//! of an image in a vision encoder (axial 2D RoPE), and the three position ids of a
//! vision-language model's language model (M-RoPE). Each figure carries its own controls.

use leptos::prelude::*;

use crate::app::deferred::Deferred;
use crate::app::figures::vision::grid::PatchGrid;
use crate::app::figures::vision::ids::PositionIds;
use crate::app::figures::vision::sections::FrequencyOwners;
use crate::app::figures::vision::video::VideoCloud;
use crate::app::frame::chapter;

/// The chapter.
#[component]
pub fn Vision() -> impl IntoView {
    chapter! { "vision";
        <p>
            "Text is a line: every token has one position. An image is a grid of patches, "
            "and a video is a grid over time. Vision encoders such as ViT, CLIP's and "
            "SigLIP's add a learned table of positions. Vision-language models such as "
            "Qwen2.5-VL and Qwen3-VL give each patch two coordinates in their vision encoder, "
            "and each token three in their language model, and share the rotary pairs among "
            "them. In the vision encoder each "
            "patch has a row and a column, and the head's pairs are split between the two:"
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
            "the rows and the odd-numbered ones to the columns, so rows and columns turn at "
            "alternating frequencies. Qwen3-VL and GLM-4V also add a learned absolute "
            "position embedding, interpolated to the image's grid of patches."
        </p>
        <h3>"Text and images in one sequence: M-RoPE"</h3>
        <p>
            "The language model reads the text and the image's tokens (after the encoder "
            "merges each 2 × 2 block of patches into one) in a single sequence. Qwen2-VL's "
            "multimodal RoPE, M-RoPE, gives every token three position ids — time, height and "
            "width — and lets each rotary pair of the head turn by one of the three. Which ids "
            "each token gets is decided before any rotation:"
        </p>
        <div class="figure-stack">
            <Deferred>
                <PositionIds />
            </Deferred>
        </div>
        <p class="bridge">
            "Which rotary pair follows which id changed between Qwen2.5-VL and Qwen3-VL:"
        </p>
        <div class="figure-stack">
            <Deferred>
                <FrequencyOwners />
            </Deferred>
        </div>
        <p class="bridge">
            "Put together: a video's tokens sit at their three ids, and each pair turns them by "
            "its frequency times the id it follows. Pick a pair and watch which way its angle "
            "changes across the video:"
        </p>
        <div class="figure-stack">
            <Deferred>
                <VideoCloud />
            </Deferred>
        </div>
    }
}

/// This chapter's figure `id` on its own (an embed), and whether it reads the chapter's control
/// panel (it has none: each figure carries its own controls); `None` for an id not of this
/// chapter.
pub fn figure(id: &str) -> Option<(AnyView, bool)> {
    Some(match id {
        "fig-vision-grid" => (view! { <PatchGrid /> }.into_any(), false),
        "fig-vision-ids" => (view! { <PositionIds /> }.into_any(), false),
        "fig-vision-sections" => (view! { <FrequencyOwners /> }.into_any(), false),
        "fig-vision-video" => (view! { <VideoCloud /> }.into_any(), false),
        _ => return None,
    })
}
