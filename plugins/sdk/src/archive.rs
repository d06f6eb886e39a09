//! Zip containers (docx, xlsx) opened defensively: the central directory is checked for bombs
//! (total and per-entry inflated sizes, compression ratio, entry count) before anything is
//! inflated, and every read stops at the size the directory declared.

use crate::{ToolError, ToolResult, codes};
use std::io::{Cursor, Read};
use zip::ZipArchive;

/// Caps for one container. The defaults keep a parse well inside a 256 MiB instance.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Sum of the declared inflated sizes.
    pub max_total: u64,
    /// Declared inflated size of one entry.
    pub max_entry: u64,
    /// Inflated / compressed, for entries above `ratio_floor` bytes.
    pub max_ratio: u64,
    pub ratio_floor: u64,
    pub max_entries: usize,
}

impl Default for Caps {
    fn default() -> Self {
        Self {
            max_total: 96 << 20,
            max_entry: 64 << 20,
            max_ratio: 200,
            ratio_floor: 1 << 20,
            max_entries: 10_000,
        }
    }
}

/// OLE compound file: how Office stores password-protected OOXML (and legacy .doc/.xls).
const CFB_SIGNATURE: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// An archive that passed the bomb checks.
pub struct Archive<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
}

impl<'a> Archive<'a> {
    /// Opens `bytes` as the zip container of `format`: ENCRYPTED for a password-protected
    /// Office file, UNSUPPORTED for a legacy binary one, MALFORMED for a damaged zip,
    /// TOO_LARGE for a suspected bomb.
    pub fn open(bytes: &'a [u8], format: &str, caps: Caps) -> ToolResult<Self> {
        if bytes.starts_with(CFB_SIGNATURE) {
            return Err(if contains_utf16(bytes, "EncryptionInfo") {
                ToolError::new(
                    codes::ENCRYPTED,
                    format!("this {format} file is password-protected"),
                )
                .suggest("save an unprotected copy to index and read it")
            } else {
                ToolError::new(
                    codes::UNSUPPORTED,
                    format!("this is a legacy binary Office file, not {format}"),
                )
                .suggest("save it in the current Office format (.docx, .xlsx)")
            });
        }
        let mut zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| malformed(format, e))?;
        if zip.len() > caps.max_entries {
            return Err(too_large(format!(
                "{} entries in the container, over the cap of {}",
                zip.len(),
                caps.max_entries
            )));
        }
        let mut total = 0u64;
        for i in 0..zip.len() {
            let entry = zip.by_index_raw(i).map_err(|e| malformed(format, e))?;
            let name = entry
                .name()
                .map(|n| n.into_owned())
                .unwrap_or_else(|_| format!("entry {i}"));
            if entry.encrypted() {
                return Err(ToolError::new(
                    codes::ENCRYPTED,
                    format!("{name} inside this {format} file is encrypted"),
                )
                .suggest("save an unprotected copy to index and read it"));
            }
            let (size, packed) = (entry.size(), entry.compressed_size().max(1));
            if size > caps.max_entry {
                return Err(too_large(format!(
                    "{name} inflates to {size} bytes, over the cap of {}",
                    caps.max_entry
                )));
            }
            if size > caps.ratio_floor && size / packed > caps.max_ratio {
                return Err(too_large(format!(
                    "{name} inflates {}x ({packed} to {size} bytes): a zip bomb is suspected",
                    size / packed
                )));
            }
            total = total.saturating_add(size);
        }
        if total > caps.max_total {
            return Err(too_large(format!(
                "the container inflates to {total} bytes, over the cap of {}",
                caps.max_total
            )));
        }
        Ok(Self { zip })
    }

    /// The inflated entry, or None when absent. Reading stops one byte past the declared size:
    /// an entry that inflates to more than it declared is refused.
    pub fn read(&mut self, name: &str) -> ToolResult<Option<Vec<u8>>> {
        let mut entry = match self.zip.by_name(name) {
            Ok(entry) => entry,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(malformed("zip", e)),
        };
        let declared = entry.size();
        let mut out = Vec::with_capacity(declared.min(16 << 20) as usize);
        (&mut entry)
            .take(declared + 1)
            .read_to_end(&mut out)
            .map_err(|e| {
                ToolError::new(codes::MALFORMED, format!("{name} cannot be inflated: {e}"))
            })?;
        if out.len() as u64 > declared {
            return Err(too_large(format!(
                "{name} inflates past the {declared} bytes it declared"
            )));
        }
        Ok(Some(out))
    }
}

/// A zip of `entries` (name, content) built in memory: fixtures for the formats that live in
/// zip containers.
pub fn write_zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut out = Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    for (name, data) in entries {
        zip.start_file(*name, zip::write::SimpleFileOptions::default())
            .expect("writing to memory");
        zip.write_all(data).expect("writing to memory");
    }
    zip.finish().expect("writing to memory");
    out.into_inner()
}

fn malformed(format: &str, err: impl std::fmt::Display) -> ToolError {
    ToolError::new(
        codes::MALFORMED,
        format!("this {format} file is damaged: {err}"),
    )
    .suggest("open and re-save it in its application, or read another copy")
}

fn too_large(message: String) -> ToolError {
    ToolError::new(codes::TOO_LARGE, message)
        .suggest("the file is not indexed; split it or read it in its application")
}

fn contains_utf16(bytes: &[u8], needle: &str) -> bool {
    let pattern: Vec<u8> = needle.encode_utf16().flat_map(u16::to_le_bytes).collect();
    bytes.windows(pattern.len()).any(|w| w == pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_and_reports_absent_ones() {
        let bytes = write_zip(&[("a.xml", b"<a/>")]);
        let mut archive = Archive::open(&bytes, "docx", Caps::default()).unwrap();
        assert_eq!(archive.read("a.xml").unwrap().unwrap(), b"<a/>");
        assert!(archive.read("b.xml").unwrap().is_none());
    }

    #[test]
    fn refuses_bombs_before_inflating() {
        let zeros = vec![0u8; 4 << 20];
        let bytes = write_zip(&[("big.xml", &zeros)]);
        let err = Archive::open(&bytes, "xlsx", Caps::default())
            .err()
            .unwrap();
        assert_eq!(err.code, codes::TOO_LARGE);
        assert!(err.message.contains("zip bomb"), "{}", err.message);
        let caps = Caps {
            max_total: 1000,
            ..Caps::default()
        };
        let bytes = write_zip(&[("a", &[1u8; 600]), ("b", &[2u8; 600])]);
        let err = Archive::open(&bytes, "xlsx", caps).err().unwrap();
        assert_eq!(err.code, codes::TOO_LARGE);
    }

    #[test]
    fn damaged_and_protected_files_get_clean_codes() {
        let bytes = write_zip(&[("a.xml", b"<a/>")]);
        let err = Archive::open(&bytes[..bytes.len() / 2], "docx", Caps::default())
            .err()
            .unwrap();
        assert_eq!(err.code, codes::MALFORMED);
        let mut cfb = CFB_SIGNATURE.to_vec();
        cfb.extend("EncryptionInfo".encode_utf16().flat_map(u16::to_le_bytes));
        let err = Archive::open(&cfb, "docx", Caps::default()).err().unwrap();
        assert_eq!(err.code, codes::ENCRYPTED);
        let err = Archive::open(CFB_SIGNATURE, "docx", Caps::default())
            .err()
            .unwrap();
        assert_eq!(err.code, codes::UNSUPPORTED);
    }
}
