//! Where text lands on the page: each font's glyph widths and the text and graphics state
//! (ISO 32000-1, 8.3 and 9.3-9.4), so the writer tells a word gap from kerning and a new line
//! from a shifted word by where the glyphs really are, not by which operator moved them.

use crate::standard14;
use lopdf::{Dictionary, Document, Object};
use std::collections::HashMap;

/// A 2-D affine matrix `[a b c d e f]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix(pub [f32; 6]);

impl Matrix {
    pub const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// The six numbers of a `cm`, `Tm` or `/Matrix`.
    pub fn of(operands: &[Object]) -> Option<Matrix> {
        let mut m = [0.0; 6];
        for (slot, operand) in m.iter_mut().zip(operands.get(..6)?) {
            *slot = operand.as_float().ok().filter(|v| v.is_finite())?;
        }
        Some(Matrix(m))
    }

    fn translate(tx: f32, ty: f32) -> Matrix {
        Matrix([1.0, 0.0, 0.0, 1.0, tx, ty])
    }

    /// This transformation, then `next`.
    pub fn then(&self, next: &Matrix) -> Matrix {
        let [a, b, c, d, e, f] = self.0;
        let [na, nb, nc, nd, ne, nf] = next.0;
        Matrix([
            a * na + b * nc,
            a * nb + b * nd,
            c * na + d * nc,
            c * nb + d * nd,
            e * na + f * nc + ne,
            e * nb + f * nd + nf,
        ])
    }

    fn origin(&self) -> (f32, f32) {
        (self.0[4], self.0[5])
    }

    /// How much it stretches a vertical length: a font's size on the page.
    fn scale_y(&self) -> f32 {
        self.0[2].hypot(self.0[3])
    }
}

/// Glyph widths of one font, in thousandths of an em.
pub struct Metrics {
    widths: HashMap<u32, f32>,
    default: f32,
    /// Codes are two bytes (a composite font), else one.
    pub two_byte: bool,
    /// The font's em in units of its size: 1, but a Type 3 font's glyph space is its own
    /// (`/F 0.24 Tf` with an identity font matrix draws glyphs some 70 units tall).
    pub em: f32,
}

/// CIDs one `/W` range may cover; a larger range is damage, not a font.
const MAX_RANGE: u32 = 1 << 16;
/// A simple font without `/Widths` (the standard 14): an average glyph.
const STANDARD_WIDTH: f32 = 500.0;

