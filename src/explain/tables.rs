//! Chapter 4, "Tables and biases" (with the comparison table, timeline and quiz): the sentences that depend on the settings.
