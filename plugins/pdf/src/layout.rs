//! A page's text in lines: the content stream's text operators, decoded with each font's
//! encoding, with a line break wherever the text position moves to another baseline and a
//! space where it moves along the same one (lopdf's own extraction breaks lines only at `T*`
//! and `ET`, which puts whole pages of many producers on one line).

use lopdf::content::Content;
use lopdf::{Encoding, Object, ObjectId};
use std::collections::BTreeMap;

/// Baselines closer than this (text space units) are the same line.
const SAME_LINE: f32 = 1.0;
/// A TJ adjustment below this (thousandths of an em) is a word gap.
const WORD_GAP: f32 = -100.0;

/// The text of a page and the number of fragments that could not be decoded.
pub fn page_text(
    pdf: &lopdf::Document,
    page: ObjectId,
    limit: usize,
) -> lopdf::Result<(String, usize)> {
    let mut failed = 0;
    let encodings: BTreeMap<Vec<u8>, Encoding> = pdf
        .get_page_fonts(page)?
        .into_iter()
        .filter_map(
            |(name, font)| match font.get_font_encoding_with_limit(pdf, limit) {
                Ok(e) => Some((name, e)),
                Err(_) => {
                    failed += 1;
                    None
                }
            },
        )
        .collect();
    let content = Content::decode(&pdf.get_page_content_with_limit(page, limit)?)?;
    let mut out = Writer::default();
    let mut font: Option<&Encoding> = None;
    for op in &content.operations {
        let num = |i: usize| op.operands.get(i).and_then(|o| o.as_float().ok());
        match op.operator.as_str() {
            "BT" => out.y = 0.0,
            "Tf" => {
                font = op
                    .operands
                    .first()
                    .and_then(|o| o.as_name().ok())
                    .and_then(|n| encodings.get(n));
            }
            "TL" => out.leading = num(0).unwrap_or(0.0),
            "Td" | "TD" => {
                let ty = num(1).unwrap_or(0.0);
                if op.operator == "TD" {
                    out.leading = -ty;
                }
                out.moved(out.y + ty);
            }
            "Tm" => out.moved(num(5).unwrap_or(out.y)),
            "T*" => out.moved(out.y - out.leading.max(SAME_LINE * 2.0)),
            "Tj" | "TJ" | "'" | "\"" => {
                if matches!(op.operator.as_str(), "'" | "\"") {
                    out.moved(out.y - out.leading.max(SAME_LINE * 2.0));
                }
                let Some(encoding) = font else { continue };
                let shown = match op.operator.as_str() {
                    "\"" => op.operands.get(2..).unwrap_or(&[]),
                    _ => &op.operands[..],
                };
                out.start_show();
                for operand in shown {
                    failed += usize::from(out.show(encoding, operand).is_err());
                }
            }
            _ => {}
        }
    }
    Ok((out.text, failed))
}

#[derive(Default)]
struct Writer {
    text: String,
    /// The current baseline, in text space.
    y: f32,
    leading: f32,
    /// The baseline of the last text shown.
    shown_y: Option<f32>,
    /// The position moved since the last text shown.
    moved: bool,
}

impl Writer {
    fn moved(&mut self, y: f32) {
        self.y = y;
        self.moved = true;
    }

    /// A break before text on another baseline, a space before text moved along this one.
    fn start_show(&mut self) {
        let new_line = self
            .shown_y
            .is_some_and(|last| (last - self.y).abs() > SAME_LINE);
        if new_line && !self.text.ends_with('\n') {
            self.text.push('\n');
        } else if !new_line
            && self.moved
            && self.shown_y.is_some()
            && !self.text.ends_with([' ', '\n'])
        {
            self.text.push(' ');
        }
        self.shown_y = Some(self.y);
        self.moved = false;
    }

    fn show(&mut self, encoding: &Encoding, operand: &Object) -> lopdf::Result<()> {
        match operand {
            Object::String(bytes, _) => encoding.write_to_string(bytes, &mut self.text),
            Object::Array(items) => {
                for item in items {
                    match item {
                        Object::String(bytes, _) => {
                            encoding.write_to_string(bytes, &mut self.text)?
                        }
                        Object::Integer(_) | Object::Real(_)
                            if item.as_float().is_ok_and(|v| v < WORD_GAP)
                                && !self.text.ends_with([' ', '\n']) =>
                        {
                            self.text.push(' ');
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
