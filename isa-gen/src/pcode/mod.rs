//! AMD's instruction pseudocode (placeholder; being written).
