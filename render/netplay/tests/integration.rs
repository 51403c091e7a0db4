//! Network play's behaviour tests, one module per topic.

mod desync_diff;
mod ground_feed;
mod rejoin_secret;
mod schedule;