impl Metrics {
    pub fn of(pdf: &Document, font: &Dictionary) -> Metrics {
        let num = |o: &Object| {
            pdf.dereference(o)
                .ok()
                .and_then(|(_, o)| o.as_float().ok())
                .filter(|v| v.is_finite())
        };
        let array = |dict: &Dictionary, key: &[u8]| -> Vec<Object> {
            dict.get_deref(key, pdf)
                .and_then(Object::as_array)
                .cloned()
                .unwrap_or_default()
        };
        let subtype = font
            .get(b"Subtype")
            .and_then(Object::as_name)
            .unwrap_or(b"");
        let mut widths = HashMap::new();
        if subtype == b"Type0" {
            let cid_font = array(font, b"DescendantFonts")
                .first()
                .and_then(|o| pdf.dereference(o).ok())
                .and_then(|(_, o)| o.as_dict().ok().cloned())
                .unwrap_or_default();
            let default = cid_font.get(b"DW").ok().and_then(num).unwrap_or(1000.0);
            let w = array(&cid_font, b"W");
            let mut i = 0;
            while i < w.len() {
                let Some(first) = num(&w[i]).map(|v| v as u32) else {
                    break;
                };
                match w.get(i + 1).map(|o| pdf.dereference(o).map(|(_, o)| o)) {
                    Some(Ok(Object::Array(list))) => {
                        for (k, v) in list.iter().enumerate().take(MAX_RANGE as usize) {
                            if let Some(v) = num(v) {
                                widths.insert(first + k as u32, v);
                            }
                        }
                        i += 2;
                    }
                    Some(Ok(last)) => {
                        let (Some(last), Some(v)) = (num(last), w.get(i + 2).and_then(num)) else {
                            break;
                        };
                        for cid in first..=(last as u32).min(first.saturating_add(MAX_RANGE)) {
                            widths.insert(cid, v);
                        }
                        i += 3;
                    }
                    _ => break,
                }
            }
            return Metrics {
                widths,
                default,
                two_byte: true,
                em: 1.0,
            };
        }
        // Type 3 glyph widths are in glyph space, scaled by the font matrix. Its em, for the
        // gap thresholds, is taken as twice its mean glyph advance (about what it is in text
        // fonts): its bounding box is too often degenerate to say.
        let (scale, em) = if subtype == b"Type3" {
            let a = font
                .get(b"FontMatrix")
                .ok()
                .and_then(|m| Matrix::of(m.as_array().ok()?))
                .map_or(0.001, |m| m.0[0].abs());
            let advances: Vec<f32> = array(font, b"Widths")
                .iter()
                .filter_map(num)
                .filter(|w| *w > 0.0)
                .collect();
            let em = if advances.is_empty() {
                1.0
            } else {
                2.0 * advances.iter().sum::<f32>() / advances.len() as f32 * a
            };
            (a * 1000.0, em.clamp(0.01, 100.0))
        } else {
            (1.0, 1.0)
        };
        let first = font.get(b"FirstChar").ok().and_then(num).unwrap_or(0.0) as u32;
        let listed = array(font, b"Widths");
        let standard = listed.is_empty().then(|| {
            font.get(b"BaseFont")
                .and_then(Object::as_name)
                .ok()
                .and_then(standard14::widths)
        });
        for (k, &w) in standard.flatten().iter().flatten().enumerate() {
            widths.insert(32 + k as u32, f32::from(w));
        }
        for (k, v) in listed.iter().enumerate().take(256) {
            if let Some(v) = num(v) {
                widths.insert(first + k as u32, v * scale);
            }
        }
        let missing = font
            .get_deref(b"FontDescriptor", pdf)
            .and_then(Object::as_dict)
            .ok()
            .and_then(|d| d.get(b"MissingWidth").ok().and_then(num));
        Metrics {
            default: missing
                .filter(|w| *w > 0.0)
                .unwrap_or(if listed.is_empty() {
                    STANDARD_WIDTH
                } else {
                    0.0
                }),
            widths,
            two_byte: false,
            em,
        }
    }

    fn width(&self, code: u32) -> f32 {
        self.widths.get(&code).copied().unwrap_or(self.default)
    }
}

/// The text and graphics state that decides where glyphs land.
pub struct TextState {
    ctm: Matrix,
    saved: Vec<Matrix>,
    tm: Matrix,
    tlm: Matrix,
    pub size: f32,
    pub char_spacing: f32,
    pub word_spacing: f32,
    /// `Tz`, as a fraction.
    pub scale: f32,
    pub leading: f32,
}

/// Graphics states saved at most this deep (`q` without `Q` in damaged streams).
const MAX_SAVED: usize = 64;

impl Default for TextState {
    fn default() -> Self {
        TextState {
            ctm: Matrix::IDENTITY,
            saved: Vec::new(),
            tm: Matrix::IDENTITY,
            tlm: Matrix::IDENTITY,
            size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            scale: 1.0,
            leading: 0.0,
        }
    }
}

impl TextState {
    pub fn save(&mut self) {
        if self.saved.len() < MAX_SAVED {
            self.saved.push(self.ctm);
        }
    }

    pub fn restore(&mut self) {
        if let Some(ctm) = self.saved.pop() {
            self.ctm = ctm;
        }
    }

    /// `cm`, or entering a form with its `/Matrix`.
    pub fn transform(&mut self, m: &Matrix) {
        self.ctm = m.then(&self.ctm);
    }

