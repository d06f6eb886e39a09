// Drives the built smart-context binary with the official MCP TypeScript SDK, over stdio and
// over streamable HTTP, the way agents built on it do: list the tools (the SDK then validates
// every structuredContent against the tool's outputSchema, failures included), call each
// pillar, make each fail, read the prompt, watch a rebuild's progress; and check that every
// Mermaid diagram understand draws parses with Mermaid's own parser.
//
// Usage: node client.mjs BINARY ROOT CACHE_HOME CONFIG_HOME DATA_HOME
// Prints one JSON report for tests/typescript_sdk.rs to check.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { JSDOM } from "jsdom";

const [binary, root, cacheHome, configHome, dataHome] = process.argv.slice(2);
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  XDG_CACHE_HOME: cacheHome,
  XDG_CONFIG_HOME: configHome,
  XDG_DATA_HOME: dataHome,
  SMART_CONTEXT_LOG: "info",
};

const calls = {
  exploreOk: ["explore", { paths: ["src/lib.rs"] }],
  exploreQuery: ["explore", { query: "answer" }],
  understandOk: ["understand", { goal: "outline", path: "src/lib.rs" }],
  changeDryRun: [
    "change",
    { intent: "ts", edits: [{ filePath: "src/lib.rs", targetString: "    42", replacementString: "    43" }] },
  ],
  manageStatus: ["manage", { command: "status" }],
  // Failures, each a different tool and path through the host.
  exploreInvalidArgs: ["explore", { paths: ["src/lib.rs"], bogus: 1 }],
  exploreMissing: ["explore", { paths: ["no/such/file.rs"] }],
  changeNoMatch: [
    "change",
    { intent: "ts", edits: [{ filePath: "src/lib.rs", targetString: "not in the file", replacementString: "x" }] },
  ],
  writeExists: ["write", { intent: "ts", targetPath: "src/lib.rs", content: "" }],
  understandMissing: ["understand", { goal: "outline", path: "no/such/file.rs" }],
  manageBadCommand: ["manage", { command: "explode" }],
};

async function exercise(client) {
  const report = { calls: {}, thrown: {} };
  const tools = await client.listTools();
  report.tools = tools.tools.map((t) => t.name);
  for (const [label, [name, args]] of Object.entries(calls)) {
    try {
      const result = await client.callTool({ name, arguments: args });
      const text = result.content?.[0]?.text ?? "";
      report.calls[label] = {
        isError: result.isError === true,
        code: result.structuredContent?.code ?? null,
        success: result.structuredContent?.success ?? null,
        firstLine: text.split("\n")[0],
        hasSuggestionLine: text.split("\n")[1]?.startsWith("suggestion: ") ?? false,
      };
    } catch (err) {
      // What the issue saw: -32602 "Structured content does not match the tool's output schema".
      report.thrown[label] = `${err.code ?? ""} ${err.message}`;
    }
  }
  const prompts = await client.listPrompts();
  report.prompts = prompts.prompts.map((p) => p.name);
  const playbook = await client.getPrompt({ name: "playbook" });
  report.playbookChars = playbook.messages[0].content.text.length;
  const progress = [];
  const rebuild = await client.callTool(
    { name: "manage", arguments: { command: "rebuild", scope: "full" } },
    undefined,
    { onprogress: (p) => progress.push(p.progress) },
  );
  report.rebuild = { isError: rebuild.isError === true, progress };
  return report;
}

// Diagrams of a project, a file in an import cycle and a file with a hostile name (the Rust
// test writes them into the root).
const diagrams = {
  project: { goal: "architecture of the project" },
  cycleFile: { goal: "outline", path: "pkg/a.py" },
  hostileName: { goal: "outline", path: 'pkg/we"ird [x] {y} <z> |w| %% #1;.py' },
};

/// Parses each diagram with Mermaid (the package renders in browsers; jsdom stands in for the
/// DOM its sanitizer needs): what a client showing the diagram would meet.
async function checkDiagrams(client) {
  const dom = new JSDOM("<!doctype html><html><body></body></html>");
  globalThis.window = dom.window;
  globalThis.document = dom.window.document;
  const { default: mermaid } = await import("mermaid");
  mermaid.initialize({ startOnLoad: false });
  const out = {};
  for (const [label, args] of Object.entries(diagrams)) {
    const result = await client.callTool({ name: "understand", arguments: args });
    const text = result.structuredContent?.visualization;
    const entry = { isError: result.isError === true, chars: text?.length ?? 0, nodes: 0 };
    if (typeof text === "string") {
      entry.nodes = (text.match(/^\s+n\d+\[/gm) ?? []).length;
      try {
        entry.diagramType = (await mermaid.parse(text)).diagramType;
      } catch (err) {
        entry.parseError = String(err.message ?? err);
        entry.text = text;
      }
    }
    out[label] = entry;
  }
  // The parser is real: a broken diagram is refused.
  try {
    await mermaid.parse('graph TD\n  n0["a" --> n1\n');
    out.brokenRefused = false;
  } catch {
    out.brokenRefused = true;
  }
  return out;
}

async function overStdio() {
  const transport = new StdioClientTransport({
    command: binary,
    args: ["--root", root, "serve"],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "ts-sdk-test", version: "1.0.0" });
  await client.connect(transport);
  const report = await exercise(client);
  report.mermaid = await checkDiagrams(client);
  report.server = client.getServerVersion()?.name;
  report.instructions = (client.getInstructions() ?? "").length;
  await client.close();
  return report;
}

async function overHttp() {
  const token = "ts-sdk-test-token-0123456789";
  const child = spawn(binary, ["--root", root, "serve", "--http", "127.0.0.1:0", "--token", token], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    lines.on("line", (line) => {
      const at = line.indexOf("listening on ");
      if (at >= 0) resolve(line.slice(at + "listening on ".length).trim());
    });
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening`)));
  });
  try {
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: "ts-sdk-test-http", version: "1.0.0" });
    await client.connect(transport);
    const report = await exercise(client);
    await client.close();
    return report;
  } finally {
    child.kill();
  }
}

const report = { stdio: await overStdio(), http: await overHttp() };
process.stdout.write(JSON.stringify(report));
