//! Model (being written).
