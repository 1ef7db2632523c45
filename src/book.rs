//! The book: its chapters in reading order and each chapter's figures, listed once. The contents
//! list, the anchors (`#rope`, `#fig-rope-2d`) and the tests read this registry; each figure
//! component carries the id listed here, and a browser test checks that the page and the registry
//! agree.

/// One figure: its anchor id, its title in the contents, and whether it has a picture outside the
/// page's canvases (`pe render`, the SVG and CSV downloads). What draws that picture is listed with
/// the chapter's scenes ([`crate::scene::builders`]), not here: the shell reads this table at start, and
/// in a build split by chapter a chapter's drawing code must be reachable only from that chapter.
#[derive(Clone, Copy, Debug)]
pub struct Figure {
    /// The element id of the `<figure>` (also its anchor and its embed id).
    pub id: &'static str,
    /// Its short title in the contents.
    pub title: &'static str,
    /// Whether it has a picture; `false` for a figure that is text (the comparison table).
    pub picture: bool,
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
        picture: false,
    }
}

/// A figure with a picture.
const fn pic(id: &'static str, title: &'static str) -> Figure {
    Figure {
        id,
        title,
        picture: true,
    }
}

/// The chapters, in reading order (a table, one figure a row).
#[rustfmt::skip]
pub const CHAPTERS: [Chapter; 6] = [
    Chapter {
        id: "sinusoids",
        number: 1,
        title: "Order and sinusoids",
        figures: &[
            pic("fig-attention", "Attention is order-blind"),
            pic("fig-naive", "First ideas and why they fail"),
            pic("fig-heatmap", "The encoding as a table"),
            pic("fig-waves", "Columns are waves"),
            pic("fig-clocks", "Rows are clocks"),
            pic("fig-similarity", "How alike two positions are"),
            pic("fig-shift", "A shift is a rotation"),
            pic("fig-token", "Adding position to a word"),
        ],
    },
    Chapter {
        id: "rope",
        number: 2,
        title: "Rotations: RoPE",
        figures: &[
            pic("fig-rope-add", "Why not add?"),
            pic("fig-rope-2d", "Rotating a 2D vector"),
            pic("fig-rope-sentences", "Same angle, different sentences"),
            pic("fig-rope-wheels", "One wheel per pair"),
            pic("fig-rope-scores", "q·k depends on distance"),
            pic("fig-rope-dims", "How far each pair turns"),
            pic("fig-rope-efficient", "The efficient form"),
            pic("fig-rope-layouts", "Interleaved or half-split"),
            pic("fig-rope-values", "Why only q and k"),
            pic("fig-rope-cloud", "The token cloud"),
        ],
    },
    Chapter {
        id: "context",
        number: 3,
        title: "Stretching the context",
        figures: &[
            pic("fig-ctx-turns", "Pairs that turn less than once within L₀"),
            pic("fig-ctx-wavelengths", "Wavelength per pair"),
            pic("fig-ctx-scores", "Scores far away"),
            pic("fig-ctx-attention", "The attention factor"),
            pic("fig-ctx-dynamic", "Dynamic NTK"),
        ],
    },
    Chapter {
        id: "tables",
        number: 4,
        title: "Tables and biases",
        figures: &[
            pic("fig-tab-learned", "A learned table ends"),
            pic("fig-tab-learned-sim", "No structure before training"),
            pic("fig-tab-shaw", "Clipped relative distances"),
            pic("fig-tab-txl", "Transformer-XL's four terms"),
            pic("fig-tab-t5", "T5's buckets"),
            pic("fig-tab-slopes", "ALiBi: one slope per head"),
            pic("fig-tab-alibi", "ALiBi's bias"),
            pic("fig-tab-alibi-attention", "Local and global heads"),
            pic("fig-tab-nope", "No position at all"),
            pic("fig-tab-drope", "DroPE: drop the rotation"),
            fig("fig-tab-compare", "Every method side by side"),
            pic("fig-tab-same", "One position, every method"),
            pic("fig-tab-extrapolate", "Past the training length"),
        ],
    },
    Chapter {
        id: "models",
        number: 5,
        title: "RoPE as today's models ship it",
        figures: &[
            pic("fig-models-layers", "What each layer does"),
            pic("fig-models-cache", "Why the patterns ship: the KV cache"),
            pic("fig-models-sees", "What a query sees, layer by layer"),
            pic("fig-models-partial", "Partial rotation, two conventions"),
            pic("fig-models-temperature", "Query temperature at long positions"),
            pic("fig-models-yarn", "DeepSeek's MLA and YaRN's two factors"),
            pic("fig-models-precision", "Positions in low precision"),
            pic("fig-models-stale", "Cached keys when the frequencies change"),
        ],
    },
    Chapter {
        id: "vision",
        number: 6,
        title: "Beyond a line",
        figures: &[
            pic("fig-vision-grid", "A grid of image patches"),
            pic("fig-vision-ids", "Text and images in one sequence"),
            pic("fig-vision-sections", "Who owns which frequencies"),
            pic("fig-vision-video", "A video as a 3D cloud"),
        ],
    },
];

/// The place in the book (from 0) of the chapter with element id `id`, or of the chapter holding
/// the figure with that id.
pub fn place(id: &str) -> Option<usize> {
    let chapter = find_figure(id).map_or(id, |(c, _)| c.id);
    CHAPTERS.iter().position(|c| c.id == chapter)
}

/// The chapter and figure with element id `id`, if the book has it.
pub fn find_figure(id: &str) -> Option<(&'static Chapter, &'static Figure)> {
    CHAPTERS
        .iter()
        .find_map(|c| c.figures.iter().find(|f| f.id == id).map(|f| (c, f)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene;

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
    fn every_picture_has_its_builder_in_its_chapter_and_no_other() {
        for c in &CHAPTERS {
            let drawn: Vec<&str> = c
                .figures
                .iter()
                .filter(|f| f.picture)
                .map(|f| f.id)
                .collect();
            let built: Vec<&str> = scene::builders(c.id).iter().map(|(id, _)| *id).collect();
            assert_eq!(drawn, built, "chapter {}", c.id);
        }
        assert!(scene::builders("no-such-chapter").is_empty());
    }

    #[test]
    fn chapters_are_numbered_in_order_and_figures_are_found() {
        for (k, c) in CHAPTERS.iter().enumerate() {
            assert_eq!(usize::from(c.number), k + 1);
        }
        assert_eq!(find_figure("fig-rope-2d").map(|(c, _)| c.id), Some("rope"));
        assert_eq!(place("fig-rope-2d"), Some(1));
        assert_eq!(place("tables"), Some(3));
        assert_eq!(place("fig-nothing"), None);
        assert!(find_figure("fig-nothing").is_none());
    }
}
