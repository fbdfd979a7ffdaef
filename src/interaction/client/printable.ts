/** Making text that came from a server safe to put on a terminal. */

// C0 and C1 control characters, DEL, and the bidirectional overrides that can reorder what is shown.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with control characters shown as `\u{…}` escapes, so a server cannot move the cursor,
 * recolour or rewrite what the user reads (e.g. hide part of a URL). Newlines and tabs are kept.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`);
}

/** Like {@link printable}, and newlines and tabs are escaped too: for one-line values. */
export function printableLine(text: string): string {
  return printable(text).replace(/[\n\t]/g, (c) => (c === "\n" ? "\\n" : "\\t"));
}

/** How a server is named to the user: its title when it has one, and always its name. */
export function serverLabel(info: { name: string; title?: string | undefined } | undefined): string {
  if (!info) return "The server";
  const name = printableLine(info.name);
  return info.title && info.title !== info.name ? `${printableLine(info.title)} (${name})` : name;
}
