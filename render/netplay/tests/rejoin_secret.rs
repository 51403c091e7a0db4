//! Rejoin-secret files' text as `fixstep join` reads it back (`parse_rejoin_secret`), with what
//! fuzzing found (`tests/fuzz`, target `secrets`).

use fixstep_netplay::parse_rejoin_secret;
use fixstep_runtime::net::RejoinSecret;

/// A file as the game writes it reads back, in either case, with the newline.
#[test]
fn a_secret_as_written_reads_back() {
    let secret = RejoinSecret([0xa5; 16]);
    assert_eq!(parse_rejoin_secret("a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5\n"), Some(secret));
    assert_eq!(parse_rejoin_secret("A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5"), Some(secret));
}

/// The fuzzer's input: 32 characters with a `+` among the digits, which the parser of each
/// pair of digits took for a sign and read as a secret that the file did not hold.
#[test]
fn a_sign_among_the_digits_is_no_secret() {
    assert_eq!(parse_rejoin_secret("55a5c5+5a5a5c4a3a554a5c5a5a5a5a5"), None);
    assert_eq!(parse_rejoin_secret("+5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5"), None);
}
