//! Chapter 2, "Rotations: RoPE": the sentences that depend on the settings.
