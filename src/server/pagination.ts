/**
 * Cursor pagination of the list methods (`tools/list`, `resources/list`, `prompts/list`, ...; spec:
 * server/utilities/pagination). A cursor is opaque to the client: the base64url encoding of the
 * offset of the next page.
 */
import { ErrorCode, ProtocolError } from "../jsonrpc/errors.js";

/** One page of a list and the cursor of the next, absent on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

function encodeCursor(offset: number): string {
  return Buffer.from(String(offset), "utf8").toString("base64url");
}

function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === "string") {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    // The round trip rejects strings that merely decode to digits by accident.
    if (/^\d{1,15}$/.test(text) && encodeCursor(Number(text)) === cursor) return Number(text);
  }
  throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: unknown or malformed cursor", { cursor });
}

/**
 * Cuts `items` into the page that `cursor` names.
 * @param pageSize items per page (at least 1).
 * @throws ProtocolError -32602 for a cursor this server did not issue.
 */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = decodeCursor(cursor);
  const size = Math.max(1, Math.floor(pageSize));
  const end = offset + size;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor(end);
  return page;
}
