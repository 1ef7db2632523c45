//! The book: its chapters in reading order and each chapter's figures, listed once. The contents
//! list, the anchors (`#rope`, `#fig-rope-2d`) and the tests read this registry; each figure
//! component carries the id listed here, and a browser test checks that the page and the registry
//! agree.

use crate::scene;

/// One figure: its anchor id, its title in the contents, and what draws its picture outside the
/// page's canvases (`pe render`, the SVG and CSV downloads), if it has one.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// The element id of the `<figure>` (also its anchor and its embed id).
    pub id: &'static str,
    /// Its short title in the contents.
    pub title: &'static str,
    /// Its scene's builder; `None` for a figure that is text (the comparison table).
    pub picture: Option<scene::Build>,
}

/// One chapter: its anchor id, number, title and figures in reading order.
#[derive(Clone, Copy, Debug)]
pub struct Chapter {
    /// The element id of the chapter's `<section>`.
    pub id: &'static str,
    /// Its number in the book, from 1.
    pub number: u8,
    /// Its title.
    pub title: &'static str,
    /// Its figures, in reading order.
    pub figures: &'static [Figure],
}

/// A figure of text, with no picture.
const fn fig(id: &'static str, title: &'static str) -> Figure {
    Figure {
        id,
        title,
        picture: None,
    }
}

/// A figure with a picture, drawn by `build`.
const fn pic(id: &'static str, title: &'static str, build: scene::Build) -> Figure {
    Figure {
        id,
        title,
        picture: Some(build),
    }
}

/// The chapters, in reading order (a table, one figure a row).
#[rustfmt::skip]
pub const CHAPTERS: [Chapter; 4] = [
    Chapter {
        id: "sinusoids",
        number: 1,
        title: "Order and sinusoids",
        figures: &[
            pic("fig-attention", "Attention is order-blind", scene::sinusoids::attention),
            pic("fig-naive", "First ideas and why they fail", scene::sinusoids::naive),
            pic("fig-heatmap", "The encoding as a table", scene::sinusoids::heatmap),
            pic("fig-waves", "Columns are waves", scene::sinusoids::waves),
            pic("fig-clocks", "Rows are clocks", scene::sinusoids::clocks),
            pic("fig-similarity", "How alike two positions are", scene::sinusoids::similarity),
            pic("fig-shift", "A shift is a rotation", scene::sinusoids::shift),
            pic("fig-token", "Adding position to a word", scene::sinusoids::token),
        ],
    },
    Chapter {
        id: "rope",
        number: 2,
        title: "Rotations: RoPE",
        figures: &[
            pic("fig-rope-add", "Why not add?", scene::rope::add),
            pic("fig-rope-2d", "Rotating a 2D vector", scene::rope::vector),
            pic("fig-rope-sentences", "Same angle, different sentences", scene::rope::sentences),
            pic("fig-rope-wheels", "One wheel per pair", scene::rope::wheels),
            pic("fig-rope-scores", "q·k depends on distance", scene::rope::scores),
            pic("fig-rope-dims", "How far each pair turns", scene::rope::dims),
            pic("fig-rope-efficient", "The efficient form", scene::rope::efficient),
            pic("fig-rope-layouts", "Interleaved or half-split", scene::rope::layouts),
            pic("fig-rope-values", "Why only q and k", scene::rope::values),
            pic("fig-rope-cloud", "The token cloud", scene::rope::cloud),
        ],
    },
    Chapter {
        id: "context",
        number: 3,
        title: "Stretching the context",
        figures: &[
            pic("fig-ctx-turns", "Pairs that turn less than once within L₀", scene::context::turns),
            pic("fig-ctx-wavelengths", "Wavelength per pair", scene::context::wavelengths),
            pic("fig-ctx-scores", "Scores far away", scene::context::scores),
            pic("fig-ctx-attention", "The attention factor", scene::context::attention),
            pic("fig-ctx-dynamic", "Dynamic NTK", scene::context::dynamic),
        ],
    },
    Chapter {
        id: "tables",
        number: 4,
        title: "Tables and biases",
        figures: &[
            pic("fig-tab-learned", "A learned table ends", scene::tables::learned),
            pic("fig-tab-learned-sim", "No structure before training", scene::tables::learned_sim),
            pic("fig-tab-shaw", "Clipped relative distances", scene::tables::shaw),
            pic("fig-tab-t5", "T5's buckets", scene::tables::t5),
            pic("fig-tab-slopes", "ALiBi: one slope per head", scene::tables::slopes),
            pic("fig-tab-alibi", "ALiBi's bias", scene::tables::alibi),
            pic("fig-tab-alibi-attention", "Local and global heads", scene::tables::alibi_attention),
            pic("fig-tab-nope", "No position at all", scene::tables::nope),
            fig("fig-tab-compare", "Every method side by side"),
            pic("fig-tab-same", "One position, every method", scene::tables::same),
            pic("fig-tab-extrapolate", "Past the training length", scene::tables::extrapolate),
        ],
    },
];

/// The chapter and figure with element id `id`, if the book has it.
pub fn find_figure(id: &str) -> Option<(&'static Chapter, &'static Figure)> {
    CHAPTERS
        .iter()
        .find_map(|c| c.figures.iter().find(|f| f.id == id).map(|f| (c, f)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut ids: Vec<&str> = CHAPTERS
            .iter()
            .flat_map(|c| std::iter::once(c.id).chain(c.figures.iter().map(|f| f.id)))
            .collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "an id appears twice");
        for c in &CHAPTERS {
            for f in c.figures {
                assert!(f.id.starts_with("fig-"), "{}", f.id);
                assert!(
                    f.id.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                );
            }
        }
    }

    #[test]
    fn chapters_are_numbered_in_order_and_figures_are_found() {
        for (k, c) in CHAPTERS.iter().enumerate() {
            assert_eq!(usize::from(c.number), k + 1);
        }
        assert_eq!(find_figure("fig-rope-2d").map(|(c, _)| c.id), Some("rope"));
        assert!(find_figure("fig-nothing").is_none());
    }
}
