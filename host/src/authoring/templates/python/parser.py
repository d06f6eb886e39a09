"""{{name}}: a smart-context format parser for `.{{name}}` files, built with componentize-py.

Each block of lines separated by a blank line becomes a section, titled by its first line.
Replace `parse` with your format's reading; the host indexes the sections and explore finds
them. The plugin gets no files, network or environment: only the bytes it is given.
"""

import wit_world
from wit_world.exports.parser import ParserSpec
from wit_world.imports.types import Document, Section

from smart_context_plugin import fail


class Parser(wit_world.exports.Parser):
    def describe(self) -> ParserSpec:
        return ParserSpec(format="{{name}}", extensions=["{{name}}"], signatures=[], text_fallback=False)

    def parse(self, bytes: bytes, path: str) -> Document:
        try:
            text = bytes.decode("utf-8")
        except UnicodeDecodeError:
            raise fail("MALFORMED", f"{path} is not UTF-8", "save the file as UTF-8")
        sections = []
        block = []
        for number, line in enumerate(text.splitlines() + [""], start=1):
            if line.strip():
                block.append((number, line))
                continue
            if block:
                title = block[0][1].lstrip("#").strip()
                sections.append(
                    Section(
                        id=f"block-{len(sections) + 1}",
                        heading_path=[title],
                        level=1,
                        text="\n".join(l for _, l in block),
                        start_line=block[0][0],
                        end_line=block[-1][0],
                        page=None,
                    )
                )
            block = []
        title = sections[0].heading_path[0] if sections else None
        return Document(title=title, kind="{{name}}", sections=sections, links=[], metadata=[], warnings=[])
