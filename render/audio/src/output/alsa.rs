//! ALSA's playback functions, found in `libasound.so.2` when the game starts rather than
//! linked when it is built: building needs no sound library or its headers, and a machine
//! without one runs the game silent. Only the few functions a blocking interleaved stream
//! needs are used. Every `unsafe` of the crate is here.

use std::ffi::{CStr, CString, c_char, c_int, c_long, c_uint, c_ulong, c_void};
use std::ptr::NonNull;

use libloading::Library;

use crate::error::SoundError;

/// The library's file name: its stable ABI version, present wherever ALSA is installed (the
/// unversioned `libasound.so` comes only with the development package).
const LIBRARY: &str = "libasound.so.2";

/// `SND_PCM_STREAM_PLAYBACK`.
const STREAM_PLAYBACK: c_int = 0;
/// `SND_PCM_ACCESS_RW_INTERLEAVED`: left and right samples alternate, written by the caller.
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// `SND_PCM_FORMAT_S16_LE`.
const FORMAT_S16_LE: c_int = 2;
/// `SND_PCM_FORMAT_FLOAT_LE`.
const FORMAT_FLOAT_LE: c_int = 14;
/// Let ALSA resample when the device does not run at the rate asked for.
const SOFT_RESAMPLE: c_int = 1;
/// `snd_pcm_recover`'s flag that it should not print to stderr itself.
const RECOVER_SILENTLY: c_int = 1;

type Open = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParams =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type Writei = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type Recover = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type Close = unsafe extern "C" fn(*mut c_void) -> c_int;
type Strerror = unsafe extern "C" fn(c_int) -> *const c_char;
/// `snd_local_error_handler_t`: ALSA's error printer for one thread. Its last parameter is a
/// `va_list`, passed as a pointer on the ABIs Linux runs on, and never read here.
type ErrorHandler = Option<
    unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char, *mut c_void),
>;
type SetLocalErrorHandler = unsafe extern "C" fn(ErrorHandler) -> ErrorHandler;

/// Prints nothing: ALSA's own messages ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown
/// PCM …", several lines for a missing card) would say again, over many lines, what the game
/// says in one.
unsafe extern "C" fn quiet(
    _file: *const c_char,
    _line: c_int,
    _function: *const c_char,
    _error: c_int,
    _format: *const c_char,
    _arguments: *mut c_void,
) {
}

/// The functions, with the library that holds them.
struct Functions {
    writei: Writei,
    recover: Recover,
    close: Close,
    strerror: Strerror,
    /// Missing before alsa-lib 1.1.6 (2018): ALSA's messages are then printed.
    set_local_error_handler: Option<SetLocalErrorHandler>,
    /// Keeps the functions above loaded: dropped last, after every call through them.
    _library: Library,
}

/// The sample format the device took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Float,
    S16,
}

/// An open playback device: 2 channels, interleaved, blocking writes.
pub struct Pcm {
    handle: NonNull<c_void>,
    format: Format,
    functions: Functions,
    /// The samples as 16-bit integers, for a device that takes those.
    s16: Vec<i16>,
}

// SAFETY: an ALSA PCM handle may be used from any thread, one thread at a time; `Pcm` is
// only ever used through `&mut self` or dropped, so it is never used by two threads at once.
unsafe impl Send for Pcm {}

impl Pcm {
    /// Opens `device` ("default", or any ALSA device name such as "null") for playback of
    /// interleaved stereo at `rate` Hz, with about `latency_us` of buffering.
    pub fn open(device: &str, rate: u32, latency_us: u32) -> Result<Self, SoundError> {
        // SAFETY: loading libasound runs its initialisers, which have no preconditions.
        let library = unsafe { Library::new(LIBRARY) }
            .map_err(|e| SoundError::NoLibrary(format!("{LIBRARY}: {e}")))?;
        // SAFETY: each function is declared with its C prototype from <alsa/pcm.h> and
        // <alsa/error.h>, in the library's stable ABI; the pointers are kept only as long as
        // the library (in `Functions`).
        let (open, set_params, functions) = unsafe {
            let open: Open = function(&library, c"snd_pcm_open")?;
            let set_params: SetParams = function(&library, c"snd_pcm_set_params")?;
            let functions = Functions {
                writei: function(&library, c"snd_pcm_writei")?,
                recover: function(&library, c"snd_pcm_recover")?,
                close: function(&library, c"snd_pcm_close")?,
                strerror: function(&library, c"snd_strerror")?,
                set_local_error_handler: function(&library, c"snd_lib_error_set_local").ok(),
                _library: library,
            };
            (open, set_params, functions)
        };
        let name = CString::new(device).map_err(|_| {
            SoundError::NoDevice(format!("ALSA: the device name {device:?} has a NUL"))
        })?;
        let mut handle = std::ptr::null_mut();
        let loud = functions.quiet_this_thread();
        // SAFETY: `handle` is a valid place for the result and `name` a NUL-terminated string
        // that outlives the call.
        let opened = unsafe { open(&mut handle, name.as_ptr(), STREAM_PLAYBACK, 0) };
        let pcm = Self::set_up(handle, opened, device, &functions, set_params, rate, latency_us);
        functions.restore_errors(loud);
        let (handle, format) = pcm?;
        Ok(Self { handle, format, functions, s16: Vec::new() })
    }

