//! The presentation's behaviour tests, one module per topic.

mod remote_buffer;
mod remote_view;
mod skinning;
mod update_gap_delay;
