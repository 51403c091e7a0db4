//! Loading and validating level files.
