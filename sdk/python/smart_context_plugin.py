"""Thin helpers for smart-context plugins written in Python (componentize-py).

The typed bindings come from componentize-py itself (`componentize-py -d wit -w WORLD
bindings .` writes the `wit_world` package an editor can read); these helpers only carry
what every plugin repeats: reading a tool's JSON arguments, answering with a structured
result, and failing with an error the agent can act on (a stable code, a sentence, and
what to try next). Copy this file next to your app.py; it has no dependencies.
"""

import json
from typing import Any, Dict, Optional

from componentize_py_types import Err
from wit_world.imports.types import Error


def fail(code: str, message: str, suggestion: Optional[str] = None, details: Any = None) -> Err:
    """An error to `raise`: `raise fail("NOT_FOUND", "no such file", "list the directory")`.

    Codes are upper-case words the agent can branch on (INVALID_ARGS, NOT_FOUND,
    MALFORMED, UNSUPPORTED, ...); details, when given, must be JSON-serializable.
    """
    details_json = None if details is None else json.dumps(details)
    return Err(Error(code=code, message=message, suggestion=suggestion, details_json=details_json))


def args(args_json: str) -> Dict[str, Any]:
    """A tool's arguments as a dict, or INVALID_ARGS when they are not a JSON object."""
    try:
        value = json.loads(args_json or "{}")
    except json.JSONDecodeError as e:
        raise fail("INVALID_ARGS", f"the arguments are not JSON: {e}", "pass a JSON object")
    if not isinstance(value, dict):
        raise fail("INVALID_ARGS", "the arguments must be a JSON object", "pass a JSON object")
    return value


def output(structured: Dict[str, Any], text: Optional[str] = None):
    """A tool's answer: the structured result (matching its output schema) and a compact
    text rendering for clients that show text only (the JSON itself when none is given)."""
    from wit_world.exports.tool import ToolOutput

    body = json.dumps(structured)
    return ToolOutput(structured_json=body, text=text if text is not None else body)


def read_options(max_bytes: int = 1 << 20, allow_truncate: bool = False):
    """Options for `workspace.read`: no sensitive files, no binaries, at most max_bytes."""
    from wit_world.imports.workspace import ReadOptions

    return ReadOptions(
        max_bytes=max_bytes, allow_sensitive=False, allow_binary=False, allow_truncate=allow_truncate
    )