    /// Checks the device opened, and sets its parameters: floats first, kira's own samples;
    /// 16-bit integers where the device wants those.
    fn set_up(
        handle: *mut c_void,
        opened: c_int,
        device: &str,
        functions: &Functions,
        set_params: SetParams,
        rate: u32,
        latency_us: u32,
    ) -> Result<(NonNull<c_void>, Format), SoundError> {
        let handle = match NonNull::new(handle) {
            Some(handle) if opened >= 0 => handle,
            _ => {
                let why = functions.describe(opened);
                return Err(SoundError::NoDevice(format!("ALSA: cannot open {device:?}: {why}")));
            }
        };
        let mut why = String::new();
        for (format, code) in [(Format::Float, FORMAT_FLOAT_LE), (Format::S16, FORMAT_S16_LE)] {
            // SAFETY: `handle` is an open PCM; the other arguments are plain integers.
            let set = unsafe {
                set_params(
                    handle.as_ptr(),
                    code,
                    ACCESS_RW_INTERLEAVED,
                    2,
                    rate,
                    SOFT_RESAMPLE,
                    latency_us,
                )
            };
            if set >= 0 {
                return Ok((handle, format));
            }
            why = functions.describe(set);
        }
        // SAFETY: `handle` is open, and closed only here, as it will not be used.
        unsafe { (functions.close)(handle.as_ptr()) };
        Err(SoundError::NoDevice(format!("ALSA: {device:?} takes no stereo stream: {why}")))
    }

    /// Keeps ALSA from printing its own messages on the calling thread (the audio thread: its
    /// failure is said once, in the game's words).
    pub fn quiet_this_thread(&self) {
        let _ = self.functions.quiet_this_thread();
    }

    /// Plays `interleaved` stereo samples, waiting while the device's buffer is full. An
    /// underrun (the game was late) is recovered from and the samples written again.
    pub fn write(&mut self, interleaved: &[f32]) -> Result<(), String> {
        let frames = interleaved.len() / 2;
        if self.format == Format::S16 {
            self.s16.clear();
            self.s16.extend(interleaved.iter().map(|s| (s.clamp(-1.0, 1.0) * 32767.0) as i16));
        }
        let mut done = 0;
        while done < frames {
            let pointer: *const c_void = match self.format {
                Format::Float => interleaved[done * 2..].as_ptr().cast(),
                Format::S16 => self.s16[done * 2..].as_ptr().cast(),
            };
            // SAFETY: `pointer` addresses `frames - done` whole stereo frames of the format
            // the device was set to, alive for the call; `handle` is an open PCM.
            let written = unsafe {
                (self.functions.writei)(self.handle.as_ptr(), pointer, (frames - done) as c_ulong)
            };
            if written >= 0 {
                done += written as usize;
                continue;
            }
            let code = c_int::try_from(written).unwrap_or(c_int::MIN);
            // SAFETY: `handle` is an open PCM and `code` the error it returned.
            let recovered =
                unsafe { (self.functions.recover)(self.handle.as_ptr(), code, RECOVER_SILENTLY) };
            if recovered < 0 {
                return Err(self.functions.describe(recovered));
            }
        }
        Ok(())
    }
}

/// The function `name` of `library`, as a pointer of type `F`.
///
/// # Safety
///
/// `F` must be the function's C prototype, and the pointer must not outlive `library`.
unsafe fn function<F: Copy>(library: &Library, name: &CStr) -> Result<F, SoundError> {
    // SAFETY: as this function's contract says.
    unsafe { library.get::<F>(name) }
        .map(|symbol| *symbol)
        .map_err(|e| SoundError::NoLibrary(format!("{LIBRARY}: {}: {e}", name.to_string_lossy())))
}

impl Functions {
    /// Silences ALSA's messages on this thread; returns the handler to restore.
    fn quiet_this_thread(&self) -> ErrorHandler {
        let set = self.set_local_error_handler?;
        // SAFETY: `quiet` has the handler's C prototype and lives for the whole program.
        unsafe { set(Some(quiet)) }
    }

    /// Puts back the handler [`Self::quiet_this_thread`] replaced.
    fn restore_errors(&self, handler: ErrorHandler) {
        if let Some(set) = self.set_local_error_handler {
            // SAFETY: `handler` is what ALSA returned as this thread's handler, or none.
            unsafe { set(handler) };
        }
    }

    /// ALSA's words for error `code`.
    fn describe(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a pointer to a static NUL-terminated string (or null).
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: not null, so a static NUL-terminated string, as above.
        unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned()
    }
}

impl Drop for Pcm {
    fn drop(&mut self) {
        // SAFETY: `handle` is open and closed only here; nothing uses it after.
        unsafe { (self.functions.close)(self.handle.as_ptr()) };
    }
}
