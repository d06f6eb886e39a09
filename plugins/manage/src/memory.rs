//! remember and forget: the agent's hand on the session memory. A note becomes an `insight`
//! event explore finds again with `include.memory`; forgetting drops events by id, session,
//! age or all, and says how many went.

use crate::smart_context::plugin::memory;
use crate::{ManageArgs, Outcome, action_in};
use sdk::guidance::Guidance;
use sdk::{ToolError, ToolResult, codes};
use serde_json::json;

/// A note at most this long (a decision or a finding, not a file).
const MAX_NOTE_CHARS: usize = 8_000;

pub fn remember(args: &ManageArgs) -> ToolResult<Outcome> {
    let content = args.content.as_deref().unwrap_or("").trim();
    if content.is_empty() {
        return Err(ToolError::new(codes::INVALID_ARGS, "remember needs content")
            .suggest("pass content: the decision, finding or failure to keep, with files and tags if they help"));
    }
    if content.chars().count() > MAX_NOTE_CHARS {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            format!("a note holds at most {MAX_NOTE_CHARS} characters"),
        )
        .suggest(
            "keep the decision and point at the files (files: [...]) instead of pasting them",
        ));
    }
    let id = memory::remember(&memory::Note {
        content: content.to_string(),
        files: args.files.clone().unwrap_or_default(),
        tags: args.tags.clone().unwrap_or_default(),
    })?;
    let text = format!("remembered {id}");
    let g = Guidance::new(format!("kept as {id}")).action(action_in(
        "explore",
        3,
        "recall",
        "Find it again later.",
        json!({ "memory": { "ids": [id] } }),
        "the note in full",
    ));
    Ok((json!({ "id": id }), text, g))
}

pub fn forget(args: &ManageArgs) -> ToolResult<Outcome> {
    let ids = args.ids.clone().unwrap_or_default();
    let older_than_ms = match args.older_than_days {
        Some(days) if !(days.is_finite() && days >= 0.0) => {
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                "olderThanDays must be a number of days, 0 or more",
            ));
        }
        Some(days) => Some((days * 86_400_000.0) as u64),
        None => None,
    };
    if ids.is_empty() && args.session_id.is_none() && older_than_ms.is_none() && !args.all {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            "forget needs ids, sessionId, olderThanDays or all: true",
        )
        .suggest("forget {ids: [\"mem_12\"]} drops one event; all: true drops the whole memory"));
    }
    let gone = memory::forget(&memory::ForgetRequest {
        ids,
        session_id: args.session_id.clone(),
        older_than_ms,
        all: args.all,
    })?;
    let totals = memory::totals()?;
    let text = format!("forgot {gone} event(s); {} remain", totals.events);
    let g = Guidance::new(format!("{gone} forgotten"));
    Ok((
        json!({ "forgotten": gone, "remaining": totals.events }),
        text,
        g,
    ))
}
