//! Where rules texts come from: the files bundled in the binary, or a path. A path is untrusted:
//! only a regular file is read, never more than the limit, and never by a call that could block.

use crate::diagnostics::did_you_mean;
use crate::limits::{excerpt, LIMITS};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The rules files shipped inside the binary: (name, text).
pub const BUNDLED: &[(&str, &str)] = &[
    ("oware", include_str!("../../../../rules/oware.toml")),
    ("wari", include_str!("../../../../rules/wari.toml")),
    ("warri", include_str!("../../../../rules/warri.toml")),
    ("kalah", include_str!("../../../../rules/kalah.toml")),
    (
        "sat-gharva",
        include_str!("../../../../rules/sat-gharva.toml"),
    ),
    (
        "sat-gharva-clockwise",
        include_str!("../../../../rules/sat-gharva-clockwise.toml"),
    ),
    (
        "sat-gharva-choice",
        include_str!("../../../../rules/sat-gharva-choice.toml"),
    ),
    ("uuholo", include_str!("../../../../rules/uuholo.toml")),
    (
        "uuholo-empty-pit",
        include_str!("../../../../rules/uuholo-empty-pit.toml"),
    ),
    (
        "uuholo-both-rows",
        include_str!("../../../../rules/uuholo-both-rows.toml"),
    ),
    (
        "toguz-korgool",
        include_str!("../../../../rules/toguz-korgool.toml"),
    ),
    ("ayoayo", include_str!("../../../../rules/ayoayo.toml")),
    ("dakon", include_str!("../../../../rules/dakon.toml")),
    (
        "bohnenspiel",
        include_str!("../../../../rules/bohnenspiel.toml"),
    ),
    ("omweso", include_str!("../../../../rules/omweso.toml")),
    (
        "backgammon",
        include_str!("../../../../rules/backgammon.toml"),
    ),
    (
        "backgammon-money",
        include_str!("../../../../rules/backgammon-money.toml"),
    ),
    (
        "backgammon-match",
        include_str!("../../../../rules/backgammon-match.toml"),
    ),
    ("had", include_str!("../../../../rules/had.toml")),
    (
        "nackgammon",
        include_str!("../../../../rules/nackgammon.toml"),
    ),
    (
        "hypergammon",
        include_str!("../../../../rules/hypergammon.toml"),
    ),
    ("portes", include_str!("../../../../rules/portes.toml")),
    ("plakoto", include_str!("../../../../rules/plakoto.toml")),
    ("fevga", include_str!("../../../../rules/fevga.toml")),
    ("tavli", include_str!("../../../../rules/tavli.toml")),
    (
        "long-nardy",
        include_str!("../../../../rules/long-nardy.toml"),
    ),
    (
        "acey-deucey",
        include_str!("../../../../rules/acey-deucey.toml"),
    ),
    (
        "mughrabieh",
        include_str!("../../../../rules/mughrabieh.toml"),
    ),
];

/// A rules text and the name to report it by (a bundled name or the path given).
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    pub origin: Origin,
}

/// Where a rules text was found, which decides what the other rules files it names
/// (`[match] games`) are: a bundled text names bundled games only, so it never reads the disk; a
/// file names bundled games or files from its own folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Bundled,
    /// The file's folder; empty for a text given without a file (the current folder).
    Folder(PathBuf),
}

impl Default for Origin {
    fn default() -> Self {
        Origin::Folder(PathBuf::new())
    }
}

/// Why a rules source could not be read.
#[derive(Debug)]
pub enum SourceError {
    /// Neither a bundled name nor an existing path.
    NotFound {
        name: String,
        suggestion: Option<String>,
    },
    /// A directory, a device, a FIFO or a socket.
    NotAFile {
        name: String,
    },
    TooLarge {
        name: String,
    },
    NotUtf8 {
        name: String,
        line: usize,
    },
    Io {
        name: String,
        error: std::io::Error,
    },
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = LIMITS.rules_file_bytes;
        match self {
            SourceError::NotFound { name, suggestion } => {
                write!(f, "no bundled game or file named `{name}`")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
                write!(f, " (bundled: {})", names.join(", "))
            }
            SourceError::NotAFile { name } => {
                write!(
                    f,
                    "`{name}` is not a regular file; give a rules file's path"
                )
            }
            SourceError::TooLarge { name } => {
                write!(
                    f,
                    "`{name}` is larger than {max} bytes, the most a rules file may have"
                )
            }
            SourceError::NotUtf8 { name, line } => {
                write!(f, "`{name}` is not UTF-8 text (line {line})")
            }
            SourceError::Io { name, error } => write!(f, "cannot read `{name}`: {error}"),
        }
    }
}

impl std::error::Error for SourceError {}

impl Source {
    /// SHA-256 of the text, in hex: what records and analyses keep to tell a changed file.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A bundled game by name, or else a file by path (from the current folder).
    pub fn find(name_or_path: &str) -> Result<Source, SourceError> {
        Source::find_from(&Origin::default(), name_or_path)
    }

    /// A bundled game by name, or else (unless `origin` is bundled) a file by path from
    /// `origin`'s folder: what a rules file found at `origin` means by `name_or_path`.
    pub fn find_from(origin: &Origin, name_or_path: &str) -> Result<Source, SourceError> {
        if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == name_or_path) {
            return Ok(Source {
                name: format!("{name}.toml"),
                text: text.to_string(),
                origin: Origin::Bundled,
            });
        }
        let path = match origin {
            Origin::Folder(dir) => dir.join(name_or_path),
            Origin::Bundled => PathBuf::from(name_or_path),
        };
        let shown = excerpt(&path.to_string_lossy());
        let not_found = || SourceError::NotFound {
            suggestion: did_you_mean(name_or_path, BUNDLED.iter().map(|(n, _)| *n))
                .map(str::to_string),
            name: shown.clone(),
        };
        if *origin == Origin::Bundled {
            return Err(not_found());
        }
        let text = read_regular_file(&path).map_err(|e| match e {
            ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => not_found(),
            ReadError::Io(error) => SourceError::Io {
                name: shown.clone(),
                error,
            },
            ReadError::NotAFile => SourceError::NotAFile {
                name: shown.clone(),
            },
            ReadError::TooLarge => SourceError::TooLarge {
                name: shown.clone(),
            },
        })?;
        let text = String::from_utf8(text).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            SourceError::NotUtf8 {
                name: shown.clone(),
                line: valid.iter().filter(|&&b| b == b'\n').count() + 1,
            }
        })?;
        Ok(Source {
            name: path.to_string_lossy().into_owned(),
            text,
            origin: Origin::Folder(path.parent().map(Path::to_path_buf).unwrap_or_default()),
        })
    }
}

pub(crate) enum ReadError {
    Io(std::io::Error),
    NotAFile,
    TooLarge,
}

/// The bytes of a regular file of at most the rules-file limit. Opened without blocking (a
/// FIFO would wait for a writer) and checked on the open file, so it cannot be swapped between
/// the check and the read; read through a bound, so a file that grows is still cut off.
pub(crate) fn read_regular_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile);
    }
    if meta.len() > LIMITS.rules_file_bytes {
        return Err(ReadError::TooLarge);
    }
    let mut bytes = Vec::new();
    file.take(LIMITS.rules_file_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > LIMITS.rules_file_bytes {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}
