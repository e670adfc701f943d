//! AMD XML schema (being written).
