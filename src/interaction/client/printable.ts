/** Making text that came from a server safe to put on a terminal. */

/**
 * Characters a terminal does not show as themselves: C0 and C1 controls and DEL (ESC starts ANSI
 * and OSC sequences, CR and backspace overwrite, TAB jumps), format characters (bidi embeddings,
 * overrides, isolates and marks including U+061C, zero-width space and joiners, word joiner, BOM,
 * soft hyphen, tag characters), line and paragraph separators, lone surrogates, and the Hangul
 * fillers that render as blank space.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115f\u1160\u3164\uffa0]/gu;

/** How an invisible character is shown: `\n` and `\t` by name, anything else as `\u{…}`. */
function escaped(char: string): string {
  if (char === "\n") return "\\n";
  if (char === "\t") return "\\t";
  return `\\u{${char.codePointAt(0)?.toString(16)}}`;
}

/**
 * `text` with every invisible character (see above) shown as an escape such as `\u{1b}`, so a
 * server cannot move the cursor, recolour, link, reorder or rewrite what the user reads.
 * Newlines are kept, for text shown as several lines; TAB is escaped as `\t`.
 */
export function printable(text: string): string {
  return text.replace(INVISIBLE, (char) => (char === "\n" ? char : escaped(char)));
}

/** Like {@link printable}, and newlines are escaped too (`\n`): for one-line values. */
export function printableLine(text: string): string {
  return text.replace(INVISIBLE, escaped);
}

/**
 * `text` as a reader sees it, for looking for a URL in it: line breaks and tabs become spaces
 * (so that "GitHub.\nIt" is not read as the domain `GitHub.It`), other invisible characters go.
 */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => (/[\t-\r\u0085\u2028\u2029]/.test(char) ? " " : ""));
}

/** Columns a server's name or title may take on one line; longer ones end in "…". */
const LABEL_COLUMNS = 48;

/**
 * How a server is named to the user: its title when it has one, and always its name, each on one
 * line, escaped, and cut to {@link LABEL_COLUMNS} columns.
 */
export function serverLabel(info: { name: string; title?: string | undefined } | undefined): string {
  if (!info) return "The server";
  const name = clip(printableLine(info.name), LABEL_COLUMNS);
  return info.title && info.title !== info.name ? `${clip(printableLine(info.title), LABEL_COLUMNS)} (${name})` : name;
}

/**
 * Whether a character takes two columns: East Asian wide and fullwidth letters (Yijing hexagrams
 * too, wide since Unicode 16), every emoji shown as an emoji by default (`Emoji_Presentation`,
 * such as U+2B50 outside the ranges here), and anything beyond the Basic Multilingual Plane.
 * Under-counting lets a terminal wrap a row of the server's text to its left edge, where it could
 * pass for a line of the client's; over-counting only makes rows shorter.
 */
const WIDE =
  /[\u1100-\u115f\u231a-\u231b\u2329-\u232a\u23e9-\u23ff\u25fd-\u25fe\u2600-\u27bf\u2e80-\u303e\u3041-\u33ff\u3400-\u4dff\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6]|\p{Emoji_Presentation}/u;

/** Columns `char` (one code point) takes on a terminal. */
export function columnsOf(char: string): number {
  return (char.codePointAt(0) ?? 0) > 0xffff || WIDE.test(char) ? 2 : 1;
}

/** Columns `text` takes on a terminal. */
export function widthOf(text: string): number {
  let width = 0;
  for (const char of text) width += columnsOf(char);
  return width;
}

/** `text` cut to at most `columns` columns, ending in "…" when cut. */
export function clip(text: string, columns: number): string {
  if (widthOf(text) <= columns) return text;
  let used = 1;
  let out = "";
  for (const char of text) {
    used += columnsOf(char);
    if (used > columns) break;
    out += char;
  }
  return `${out}…`;
}

/**
 * `text` (one line, already printable) in rows of at most `columns` columns. With `words`, a row
 * ends at the last space that fits where there is one; otherwise (a URL) anywhere.
 */
export function rows(text: string, columns: number, words = false): string[] {
  const width = Math.max(columns, 8);
  const out: string[] = [];
  let row: string[] = [];
  let used = 0;
  for (const char of text) {
    const size = columnsOf(char);
    if (used + size > width && row.length > 0) {
      const space = words ? row.lastIndexOf(" ") : -1;
      if (space > 0) {
        out.push(row.slice(0, space).join(""));
        row = row.slice(space + 1);
      } else {
        out.push(row.join(""));
        row = [];
      }
      used = widthOf(row.join(""));
    }
    row.push(char);
    used += size;
  }
  if (row.length > 0 || out.length === 0) out.push(row.join(""));
  return out;
}
