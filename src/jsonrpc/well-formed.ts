/** JSON text made well-formed Unicode: each lone surrogate JSON.stringify escaped becomes U+FFFD. */

/**
 * A lone surrogate as JSON.stringify escapes it (`\ud800`-`\udfff`, lower-case hex: a pair is
 * written as it is), or an escaped backslash, skipped so that the text `\\ud800` is left alone.
 */
const SURROGATE_ESCAPE = /\\\\|\\ud[89a-f][0-9a-f]{2}/g;

const toReplacement = (found: string) => (found.length === 2 ? found : "\\ufffd");

/**
 * JSON text as `JSON.stringify` wrote it, with `\ufffd` in place of each escaped lone surrogate:
 * what `encodeFrame` does after stringifying, for a writer that wraps the text first (an SSE
 * event) and searches the whole for `\ud` once.
 */
export function wellFormedJson(text: string): string {
  return text.includes("\\ud") ? text.replace(SURROGATE_ESCAPE, toReplacement) : text;
}
