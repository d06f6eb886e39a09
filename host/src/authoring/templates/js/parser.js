// {{name}}: a smart-context format parser for `.{{name}}` files, built with componentize-js.
// Each block of lines separated by a blank line becomes a section, titled by its first line.
// Replace `parse` with your format's reading; the host indexes the sections and explore finds
// them. The plugin gets no files, network or environment: only the bytes it is given.

import { decodeUtf8 } from "./smart-context-plugin.js";

export const parser = {
  describe() {
    return { format: "{{name}}", extensions: ["{{name}}"], signatures: [], textFallback: false };
  },

  parse(bytes, path) {
    const text = decodeUtf8(bytes, path);
    const sections = [];
    let block = [];
    const lines = text.split(/\r?\n/);
    lines.push("");
    lines.forEach((line, index) => {
      if (line.trim() !== "") {
        block.push([index + 1, line]);
        return;
      }
      if (block.length > 0) {
        sections.push({
          id: `block-${sections.length + 1}`,
          headingPath: [block[0][1].replace(/^#+/, "").trim()],
          level: 1,
          text: block.map(([, l]) => l).join("\n"),
          startLine: block[0][0],
          endLine: block[block.length - 1][0],
          page: undefined,
        });
      }
      block = [];
    });
    return {
      title: sections.length > 0 ? sections[0].headingPath[0] : undefined,
      kind: "{{name}}",
      sections,
      links: [],
      metadata: [],
      warnings: [],
    };
  },
};
