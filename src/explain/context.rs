//! Chapter 3, "Stretching the context": the sentences that depend on the settings.
