//! Conformance test support. The tests live in `tests/`.
