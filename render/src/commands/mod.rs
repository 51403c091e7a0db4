//! The `fixstep` commands, a module each. Library code (the presentation, the renderer, the
//! desktop game) never imports these; they import it.

pub mod replay;
pub mod sim;
