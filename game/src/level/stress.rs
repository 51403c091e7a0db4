//! The generated stress level.
