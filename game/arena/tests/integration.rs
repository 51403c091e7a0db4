//! The arena's behaviour tests, one module per topic; its determinism test stays a binary of its
//! own, which CI runs again in release.

mod carried_content;
mod layout;
mod rules;
mod state_checks;
