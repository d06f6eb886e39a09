//! Adobe's CJK character collections (Adobe-Japan1, -GB1, -CNS1, -Korea1): which character
//! each CID stands for. A CID-keyed font in one of them needs no ToUnicode map for its text
//! to be known: its CIDs are the collection's, whatever glyphs draw them (pdftotext reads such
//! fonts through poppler-data the same way). The tables are generated from Adobe's
//! `Adobe-<Ordering>-UCS2` CMaps by `scripts/gen-cid-unicode.py` (layout described there).

/// One collection's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Collection(&'static [u8]);

static JAPAN1: &[u8] = include_bytes!("../data/adobe-japan1.bin");
static GB1: &[u8] = include_bytes!("../data/adobe-gb1.bin");
static CNS1: &[u8] = include_bytes!("../data/adobe-cns1.bin");
static KOREA1: &[u8] = include_bytes!("../data/adobe-korea1.bin");

impl Collection {
    /// The collection a `/CIDSystemInfo` (or a `usecmap`'s `Adobe-<Ordering>-UCS2`) names.
    pub fn named(registry: &[u8], ordering: &[u8]) -> Option<Collection> {
        if registry != b"Adobe" {
            return None;
        }
        let table = match ordering {
            b"Japan1" => JAPAN1,
            b"GB1" => GB1,
            b"CNS1" => CNS1,
            b"Korea1" => KOREA1,
            _ => return None,
        };
        Some(Collection(table))
    }

    /// The collection whose CID-to-Unicode CMap `name` is (`Adobe-Korea1-UCS2`).
    pub fn of_cmap(name: &[u8]) -> Option<Collection> {
        let rest = name.strip_prefix(b"Adobe-")?;
        let ordering = rest
            .strip_suffix(b"-UCS2")
            .or_else(|| rest.strip_suffix(b"-UTF16"))?;
        Collection::named(b"Adobe", ordering)
    }

    /// The character CID `cid` stands for.
    pub fn char(&self, cid: u16) -> Option<char> {
        let data = self.0;
        let count = u32_at(data, 0)? as usize;
        let cid = usize::from(cid);
        if cid >= count {
            return None;
        }
        match u16_at(data, 4 + 2 * cid)? {
            0 => None,
            0xFFFF => {
                let wide = 4 + 2 * count;
                let n = u32_at(data, wide)? as usize;
                let entry = |i: usize| -> Option<(u16, u32)> {
                    let at = wide + 4 + 6 * i;
                    Some((u16_at(data, at)?, u32_at(data, at + 2)?))
                };
                let (mut low, mut high) = (0, n);
                while low < high {
                    let mid = (low + high) / 2;
                    let (at, cp) = entry(mid)?;
                    match usize::from(at).cmp(&cid) {
                        std::cmp::Ordering::Less => low = mid + 1,
                        std::cmp::Ordering::Greater => high = mid,
                        std::cmp::Ordering::Equal => return char::from_u32(cp),
                    }
                }
                None
            }
            unit => char::from_u32(u32::from(unit)),
        }
    }
}

fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_give_their_cids_characters() {
        let japan = Collection::named(b"Adobe", b"Japan1").unwrap();
        // Adobe-Japan1: CID 843 is あ, 1 a space, 34 is 'A'.
        assert_eq!(japan.char(843), Some('あ'));
        assert_eq!(japan.char(34), Some('A'));
        assert_eq!(japan.char(0), None, ".notdef");
        assert_eq!(japan.char(u16::MAX), None, "past the collection");
        // Outside the Basic Multilingual Plane.
        assert!(japan.char(13706).is_some_and(|c| u32::from(c) > 0xFFFF));
        let korea = Collection::of_cmap(b"Adobe-Korea1-UCS2").unwrap();
        assert_eq!(korea.char(1086), Some('가'));
        assert!(Collection::named(b"Adobe", b"Identity").is_none());
        assert!(Collection::named(b"Other", b"Japan1").is_none());
        assert!(Collection::of_cmap(b"Adobe-Japan1-6").is_none());
    }
}
