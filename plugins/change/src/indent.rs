//! Re-basing a replacement's indentation to where it lands (the structural and fuzzy modes):
//! the agent quoted the target at one depth, the file has it at another, so every replacement
//! line moves by the same number of levels, rendered in the file's style (tabs stay tabs,
//! spaces keep the file's step).

use crate::text::{IndentStyle, indent_style};

const TAB_COLUMNS: usize = 4;

/// How to move replacement lines from the target's base indentation to the file's.
#[derive(Debug, Clone, PartialEq)]
pub struct Rebase {
    pub target_base: String,
    pub file_base: String,
    /// The agent's indentation style (from target and replacement).
    pub agent: IndentStyle,
    pub file: IndentStyle,
}

impl Rebase {
    pub fn new(target_base: &str, file_base: &str, agent_text: &str, file: IndentStyle) -> Self {
        Self {
            target_base: target_base.to_string(),
            file_base: file_base.to_string(),
            agent: indent_style(agent_text),
            file,
        }
    }

    /// The replacement moved to the file's depth; the first line is left as is when the match
    /// starts mid-line (it continues a line whose indentation the file keeps).
    pub fn apply(&self, replacement: &str, first_line_starts_line: bool) -> String {
        replacement
            .split('\n')
            .enumerate()
            .map(|(i, line)| {
                if (i == 0 && !first_line_starts_line) || line.trim().is_empty() {
                    return line.to_string();
                }
                let rest = line.trim_start_matches([' ', '\t']);
                let ws = &line[..line.len() - rest.len()];
                format!("{}{rest}", self.rebase(ws))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn rebase(&self, ws: &str) -> String {
        let same_style = matches!(
            (self.agent, self.file),
            (IndentStyle::Tabs, IndentStyle::Tabs)
                | (IndentStyle::Spaces(_), IndentStyle::Spaces(_))
        );
        if same_style && let Some(extra) = ws.strip_prefix(self.target_base.as_str()) {
            return format!("{}{extra}", self.file_base);
        }
        let agent_step = step(self.agent);
        let relative = columns(ws) as isize - columns(&self.target_base) as isize;
        let levels = relative.div_euclid(agent_step as isize);
        let remainder = relative.rem_euclid(agent_step as isize) as usize;
        let target_columns = columns(&self.file_base) as isize + levels * step(self.file) as isize;
        render(target_columns.max(0) as usize, self.file) + &" ".repeat(remainder)
    }
}

fn step(style: IndentStyle) -> usize {
    match style {
        IndentStyle::Tabs => TAB_COLUMNS,
        IndentStyle::Spaces(n) => n,
    }
}

fn columns(ws: &str) -> usize {
    ws.chars()
        .map(|c| if c == '\t' { TAB_COLUMNS } else { 1 })
        .sum()
}

fn render(cols: usize, style: IndentStyle) -> String {
    match style {
        IndentStyle::Tabs => "\t".repeat(cols / TAB_COLUMNS) + &" ".repeat(cols % TAB_COLUMNS),
        IndentStyle::Spaces(_) => " ".repeat(cols),
    }
}

/// The leading whitespace of `line`.
pub fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_style_moves_by_the_base_difference() {
        let r = Rebase::new(
            "",
            "        ",
            "if x {\n    y();\n}",
            IndentStyle::Spaces(4),
        );
        assert_eq!(
            r.apply("if x {\n    z();\n}", true),
            "        if x {\n            z();\n        }"
        );
    }

    #[test]
    fn spaces_from_the_agent_become_tabs_in_a_tab_file() {
        let r = Rebase::new("    ", "\t", "    a\n        b", IndentStyle::Tabs);
        assert_eq!(r.apply("    a\n        b\n    c", true), "\ta\n\t\tb\n\tc");
    }

    #[test]
    fn tabs_from_the_agent_become_the_files_spaces() {
        let r = Rebase::new("\t", "  ", "\ta\n\t\tb", IndentStyle::Spaces(2));
        assert_eq!(r.apply("\ta\n\t\tb", true), "  a\n    b");
    }

    #[test]
    fn a_mid_line_first_line_is_kept() {
        let r = Rebase::new("", "    ", "x", IndentStyle::Spaces(4));
        assert_eq!(r.apply("x(1,\n2)", false), "x(1,\n    2)");
    }

    #[test]
    fn dedent_below_the_base_is_clamped() {
        let r = Rebase::new("        ", "  ", "        a", IndentStyle::Spaces(2));
        assert_eq!(r.apply("a", true), "a");
    }
}
