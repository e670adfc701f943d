//! Generated AMD GPU ISA support. See the workspace README.
