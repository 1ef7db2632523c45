//! The book: its chapters in reading order and each chapter's figures, listed once. The contents
//! list, the anchors (`#rope`, `#fig-rope-2d`) and the tests read this registry; each figure
//! component carries the id listed here, and a browser test checks that the page and the registry
//! agree.

/// One figure: its anchor id and its title in the contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The element id of the `<figure>` (also its anchor and, later, its embed id).
    pub id: &'static str,
    /// Its short title in the contents.
    pub title: &'static str,
}

/// One chapter: its anchor id, number, title and figures in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

const fn fig(id: &'static str, title: &'static str) -> Figure {
    Figure { id, title }
}

/// The chapters, in reading order.
pub const CHAPTERS: [Chapter; 4] = [
    Chapter {
        id: "sinusoids",
        number: 1,
        title: "Order and sinusoids",
        figures: &[
            fig("fig-attention", "Attention is order-blind"),
            fig("fig-naive", "First ideas and why they fail"),
            fig("fig-heatmap", "The encoding as a table"),
            fig("fig-waves", "Columns are waves"),
            fig("fig-clocks", "Rows are clocks"),
            fig("fig-similarity", "Similarity depends on distance"),
            fig("fig-shift", "A shift is a rotation"),
            fig("fig-token", "Adding position to a word"),
        ],
    },
    Chapter {
        id: "rope",
        number: 2,
        title: "Rotations: RoPE",
        figures: &[
            fig("fig-rope-add", "Why not add?"),
            fig("fig-rope-2d", "Rotating a 2D vector"),
            fig("fig-rope-sentences", "Same angle, different sentences"),
            fig("fig-rope-wheels", "One wheel per pair"),
            fig("fig-rope-efficient", "The efficient form"),
            fig("fig-rope-scores", "q·k depends on distance"),
            fig("fig-rope-dims", "Which dimensions turn"),
            fig("fig-rope-layouts", "Interleaved or half-split"),
            fig("fig-rope-values", "Why only q and k"),
            fig("fig-rope-cloud", "The token cloud"),
        ],
    },
    Chapter {
        id: "context",
        number: 3,
        title: "Stretching the context",
        figures: &[
            fig("fig-ctx-turns", "Pairs that never turn"),
            fig("fig-ctx-wavelengths", "Wavelength per pair"),
            fig("fig-ctx-scores", "Scores far away"),
            fig("fig-ctx-attention", "The attention factor"),
            fig("fig-ctx-dynamic", "Dynamic NTK"),
        ],
    },
    Chapter {
        id: "tables",
        number: 4,
        title: "Tables and biases",
        figures: &[
            fig("fig-tab-learned", "A learned table ends"),
            fig("fig-tab-learned-sim", "No structure before training"),
            fig("fig-tab-shaw", "Clipped relative distances"),
            fig("fig-tab-t5", "T5's buckets"),
            fig("fig-tab-slopes", "ALiBi: one slope per head"),
            fig("fig-tab-alibi", "ALiBi's bias"),
            fig("fig-tab-alibi-attention", "Local and global heads"),
            fig("fig-tab-nope", "No position at all"),
            fig("fig-tab-compare", "Every method side by side"),
            fig("fig-tab-same", "One position, every method"),
            fig("fig-tab-extrapolate", "Past the training length"),
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
        assert_eq!(find_figure("fig-nothing"), None);
    }
}
