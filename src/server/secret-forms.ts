/**
 * The spellings a secret takes in text that quotes it, for `SecretRedactor`: as it is, inside a
 * JSON string (as the common JSON writers escape it), percent-encoded (`encodeURIComponent`, and
 * form encoding with `+` for spaces, in either case of hex digit), as hex of its UTF-8 bytes (a
 * dump, in either case), and inside base64 or base64url data, on its own or amid other bytes
 * (`Basic` credentials, a JWT's payload).
 */

/** One spelling: a literal to look for, and the pattern that takes it out together with its ragged edges. */
export interface SecretForm {
  /** Text that is present whenever this spelling is. */
  readonly literal: string;
  /** What is replaced, when more than `literal` itself (base64: the characters that also carry bits of the secret). */
  readonly pattern?: RegExp;
}

const BASE64 = { alphabet: "A-Za-z0-9+/", encoding: "base64" } as const;
const BASE64URL = { alphabet: "A-Za-z0-9_-", encoding: "base64url" } as const;

/** Every spelling of `secret`, each once, longest first (one inside another then goes whole). */
export function secretForms(secret: string): SecretForm[] {
  const literals = new Set<string>([secret, ...jsonEncodings(secret)]);
  for (const encoded of percentEncodings(secret)) {
    literals.add(encoded);
    literals.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  const bytes = Buffer.from(secret, "utf8");
  const hex = bytes.toString("hex");
  literals.add(hex).add(hex.toUpperCase());
  const forms: SecretForm[] = [...literals].map((literal) => ({ literal }));
  for (const { alphabet, encoding } of [BASE64, BASE64URL]) {
    for (let offset = 0; offset < 3; offset++) forms.push(base64Form(bytes, offset, alphabet, encoding));
  }
  return forms.sort((a, b) => b.literal.length - a.literal.length);
}

/**
 * The secret inside a JSON string as common writers spell it: `JSON.stringify`; PHP's
 * `json_encode` (`\/`, with and without non-ASCII as `\u` escapes); Python's `json.dumps`
 * (non-ASCII as `\u`); Go's `encoding/json` and Rails (`<`, `>`, `&`, U+2028 and U+2029 as `\u`);
 * .NET's `System.Text.Json` (non-ASCII and ``<>&'"+` `` as upper-case `\u`).
 */
function jsonEncodings(secret: string): string[] {
  const nonAscii = (c: string) => c > "\x7f";
  return [
    jsonString(secret, () => false),
    jsonString(secret, () => false, { slash: true }),
    jsonString(secret, nonAscii, { slash: true }),
    jsonString(secret, nonAscii),
    jsonString(secret, (c) => "<>&\u2028\u2029".includes(c)),
    jsonString(secret, (c) => nonAscii(c) || "<>&'\"+`".includes(c), { upper: true }),
  ];
}

/** `text` inside a JSON string, each code point for which `escaped` holds written as `\u` escapes. */
function jsonString(
  text: string,
  escaped: (char: string) => boolean,
  options: { slash?: boolean; upper?: boolean } = {},
): string {
  let out = "";
  for (const char of text) {
    if (escaped(char)) {
      for (let i = 0; i < char.length; i++) {
        const hex = char.charCodeAt(i).toString(16).padStart(4, "0");
        out += `\\u${options.upper ? hex.toUpperCase() : hex}`;
      }
    } else if (char === "/" && options.slash) out += "\\/";
    else out += JSON.stringify(char).slice(1, -1);
  }
  return out;
}

/** `encodeURIComponent` and form encoding; none for a string with a lone surrogate, which neither can spell. */
function percentEncodings(secret: string): string[] {
  try {
    return [encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice("v=".length)];
  } catch {
    return [];
  }
}

/**
 * The secret inside base64 data, `offset` bytes (0 to 2) into a 3-byte group. Only the characters
 * made of the secret's bits alone are the same wherever the secret sits; each end may have one
 * character that mixes its bits with a neighbour's, and the end of the data may follow with `=`
 * padding. The pattern takes those too, so no bit of the secret is left.
 */
function base64Form(bytes: Buffer, offset: number, alphabet: string, encoding: "base64" | "base64url"): SecretForm {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
  const startBit = offset * 8;
  const endBit = startBit + bytes.length * 8;
  const literal = encoded.slice(Math.ceil(startBit / 6), Math.floor(endBit / 6));
  const before = startBit % 6 === 0 ? "" : `[${alphabet}]?`;
  const after = endBit % 6 === 0 ? "" : `[${alphabet}]?={0,2}`;
  return { literal, pattern: new RegExp(`${before}${escapeRegExp(literal)}${after}`, "g") };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
