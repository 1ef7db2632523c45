//! Chapter 5's figures: what each layer of a model does, its KV cache, and what a query sees
//! through its layers, how partial rotation is laid out, how queries are scaled at long
//! positions, YaRN's two factors, and what rounding positions to a model's float type does to a
//! pair's angle, and how far a cached key is off when the frequencies change.

pub mod cache;
pub mod layers;
pub mod partial;
pub mod precision;
pub mod sees;
pub mod stale;
pub mod temperature;
pub mod yarn;
