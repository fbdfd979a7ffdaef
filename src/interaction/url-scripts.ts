/**
 * Which writing systems a domain label mixes. A label such as "аpple" (Cyrillic "а" before Latin
 * "pple") looks like a familiar name; labels written in one script, or in the combinations that
 * Chinese, Japanese and Korean names use with Latin, are normal. The rule follows the "highly
 * restrictive" level of Unicode Technical Standard #39 § 5.2, on the Script_Extensions property.
 */

/** Scripts told apart; a letter of any other script counts as one more, "another script". */
const SCRIPTS = [
  "Latin",
  "Greek",
  "Cyrillic",
  "Armenian",
  "Hebrew",
  "Arabic",
  "Syriac",
  "Thaana",
  "Devanagari",
  "Bengali",
  "Gurmukhi",
  "Gujarati",
  "Oriya",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Sinhala",
  "Thai",
  "Lao",
  "Tibetan",
  "Myanmar",
  "Georgian",
  "Hangul",
  "Ethiopic",
  "Cherokee",
  "Khmer",
  "Mongolian",
  "Hiragana",
  "Katakana",
  "Bopomofo",
  "Han",
] as const;

const OTHER = "another script";

const extensionPatterns = SCRIPTS.map((script) => ({
  script,
  pattern: new RegExp(`^\\p{Script_Extensions=${script}}$`, "u"),
}));
const scriptPatterns = SCRIPTS.map((script) => ({ script, pattern: new RegExp(`^\\p{Script=${script}}$`, "u") }));
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Script sets that may share a label besides a single script (UTS #39 "highly restrictive"). */
const ALLOWED_MIXES: readonly ReadonlySet<string>[] = [
  new Set(["Latin", "Han", "Hiragana", "Katakana"]),
  new Set(["Latin", "Han", "Bopomofo"]),
  new Set(["Latin", "Han", "Hangul"]),
];

/** The scripts a character is used with; empty for digits, punctuation and combining marks. */
function extensionsOf(char: string): Set<string> {
  const found = extensionPatterns.filter(({ pattern }) => pattern.test(char)).map(({ script }) => script);
  if (found.length > 0) return new Set(found);
  return NEUTRAL.test(char) ? new Set() : new Set([OTHER]);
}

function scriptOf(char: string): string | undefined {
  if (NEUTRAL.test(char)) return undefined;
  return scriptPatterns.find(({ pattern }) => pattern.test(char))?.script ?? OTHER;
}

/**
 * The scripts of `label` (a Unicode domain label) when they are a suspicious mix, in order of
 * first appearance, e.g. `["Cyrillic", "Latin"]`; `undefined` for a label in one script or an
 * ordinary CJK + Latin mix.
 */
export function mixedScripts(label: string): string[] | undefined {
  const sets = [...label].map(extensionsOf).filter((set) => set.size > 0);
  if (sets.length === 0) return undefined;
  const first = sets[0] ?? new Set<string>();
  const shared = [...first].filter((script) => sets.every((set) => set.has(script)));
  if (shared.length > 0) return undefined;
  if (ALLOWED_MIXES.some((allowed) => sets.every((set) => [...set].some((script) => allowed.has(script))))) {
    return undefined;
  }
  const scripts = new Set<string>();
  for (const char of label) {
    const script = scriptOf(char);
    if (script !== undefined) scripts.add(script);
  }
  return [...scripts];
}
