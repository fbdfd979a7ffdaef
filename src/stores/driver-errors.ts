/**
 * What the shared stores' engines (PostgreSQL, Redis) do alike with a driver's error: tell a
 * network failure by its code, and pass on a plain `Error` whose message shows no password.
 */

/** Error codes of Node's sockets and name lookups that mean a database server cannot be reached. */
export const NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "ENOENT",
]);

/** The error's `code`, or that of the first of its parts (Node's AggregateError of every address tried). */
export function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner[0] instanceof Error) return codeOf(inner[0]);
  return undefined;
}

/** `scheme://user:password@host` → `scheme://user:***@host`, wherever a URL with credentials appears. */
export function redactUrls(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, "$1:***@");
}

/** A plain `Error` with `message` and, when known, the driver's `code`: nothing else of the driver's error. */
export function plainError(message: string, code: string | undefined): Error {
  const error = new Error(message);
  if (code !== undefined) (error as { code?: string }).code = code;
  return error;
}
