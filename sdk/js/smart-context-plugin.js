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

/**
 * The bytes as UTF-8 text, or a MALFORMED error naming `what` when they are not UTF-8. It
 * uses the engine's TextDecoder where there is one (componentize-js) and decodes by hand where
 * there is none (jco's QuickJS backend).
 * @param {Uint8Array} bytes
 * @param {string} [what]
 * @returns {string}
 */
export function decodeUtf8(bytes, what = "the file") {
  const malformed = () => fail("MALFORMED", `${what} is not UTF-8`, "save the file as UTF-8");
  if (typeof TextDecoder !== "undefined") {
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw malformed();
    }
  }
  const chunks = [];
  let points = [];
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    let cp;
    let extra;
    if (b < 0x80) [cp, extra] = [b, 0];
    else if (b >= 0xc2 && b < 0xe0) [cp, extra] = [b & 0x1f, 1];
    else if (b >= 0xe0 && b < 0xf0) [cp, extra] = [b & 0x0f, 2];
    else if (b >= 0xf0 && b < 0xf5) [cp, extra] = [b & 0x07, 3];
    else throw malformed();
    for (let k = 1; k <= extra; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) throw malformed();
      cp = (cp << 6) | (c & 0x3f);
    }
    const overlong = (extra === 2 && cp < 0x800) || (extra === 3 && cp < 0x10000);
    if (overlong || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) throw malformed();
    points.push(cp);
    if (points.length === 4096) {
      chunks.push(String.fromCodePoint(...points));
      points = [];
    }
    i += extra + 1;
  }
  chunks.push(String.fromCodePoint(...points));
  return chunks.join("");
}

/** Options for `workspace.read`: no sensitive files, no binaries, at most maxBytes. */
export function readOptions(maxBytes = 1 << 20, allowTruncate = false) {
  return { maxBytes: BigInt(maxBytes), allowSensitive: false, allowBinary: false, allowTruncate };
}
