// Thin helpers for smart-context plugins written in JavaScript or TypeScript
// (componentize-js / jco). The typed bindings come from jco itself
// (`npx jco types wit -n WORLD -o types` writes .d.ts files an editor reads); these helpers
// only carry what every plugin repeats: reading a tool's JSON arguments, answering with a
// structured result, and failing with an error the agent can act on (a stable code, a
// sentence, and what to try next). Copy this file next to your app.js; it has no
// dependencies.

/**
 * An error to `throw`: `throw fail("NOT_FOUND", "no such file", "list the directory")`.
 * A function whose WIT result is `result<_, error>` answers it as the error.
 * @param {string} code upper-case words the agent can branch on (INVALID_ARGS, NOT_FOUND, ...)
 * @param {string} message
 * @param {string} [suggestion]
 * @param {unknown} [details] JSON-serializable
 */
export function fail(code, message, suggestion, details) {
  return {
    code,
    message,
    suggestion,
    detailsJson: details === undefined ? undefined : JSON.stringify(details),
  };
}

/**
 * A tool's arguments as an object, or INVALID_ARGS when they are not a JSON object.
 * @param {string} argsJson
 * @returns {Record<string, unknown>}
 */
export function args(argsJson) {
  let value;
  try {
    value = JSON.parse(argsJson || "{}");
  } catch (e) {
    throw fail("INVALID_ARGS", `the arguments are not JSON: ${e}`, "pass a JSON object");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw fail("INVALID_ARGS", "the arguments must be a JSON object", "pass a JSON object");
  }
  return value;
}

/**
 * A tool's answer: the structured result (matching its output schema) and a compact text
 * rendering for clients that show text only (the JSON itself when none is given).
 * @param {Record<string, unknown>} structured
 * @param {string} [text]
 */
export function output(structured, text) {
  const body = JSON.stringify(structured);
  return { structuredJson: body, text: text ?? body };
}

/**
 * The code of an error a host function threw (`ACCESS_DENIED`, `NOT_FOUND`, ...), or
 * undefined for anything else.
 * @param {unknown} e
 */
export function errorCode(e) {
  const payload = e && typeof e === "object" && "payload" in e ? e.payload : e;
  return payload && typeof payload === "object" && "code" in payload ? payload.code : undefined;
}

/** Options for `workspace.read`: no sensitive files, no binaries, at most maxBytes. */
export function readOptions(maxBytes = 1 << 20, allowTruncate = false) {
  return { maxBytes: BigInt(maxBytes), allowSensitive: false, allowBinary: false, allowTruncate };
}
