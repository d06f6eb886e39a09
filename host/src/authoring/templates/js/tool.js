// {{name}}: a smart-context tool ({{world}} world), built with componentize-js. It lists the
// lines of the workspace's files that hold a word, through the host's `workspace` interface
// (the only way a plugin reaches files). Replace `call` with your tool; grant only the
// interfaces it uses (the others answer ACCESS_DENIED).

import { read, walk } from "smart-context:plugin/workspace@{{contract}}";
import { args, decodeUtf8, fail, output, readOptions } from "./smart-context-plugin.js";

const inputSchema = {
  type: "object",
  properties: { word: { type: "string" }, glob: { type: "string" } },
  required: ["word"],
};

export const tool = {
  describe() {
    return {
      name: "{{tool}}",
      title: "{{name}}",
      description: "Lines of the workspace's files that hold a word",
      inputSchema: JSON.stringify(inputSchema),
      outputSchema: undefined,
      readOnly: true,
      destructive: false,
      idempotent: true,
    };
  },

  call(argsJson) {
    const { word, glob } = args(argsJson);
    if (typeof word !== "string" || word === "") {
      throw fail("INVALID_ARGS", "word is required", 'pass {"word": "TODO"}');
    }
    const walked = walk(".", { maxDepth: 16, maxFiles: 2000, glob });
    const matches = [];
    for (const entry of walked.files) {
      if (entry.sensitive) continue;
      let text;
      try {
        text = decodeUtf8(read(entry.path, readOptions(1 << 20, true)).bytes, entry.path);
      } catch {
        continue; // unreadable here (denied, binary, too large) or not UTF-8
      }
      const lines = text.split(/\r?\n/);
      lines.forEach((line, index) => {
        if (line.includes(word) && matches.length < 100) {
          matches.push({ path: entry.path, line: index + 1, text: line.trim() });
        }
      });
    }
    const text = matches.map((m) => `${m.path}:${m.line}: ${m.text}`).join("\n");
    return output({ matches }, text);
  },
};
