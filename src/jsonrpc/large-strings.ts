/**
 * JSON text for a message that carries a very large string (a file, an image in base64), built
 * without copying that string through JSON.stringify. JSON.stringify writes a string character
 * by character into pieces of a few KiB each; for tens of MiB those pieces outgrow V8's young
 * generation, and the collector copies and promotes them before the text is even joined. A string
 * that needs no escape is its own JSON text between two quotes, so it is spliced in as it is.
 */
import { wellFormedJson } from "./well-formed.js";

/** Strings of at least this many UTF-16 code units are spliced in rather than stringified. */
export const LARGE_STRING_LENGTH = 1 << 20;

/**
 * Matches a string JSON.stringify writes as it is: no quote, backslash or control character (all
 * escaped), and no surrogate (a lone one is escaped, so the string takes the ordinary path).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes control characters, so a string holding one is not spliced
const VERBATIM = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** Nodes (objects, arrays, values) looked at before deciding a message carries no large string. */
const SEARCH_BUDGET = 256;

/**
 * What stands for a spliced string in the skeleton: NUL and SOH, which JSON.stringify always
 * escapes, so the quoted form below is never written for an unspliced string shorter than it; a
 * string that does contain it is caught by the count of the pieces, and the whole is stringified.
 */
const PLACEHOLDER = "\u0000\u0001mcp-handoff\u0001\u0000";
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER);

/** Messages searched after the last large one was written, before the search stops again. */
const SEARCHES_AFTER_LARGE = 64;

/** Searches left before they stop; 0 until a large message is written in this process. */
let searchesLeft = 0;

/**
 * Whether the next message is worth searching for a large string, which is so only while large
 * messages are being written: one of `LARGE_STRING_LENGTH` code units or more among the last
 * `SEARCHES_AFTER_LARGE` (64) the process wrote. The search costs about half of a small message's
 * JSON.stringify, so a process that writes no MiBs never pays it, and the first large message
 * after a quiet spell is stringified as any other (the text is the same either way).
 */
export function searchWorthwhile(): boolean {
  if (searchesLeft === 0) return false;
  searchesLeft--;
  return true;
}

/** A message's text of `length` code units was written: a large one makes the next ones worth searching. */
export function noteWritten(length: number): void {
  if (length >= LARGE_STRING_LENGTH) searchesLeft = SEARCHES_AFTER_LARGE;
}

/** Nodes still to look at in the current search; the search runs to its end before another starts. */
let budget = 0;

/**
 * Whether `value` holds a string of `LARGE_STRING_LENGTH` code units or more within the first
 * `SEARCH_BUDGET` nodes (objects, arrays, values), looked at depth first as JSON.stringify walks
 * them: an array by its indices, a plain object by its own enumerable keys. A larger message
 * with its strings further in takes the ordinary path. Every message goes through here before
 * it is written, so the walk allocates nothing: no closure, no list of keys.
 */
function carriesLargeString(value: unknown): boolean {
  budget = SEARCH_BUDGET;
  return holdsLargeString(value);
}

/** Whether `item` is, or holds, a large string; false once the budget is spent. */
function holdsLargeString(item: unknown): boolean {
  if (--budget < 0) return false;
  if (typeof item === "string") return item.length >= LARGE_STRING_LENGTH;
  if (typeof item !== "object" || item === null) return false;
  if (Array.isArray(item)) {
    for (let i = 0; i < item.length && budget > 0; i++) if (holdsLargeString(item[i])) return true;
    return false;
  }
  // Only plain objects: the keys of a boxed String, a typed array or a Buffer are its every
  // index, all listed before the first is looked at (seconds for MiBs), where JSON.stringify
  // writes the one string or calls toJSON.
  const proto: unknown = Object.getPrototypeOf(item);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in item) {
    if (budget <= 0) return false;
    if (Object.hasOwn(item, key) && holdsLargeString((item as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * `JSON.stringify(value)` when `value` carries a string of `LARGE_STRING_LENGTH` code units or
 * more that needs no escape, with each such string joined in between its quotes rather than
 * copied (the result is a string of joined pieces, flattened by whatever reads it first);
 * the replacer's pass itself when each such string needs an escape; `undefined` when there is
 * none, or when a string of the message contains the placeholder, so the caller stringifies as
 * usual. The skeleton goes through `wellFormedJson` (the lone-surrogate replacement of encodeFrame);
 * the spliced strings hold no surrogate at all.
 * @throws what JSON.stringify throws (a cycle, a BigInt).
 */
export function spliceLargeStrings(value: unknown): string | undefined {
  if (!carriesLargeString(value)) return undefined;
  const spliced: string[] = [];
  const skeleton = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "string" || item.length < LARGE_STRING_LENGTH || !VERBATIM.test(item)) return item;
    spliced.push(item);
    return PLACEHOLDER;
  });
  // Nothing spliced (the large strings need escapes): the skeleton is JSON.stringify's own text.
  if (spliced.length === 0) return skeleton === undefined ? undefined : wellFormedJson(skeleton);
  const pieces = wellFormedJson(skeleton).split(QUOTED_PLACEHOLDER);
  if (pieces.length !== spliced.length + 1) return undefined;
  let text = pieces[0] as string;
  for (let i = 0; i < spliced.length; i++) text += `"${spliced[i]}"${pieces[i + 1]}`;
  return text;
}
