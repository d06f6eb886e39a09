//! Pack items as the envelope shows them: the item without text, a reference to one already
//! shown, and text taken within the budget with the reason it was cut.

use crate::envelope::{Budget, Item, Range, Response};
use crate::meta::Meta;
use crate::smart_context::plugin::store::PackItem;

/// What a rendered item holds and where its text was cut, if it was.
pub struct Rendered {
    pub item: Item,
    /// Characters shown of the item's text, when not all of it was.
    pub cut_at: Option<usize>,
}

/// An item the agent has already seen in this pack: where it is, not what it says.
pub fn reference(item: &PackItem) -> Item {
    let meta = Meta::of(item);
    let mut out = Item::new(meta.kind, &item.path);
    out.title = meta.title;
    out.why.push("shown".into());
    out
}

/// The item as the envelope shows it, without text.
pub fn base(item: &PackItem, meta: &Meta) -> Item {
    let mut out = Item::new(meta.kind, &item.path);
    out.title = meta.title.clone();
    out.score = meta.score;
    out.why = meta.why.clone();
    out.range = item.range.map(|r| Range {
        start_line: r.start,
        end_line: r.end,
    });
    if !meta.asked.is_empty() {
        let asked: Vec<serde_json::Value> = meta
            .asked
            .iter()
            .map(|(start, end)| serde_json::json!({ "start": start, "end": end }))
            .collect();
        out = out
            .meta("merged", asked.len() > 1)
            .meta("originalRanges", asked);
        if let Some(total) = meta.total_lines {
            out = out.meta("totalLines", total);
        }
    }
    // The language follows from the path: not repeated per item, to keep a default answer
    // small.
    out
}

/// Takes `text` within the item cap and what is left of maxChars; when it is cut, the reason
/// says which (the whole response's budget, or `item_reason` for the item's own cap), and the
/// characters shown are returned for the content cursor.
pub fn take(
    text: &str,
    budget: &mut Budget,
    response: &mut Response,
    item_reason: &str,
) -> (String, Option<usize>) {
    let squeezed = budget.remaining() < budget.item_cap();
    let (kept, cut) = budget.take(text);
    if !cut {
        return (kept, None);
    }
    response.degrade(if squeezed {
        "budget_exceeded"
    } else {
        item_reason
    });
    response.degrade("truncated");
    let n = kept.chars().count();
    (kept, Some(n))
}
