"""{{name}}: a smart-context tool ({{world}} world), built with componentize-py.

It lists the lines of the workspace's files that hold a word, through the host's `workspace`
interface (the only way a plugin reaches files). Replace `call` with your tool; grant only the
interfaces it uses (the others answer ACCESS_DENIED).
"""

import wit_world
from componentize_py_types import Err
from wit_world.exports.tool import ToolSpec, ToolOutput
from wit_world.imports import workspace
from wit_world.imports.workspace import WalkOptions

from smart_context_plugin import args, fail, output, read_options

INPUT_SCHEMA = '{"type":"object","properties":{"word":{"type":"string"},"glob":{"type":"string"}},"required":["word"]}'


class Tool(wit_world.exports.Tool):
    def describe(self) -> ToolSpec:
        return ToolSpec(
            name="{{tool}}",
            title="{{name}}",
            description="Lines of the workspace's files that hold a word",
            input_schema=INPUT_SCHEMA,
            output_schema=None,
            read_only=True,
            destructive=False,
            idempotent=True,
        )

    def call(self, args_json: str) -> ToolOutput:
        arguments = args(args_json)
        word = arguments.get("word")
        if not isinstance(word, str) or not word:
            raise fail("INVALID_ARGS", "word is required", 'pass {"word": "TODO"}')
        walked = workspace.walk(".", WalkOptions(max_depth=16, max_files=2000, glob=arguments.get("glob")))
        matches = []
        for entry in walked.files:
            if entry.sensitive:
                continue
            try:
                content = workspace.read(entry.path, read_options(allow_truncate=True))
            except Err:
                continue
            for number, line in enumerate(content.bytes.decode("utf-8", "replace").splitlines(), start=1):
                if word in line and len(matches) < 100:
                    matches.append({"path": entry.path, "line": number, "text": line.strip()})
        text = "\n".join(f"{m['path']}:{m['line']}: {m['text']}" for m in matches)
        return output({"matches": matches}, text)