    /// `BT`.
    pub fn begin(&mut self) {
        self.tm = Matrix::IDENTITY;
        self.tlm = Matrix::IDENTITY;
    }

    /// `Td` (and `TD`, `T*`).
    pub fn move_line(&mut self, tx: f32, ty: f32) {
        self.tlm = Matrix::translate(tx, ty).then(&self.tlm);
        self.tm = self.tlm;
    }

    /// `Tm`.
    pub fn set_matrix(&mut self, m: Matrix) {
        self.tm = m;
        self.tlm = m;
    }

    pub fn next_line(&mut self) {
        self.move_line(0.0, -self.leading);
    }

    /// Where the next glyph's origin is on the page.
    pub fn position(&self) -> (f32, f32) {
        self.tm.then(&self.ctm).origin()
    }

    /// The font's size on the page.
    pub fn page_size(&self) -> f32 {
        (self.size * self.tm.then(&self.ctm).scale_y()).abs()
    }

    /// Past the glyphs of `bytes` in a font with these metrics.
    pub fn show(&mut self, metrics: &Metrics, bytes: &[u8]) {
        let step = if metrics.two_byte { 2 } else { 1 };
        let mut tx = 0.0;
        for code in bytes.chunks(step) {
            let code = code.iter().fold(0u32, |c, b| c << 8 | u32::from(*b));
            let space = !metrics.two_byte && code == 32;
            tx += (metrics.width(code) / 1000.0 * self.size
                + self.char_spacing
                + if space { self.word_spacing } else { 0.0 })
                * self.scale;
        }
        self.advance(tx);
    }

    /// A `TJ` number: thousandths of an em back (positive) or forward (negative).
    pub fn adjust(&mut self, amount: f32) {
        self.advance(-amount / 1000.0 * self.size * self.scale);
    }

    fn advance(&mut self, tx: f32) {
        if tx.is_finite() {
            self.tm = Matrix::translate(tx, 0.0).then(&self.tm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    #[test]
    fn matrices_compose_in_drawing_order() {
        let scale = Matrix([2.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        let shift = Matrix::translate(10.0, 5.0);
        assert_eq!(shift.then(&scale).origin(), (20.0, 10.0));
        assert_eq!(scale.then(&shift).origin(), (10.0, 5.0));
        assert_eq!(scale.scale_y(), 2.0);
    }

    #[test]
    fn a_type3_font_measures_in_its_own_glyph_space() {
        let pdf = Document::new();
        let font = dictionary! {
            "Type" => "Font", "Subtype" => "Type3", "FirstChar" => 65,
            "FontMatrix" => vec![1.into(), 0.into(), 0.into(), 1.into(), 0.into(), 0.into()],
            "FontBBox" => vec![0.into(), 0.into(), 1.into(), (-1).into()],
            "Widths" => vec![40.into(), 0.into(), 44.into()],
        };
        let m = Metrics::of(&pdf, &font);
        assert_eq!((m.width(65), m.width(67), m.em), (40_000.0, 44_000.0, 84.0));
        let mut state = TextState {
            size: 0.24,
            ..TextState::default()
        };
        state.show(&m, b"A");
        assert!((state.position().0 - 9.6).abs() < 1e-4);
    }

    #[test]
    fn glyphs_advance_by_width_spacing_and_scale() {
        let metrics = Metrics {
            widths: HashMap::from([(65, 600.0), (32, 250.0)]),
            default: 0.0,
            two_byte: false,
            em: 1.0,
        };
        let mut state = TextState {
            size: 10.0,
            char_spacing: 1.0,
            word_spacing: 2.0,
            ..TextState::default()
        };
        state.show(&metrics, b"A A");
        // 6 + 1, then 2.5 + 1 + 2, then 6 + 1
        assert_eq!(state.position(), (19.5, 0.0));
        state.adjust(-1000.0);
        assert_eq!(state.position(), (29.5, 0.0));
    }
}
