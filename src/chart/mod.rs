//! Pictures of the numbers: colour maps, heatmap rasters and frames, colour bars, line plots and
//! clock faces. Generic over plotters' `DrawingBackend`, so one figure draws to a canvas in the
//! browser and to SVG natively. No Leptos and no DOM here.

pub mod band;
pub mod clock;
pub mod cloud;
pub mod colorbar;
pub mod colormap;
pub mod dual;
pub mod fonts;
pub mod heatmap;
pub mod lines;
pub mod multiples;
pub mod pairs;
pub mod plane;
pub mod raster;
pub mod svg;
pub mod theme;
pub mod ticks;
