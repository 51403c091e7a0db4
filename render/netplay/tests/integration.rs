//! Network play's behaviour tests, one module per topic.

mod desync_diff;
mod rejoin_secret;
mod schedule;
mod spectator_delay;
