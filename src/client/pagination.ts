/**
 * Cursor pagination for the list requests (`tools/list`, `resources/list`, ...; spec:
 * server/utilities/pagination). Cursors are opaque; the one thing a client may check is that
 * a server does not send a cursor it already sent, which would otherwise loop forever.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Result } from "../jsonrpc/session.js";

/** The requests whose results are pages (`PaginatedResult`), in every revision that has them. */
const PAGINATED_METHODS: ReadonlySet<string> = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "tasks/list",
]);

/**
 * A page as the client reads it: `nextCursor: null`, which servers in the field send on their last
 * page although the schema allows only a string or no field, is read as no field, so the listing
 * ends there instead of the whole result being refused. Any other result is returned unchanged;
 * a cursor of another type is left for the schema check to refuse.
 */
export function withoutNullCursor(method: string, result: Result): Result {
  if (result.nextCursor !== null || !PAGINATED_METHODS.has(method)) return result;
  const { nextCursor: _null, ...page } = result;
  return page;
}

/** One page, as every list result shapes it. */
export interface Page {
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/**
 * Walks every page: calls `fetchPage(undefined)`, then `fetchPage(nextCursor)` until a page
 * comes without `nextCursor`, yielding each page's items in order.
 *
 * @param fetchPage fetches one page for a cursor (`undefined` for the first page).
 * @param items picks the items of a page (e.g. `(page) => page.tools`).
 * @throws SdkError "INVALID_RESULT" when the server repeats a cursor it already sent;
 *   whatever `fetchPage` throws.
 */
export async function* paginate<P extends Page, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  items: (page: P) => readonly T[] | undefined,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* items(page) ?? [];
    cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        throw new SdkError("INVALID_RESULT", `The server repeated the pagination cursor ${JSON.stringify(cursor)}`);
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
}

/** Collects `paginate` into an array. */
export async function collectPages<P extends Page, T>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  items: (page: P) => readonly T[] | undefined,
): Promise<T[]> {
  const all: T[] = [];
  for await (const item of paginate(fetchPage, items)) all.push(item);
  return all;
}
