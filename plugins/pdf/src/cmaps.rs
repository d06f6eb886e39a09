//! Composite fonts in Adobe's predefined CJK CMaps (ISO 32000-1, 9.7.5.2) whose codes are
//! bytes of a legacy encoding: `90ms-RKSJ-H` is Shift JIS, `GBK-EUC-H` is GBK, `B5pc-H` is
//! Big5, `KSC-EUC-H` is EUC-KR, `UniJIS-UCS2-H` is UTF-16, and `H` is JIS X 0208's row and
//! cell (EUC-JP without its high bits). Without a ToUnicode map, decoding the codes in that
//! encoding gives the text: the CMap maps the same characters to CIDs.

use encoding_rs::{BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, SHIFT_JIS, UTF_16BE};
use lopdf::{Dictionary, Object};

/// Whether a font is composite (Type 0): its codes go through a CMap to CIDs.
pub fn composite(font: &Dictionary) -> bool {
    font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type0")
}

/// Whether a composite font's CMap is `Identity-H` or `Identity-V`: its codes are 2-byte
/// CIDs, whatever its ToUnicode map's codespace says.
pub fn identity(font: &Dictionary) -> bool {
    composite(font)
        && matches!(
            font.get(b"Encoding").and_then(Object::as_name),
            Ok(b"Identity-H" | b"Identity-V")
        )
}

/// How a font's codes are bytes of a legacy encoding.
#[derive(Debug, Clone, Copy)]
pub struct Legacy {
    encoding: &'static Encoding,
    /// JIS X 0208 codes (`H`, `V`): each byte is EUC-JP's with its high bit cleared.
    jis: bool,
}

impl Legacy {
    /// Codes read as bytes of `encoding`.
    pub fn of(encoding: &'static Encoding) -> Legacy {
        Legacy {
            encoding,
            jis: false,
        }
    }

    /// The text of `bytes`.
    pub fn decode(&self, bytes: &[u8], out: &mut String) {
        if self.jis {
            let euc: Vec<u8> = bytes.iter().map(|b| b | 0x80).collect();
            out.push_str(&self.encoding.decode_without_bom_handling(&euc).0);
        } else {
            out.push_str(&self.encoding.decode_without_bom_handling(bytes).0);
        }
    }
}

/// How a predefined CMap's codes are written, by the CMap's name.
pub fn legacy_encoding(cmap: &[u8]) -> Option<Legacy> {
    let name = std::str::from_utf8(cmap).ok()?;
    if matches!(name, "H" | "V") {
        return Some(Legacy {
            encoding: EUC_JP,
            jis: true,
        });
    }
    // Writing mode does not change the codes.
    let name = name
        .strip_suffix("-H")
        .or_else(|| name.strip_suffix("-V"))
        .unwrap_or(name);
    let encoding = if name.starts_with("Uni") && (name.ends_with("UCS2") || name.ends_with("UTF16"))
    {
        UTF_16BE
    } else if name.contains("RKSJ") {
        SHIFT_JIS
    } else if name == "EUC" {
        EUC_JP
    } else if name.starts_with("GBK2K") {
        GB18030
    } else if name.starts_with("GB") && (name.contains("EUC") || name.starts_with("GBK")) {
        GBK
    } else if name.contains("B5") {
        BIG5
    } else if name.starts_with("KSC") {
        EUC_KR
    } else {
        return None;
    };
    Some(Legacy::of(encoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predefined_cmaps_name_their_encodings() {
        let decode = |cmap: &str, bytes: &[u8]| {
            legacy_encoding(cmap.as_bytes()).map(|e| {
                let mut out = String::new();
                e.decode(bytes, &mut out);
                out
            })
        };
        assert_eq!(
            decode("90ms-RKSJ-H", &[0x82, 0xA0, 0x82, 0xA2, 0x82, 0xA4]).as_deref(),
            Some("あいう")
        );
        assert_eq!(
            decode("90ms-RKSJ-V", b"abc").as_deref(),
            Some("abc"),
            "one-byte codes too"
        );
        assert_eq!(
            decode("UniJIS-UCS2-H", &[0x30, 0x42]).as_deref(),
            Some("あ")
        );
        assert_eq!(decode("GBK-EUC-H", &[0xC4, 0xE3]).as_deref(), Some("你"));
        assert_eq!(decode("B5pc-H", &[0xA7, 0x41]).as_deref(), Some("你"));
        assert_eq!(decode("KSC-EUC-H", &[0xB0, 0xA1]).as_deref(), Some("가"));
        assert_eq!(decode("EUC-H", &[0xA4, 0xA2]).as_deref(), Some("あ"));
        // noembed-jis7.pdf: JIS X 0208 row 4, cell 2.
        assert_eq!(decode("H", &[0x24, 0x22]).as_deref(), Some("あ"));
        assert_eq!(
            decode("V", &[0x24, 0x22, 0x24, 0x24]).as_deref(),
            Some("あい")
        );
        assert!(legacy_encoding(b"Identity-H").is_none());
        assert!(legacy_encoding(b"Adobe-Japan1-6").is_none());
    }
}
