/**
 * One shared, deeply frozen copy of each distinct JSON value a client declares once per session
 * (`clientInfo`, `capabilities`): sessions of one kind of client then hold the same object
 * instead of a copy each. The cache is bounded; a value past its bound is kept as received.
 */

/** How many distinct values are kept; clients of one deployment declare a handful. */
const MAX_INTERNED = 256;
/** Longer JSON texts are kept as received: they are rare, and a long key would cost more than it saves. */
const MAX_INTERNED_CHARS = 4096;

const interned = new Map<string, unknown>();

/**
 * `value` itself, or the frozen copy shared by every equal value (same JSON text) seen before.
 * Only for plain JSON values that nothing mutates once received.
 */
export function intern<T>(value: T): T {
  if (typeof value !== "object" || value === null || !isPlainJson(value, 0)) return value;
  const text = JSON.stringify(value);
  if (text.length > MAX_INTERNED_CHARS) return value;
  const known = interned.get(text);
  if (known !== undefined) return known as T;
  if (interned.size >= MAX_INTERNED) return value;
  const copy = deepFreeze(JSON.parse(text));
  interned.set(text, copy);
  return copy as T;
}

/**
 * Whether `value` reads back the same from its JSON text: plain objects and arrays of strings,
 * finite numbers, booleans and null (what arrives over the wire; an in-process peer may pass more).
 */
function isPlainJson(value: unknown, depth: number): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth > 16) return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value)
    if (Object.hasOwn(value, key) && !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  return (
    Object.getOwnPropertySymbols(value).length === 0 &&
    Object.keys(value).length === Object.getOwnPropertyNames(value).length
  );
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
