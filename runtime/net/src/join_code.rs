//! Join codes: a short name for a hosted match that a player reads out to a friend, such as
//! `KQ7-4PX`, looked up at a rendezvous ([`crate::rendezvous`]).
//!
//! Six symbols in two groups of three, from an alphabet without the look-alikes a voice or a
//! handwriting confuses (no 0 or O, no 1, I or L): 31 symbols, so 887 million codes, of which
//! a rendezvous holds at most [`crate::rendezvous::MAX_LISTINGS`] at a time. A code is typed
//! in any case, with or without its dash and spaces.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The symbols a code is written in: digits and capitals, less 0, 1, I, L and O.
pub const ALPHABET: &[u8; 31] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// Symbols in a code: six, read as two groups of three (`KQ7-4PX`), short enough to read out
/// and to keep in mind while typing, with few enough codes taken at once that a guess lands
/// on a listed match about once in ten thousand tries at the rendezvous's fullest.
pub const CODE_SYMBOLS: usize = 6;

/// Symbols in each of the code's two groups.
const GROUP_SYMBOLS: usize = CODE_SYMBOLS / 2;

/// A join code: [`CODE_SYMBOLS`] symbols of [`ALPHABET`], kept as their indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct JoinCode([u8; CODE_SYMBOLS]);

impl JoinCode {
    /// A code from random bytes (one a symbol; a byte's remainder by the alphabet's size
    /// picks it, close enough to even for a name that is only hard to guess by count).
    #[must_use]
    pub fn from_random(bytes: [u8; CODE_SYMBOLS]) -> Self {
        Self(bytes.map(|b| b % symbol_count()))
    }

    /// A fresh code from the operating system's random source.
    #[must_use]
    pub fn random() -> Self {
        let bytes: [u8; 8] = renetcode::generate_random_bytes();
        let mut symbols = [0; CODE_SYMBOLS];
        symbols.copy_from_slice(&bytes[..CODE_SYMBOLS]);
        Self::from_random(symbols)
    }

    /// Whether the symbol indices are all inside the alphabet (a decoded datagram's may not
    /// be).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.0.iter().all(|&s| s < symbol_count())
    }

    /// Its symbols' indices in [`ALPHABET`], as a datagram carries them.
    #[must_use]
    pub const fn symbols(self) -> [u8; CODE_SYMBOLS] {
        self.0
    }

    /// The code of these symbol indices, if each is inside [`ALPHABET`].
    #[must_use]
    pub fn from_symbols(symbols: [u8; CODE_SYMBOLS]) -> Option<Self> {
        let code = Self(symbols);
        code.is_valid().then_some(code)
    }
}

/// How many symbols [`ALPHABET`] has, as a byte.
const fn symbol_count() -> u8 {
    #[expect(clippy::cast_possible_truncation, reason = "31 symbols")]
    let count = ALPHABET.len() as u8;
    count
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (at, &symbol) in self.0.iter().enumerate() {
            if at == GROUP_SYMBOLS {
                f.write_str("-")?;
            }
            let letter = ALPHABET.get(usize::from(symbol)).copied().unwrap_or(b'?');
            write!(f, "{}", char::from(letter))?;
        }
        Ok(())
    }
}

/// Why text is no join code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JoinCodeError {
    /// A character no code has: a look-alike left out of the alphabet, or punctuation.
    #[error("`{text}` is no join code: {}", not_a_symbol(*.character))]
    NotASymbol {
        /// The text given.
        text: String,
        /// The character.
        character: char,
    },
    /// Too few or too many symbols.
    #[error(
        "`{text}` is no join code: it has {symbols} letters and digits, a code has {}",
        CODE_SYMBOLS
    )]
    Length {
        /// The text given.
        text: String,
        /// The symbols it has.
        symbols: usize,
    },
}

/// Says what is wrong with `character`, naming the symbol meant where it is a look-alike.
fn not_a_symbol(character: char) -> String {
    let meant = match character.to_ascii_uppercase() {
        '0' | 'O' => Some("codes have neither 0 nor O"),
        '1' | 'I' | 'L' => Some("codes have none of 1, I and L"),
        _ => None,
    };
    meant.map_or_else(
        || format!("`{character}` is not a letter or digit of a code"),
        |why| format!("`{character}`: {why}, so that none is read for another"),
    )
}

impl FromStr for JoinCode {
    type Err = JoinCodeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut symbols = [0; CODE_SYMBOLS];
        let mut count = 0;
        for character in text.chars() {
            if character == '-' || character.is_whitespace() {
                continue;
            }
            let upper = character.to_ascii_uppercase();
            let symbol = u8::try_from(upper)
                .ok()
                .and_then(|b| ALPHABET.iter().position(|&a| a == b))
                .ok_or_else(|| JoinCodeError::NotASymbol { text: text.to_owned(), character })?;
            if let Some(slot) = symbols.get_mut(count) {
                *slot = u8::try_from(symbol).unwrap_or(u8::MAX);
            }
            count += 1;
        }
        if count != CODE_SYMBOLS {
            return Err(JoinCodeError::Length { text: text.to_owned(), symbols: count });
        }
        Ok(Self(symbols))
    }
}

/// Whether `text` is shaped like a join code rather than an address: six letters and digits
/// (dashes and spaces aside), and no colon or dot (which every `HOST:PORT` and domain has),
/// so that a misread code (`KQ0-4PX`) is told what is wrong with it as a code.
#[must_use]
pub fn looks_like_code(text: &str) -> bool {
    let symbols = text.chars().filter(|c| *c != '-' && !c.is_whitespace());
    !text.contains([':', '.'])
        && symbols.clone().all(|c| c.is_ascii_alphanumeric())
        && symbols.count() == CODE_SYMBOLS
}
