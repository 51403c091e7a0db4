//! The small files of secrets: a rejoin secret as `fixstep join` reads it back
//! (`fixstep_netplay::parse_rejoin_secret`), and a password file as `--password-file` reads
//! it (`fixstep_net::password_in_file`). A secret that reads is the file's 32 hex digits (as
//! written, in either case); a password is the file's first line, whole. The first byte picks
//! which (even: the secret, odd: the password).

#![no_main]

use fixstep_fuzz::Reader;
use fixstep_net::password_in_file;
use fixstep_netplay::parse_rejoin_secret;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Reader::new(data);
    let Some(choice) = input.byte() else { return };
    // Both files are read with `read_to_string`: text that is not UTF-8 goes no further.
    let Ok(text) = std::str::from_utf8(input.rest()) else { return };
    if choice % 2 == 0 {
        if let Some(secret) = parse_rejoin_secret(text) {
            let hex: String = secret.0.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(hex, text.trim().to_ascii_lowercase(), "a secret other than its digits");
        }
    } else if let Some(password) = password_in_file(text) {
        assert!(!password.is_empty(), "an empty password");
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(password, first.trim_end_matches('\r'), "not the first line");
    }
});
