//! Chapter 5's figures: what each layer of a model does, its KV cache, and what a query sees
//! through its layers.

pub mod cache;
pub mod layers;
pub mod sees;
