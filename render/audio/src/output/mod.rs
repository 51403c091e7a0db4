//! Where the mix goes: the sound card ([`device`], through ALSA loaded at run time), or a
//! buffer the caller renders into ([`offline`]). Both are kira backends.

pub mod device;
pub mod offline;

#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "ALSA is a C library, opened at run time so that building needs none: calling it \
              is unsafe, and this module is the only place that does"
)]
mod alsa;

#[cfg(not(target_os = "linux"))]
mod elsewhere;

pub use device::{AudioLoad, DeviceBackend, DeviceSettings, report_off_once};
pub use offline::{OfflineBackend, OfflineSettings};
