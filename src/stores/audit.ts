/**
 * Writing to an audit log from the places where things happen (hand-off steps, grants, credential
 * uses): one append per record, checked so that no secret-shaped field slips in, and a log that
 * fails is reported, never allowed to fail the step it records.
 */
import { SdkError } from "../jsonrpc/errors.js";
import type { Logger } from "../jsonrpc/logger.js";
import type { AuditEntry, AuditLog, AuditRecord } from "./types.js";

const EVENTS = new Set<AuditEntry["event"]>([
  "handoff.created",
  "handoff.opened",
  "handoff.completed",
  "handoff.declined",
  "handoff.expired",
  "grant.stored",
  "grant.refreshed",
  "grant.revoked",
  "credential.used",
]);

const OUTCOMES = new Set<AuditEntry["outcome"]>(["ok", "refused", "failed"]);

/** The only fields a record may have: anything else (a `token`, a `secret`, a `headers`) is refused. */
const ENTRY_FIELDS = new Set([
  "at",
  "event",
  "user",
  "client",
  "sessionId",
  "interactionId",
  "provider",
  "outcome",
  "detail",
]);
const USER_FIELDS = new Set(["issuer", "subject"]);
const CLIENT_FIELDS = new Set(["name", "version"]);
const DETAIL_FIELDS = new Set(["host", "method", "status", "scopes", "reason"]);

/** Characters at most of an identifier (issuer, subject, ids, provider, client name and version, scope). */
export const AUDIT_MAX_FIELD_LENGTH = 512;
/** Characters at most of `detail.reason`: a short phrase, not a place for a response body. */
export const AUDIT_MAX_REASON_LENGTH = 200;
/** Scopes at most in `detail.scopes`. */
export const AUDIT_MAX_SCOPES = 64;

/**
 * A host name or address as a URL shows it (`[::1]`, `api.example.com:8443`), no userinfo, path or
 * query: every character the URL parser keeps in a host (an underscore, a sub-delimiter), since a
 * refused destination is recorded as it was asked for.
 */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9!"$&'()*+,;=_`{}~.-]+)(:\d{1,5})?$/i;
/** Characters at most of `detail.host`. */
export const AUDIT_MAX_HOST_LENGTH = 260;
/** An HTTP method token (RFC 9110 section 9.1, a token of section 5.6.2), in upper case, e.g. `M-SEARCH`. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Z-]{1,20}$/;

/** Whether `method` is what `detail.method` may hold. */
export function isAuditMethod(method: string): boolean {
  return METHOD.test(method);
}

/**
 * Checks the shape of an entry before it is stored: the fixed fields only, each of its type and
 * length, so that a producer cannot put a token, a header or a body into a record by accident.
 * @throws SdkError "INVALID_ARGUMENT" naming the field (never its value).
 */
export function checkAuditEntry(entry: AuditEntry): void {
  const invalid = (field: string) => new SdkError("INVALID_ARGUMENT", `Audit entry field ${field} is invalid.`);
  if (!isPlainObject(entry)) throw new SdkError("INVALID_ARGUMENT", "An audit entry must be an object.");
  onlyFields(entry, ENTRY_FIELDS, "");
  if (!Number.isFinite(entry.at) || entry.at < 0) throw invalid("at");
  if (!EVENTS.has(entry.event)) throw invalid("event");
  if (!OUTCOMES.has(entry.outcome)) throw invalid("outcome");
  if (!isPlainObject(entry.user)) throw invalid("user");
  onlyFields(entry.user, USER_FIELDS, "user.");
  if (!isIdentifier(entry.user.issuer)) throw invalid("user.issuer");
  if (!isIdentifier(entry.user.subject)) throw invalid("user.subject");
  for (const field of ["sessionId", "interactionId", "provider"] as const) {
    if (entry[field] !== undefined && !isIdentifier(entry[field])) throw invalid(field);
  }
  if (entry.client !== undefined) {
    if (!isPlainObject(entry.client)) throw invalid("client");
    onlyFields(entry.client, CLIENT_FIELDS, "client.");
    for (const field of ["name", "version"] as const) {
      if (entry.client[field] !== undefined && !isIdentifier(entry.client[field])) throw invalid(`client.${field}`);
    }
  }
  if (entry.detail !== undefined) {
    const { detail } = entry;
    if (!isPlainObject(detail)) throw invalid("detail");
    onlyFields(detail, DETAIL_FIELDS, "detail.");
    if (
      detail.host !== undefined &&
      !(typeof detail.host === "string" && detail.host.length <= AUDIT_MAX_HOST_LENGTH && HOST.test(detail.host))
    ) {
      throw invalid("detail.host");
    }
    if (detail.method !== undefined && !(typeof detail.method === "string" && METHOD.test(detail.method))) {
      throw invalid("detail.method");
    }
    if (
      detail.status !== undefined &&
      !(Number.isInteger(detail.status) && detail.status >= 100 && detail.status <= 599)
    ) {
      throw invalid("detail.status");
    }
    if (
      detail.scopes !== undefined &&
      !(Array.isArray(detail.scopes) && detail.scopes.length <= AUDIT_MAX_SCOPES && detail.scopes.every(isIdentifier))
    ) {
      throw invalid("detail.scopes");
    }
    if (
      detail.reason !== undefined &&
      !(typeof detail.reason === "string" && detail.reason.length <= AUDIT_MAX_REASON_LENGTH)
    ) {
      throw invalid("detail.reason");
    }
  }
}

/**
 * The record of `entry` at `seq`, holding only the checked fields (so a store writes exactly what
 * was checked, in a fixed key order that its JSON lines keep).
 */
export function auditRecordOf(entry: AuditEntry, seq: number): AuditRecord {
  const record: AuditRecord = {
    seq,
    at: entry.at,
    event: entry.event,
    user: { issuer: entry.user.issuer, subject: entry.user.subject },
    outcome: entry.outcome,
  };
  if (entry.client !== undefined) {
    record.client = {};
    if (entry.client.name !== undefined) record.client.name = entry.client.name;
    if (entry.client.version !== undefined) record.client.version = entry.client.version;
  }
  if (entry.sessionId !== undefined) record.sessionId = entry.sessionId;
  if (entry.interactionId !== undefined) record.interactionId = entry.interactionId;
  if (entry.provider !== undefined) record.provider = entry.provider;
  if (entry.detail !== undefined) {
    const detail: NonNullable<AuditEntry["detail"]> = {};
    if (entry.detail.host !== undefined) detail.host = entry.detail.host;
    if (entry.detail.method !== undefined) detail.method = entry.detail.method;
    if (entry.detail.status !== undefined) detail.status = entry.detail.status;
    if (entry.detail.scopes !== undefined) detail.scopes = [...entry.detail.scopes];
    if (entry.detail.reason !== undefined) detail.reason = entry.detail.reason;
    record.detail = detail;
  }
  return record;
}

/**
 * One line of an export: the record as JSON, ending in `\n`, with U+0085, U+2028 and U+2029
 * written as escapes. `JSON.stringify` leaves them raw, and many line readers (Python's
 * `splitlines`, editors, some log shippers) end a line at each, so a subject or reason holding one
 * could split a record in two and make its second half read as a record of its own.
 */
export function auditJsonLine(record: AuditRecord): string {
  const json = JSON.stringify(record).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${json}\n`;
}

/**
 * `forUser`'s options, checked: `limit` an integer from 1 to 1000 (default 50), `before` a `seq` (a safe integer).
 * @throws SdkError "INVALID_ARGUMENT".
 */
export function auditPage(options: { limit?: number; before?: number } = {}): { limit: number; before?: number } {
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new SdkError("INVALID_ARGUMENT", "The audit page limit must be an integer from 1 to 1000.");
  }
  // A safe integer, as every store can bind it (PostgreSQL's bigint refuses `1e+21`).
  if (options.before !== undefined && !Number.isSafeInteger(options.before)) {
    throw new SdkError("INVALID_ARGUMENT", "The audit page cursor (before) must be an integer seq.");
  }
  return options.before === undefined ? { limit } : { limit, before: options.before };
}

/** `scopes` as a record's `detail.scopes` holds them: the first `AUDIT_MAX_SCOPES` that fit, so a grant with more is still recorded. */
export function auditScopes(scopes: readonly string[]): string[] {
  return scopes.filter(isIdentifier).slice(0, AUDIT_MAX_SCOPES);
}

/**
 * A client's name or version as a page or a record may show it: control and format characters
 * (bidi overrides among them) dropped, so it cannot pass itself off as other text, and at most
 * 100 characters.
 */
export function cleanClientName(name: string): string {
  const plain = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "")
    .replace(/\s+/g, " ")
    .trim();
  return [...plain].slice(0, 100).join("");
}

/**
 * The `client` of a record from `clientInfo` as the client declared it (unverified, of any length):
 * name and version cleaned by `cleanClientName`, an empty one left out, `undefined` when neither
 * is left, so that no client can name itself out of the log.
 */
export function auditClient(info: { name?: unknown; version?: unknown } | undefined): AuditEntry["client"] {
  const name = typeof info?.name === "string" ? cleanClientName(info.name) : "";
  const release = typeof info?.version === "string" ? cleanClientName(info.version) : "";
  if (name.length === 0 && release.length === 0) return undefined;
  return { ...(name.length === 0 ? {} : { name }), ...(release.length === 0 ? {} : { version: release }) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIdentifier(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= AUDIT_MAX_FIELD_LENGTH;
}

function onlyFields(value: object, allowed: ReadonlySet<string>, path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      // The key is named (a producer's own mistake); its value never is.
      throw new SdkError(
        "INVALID_ARGUMENT",
        `Audit entry field ${path}${safeKey(key)} is not one an audit record holds.`,
      );
    }
  }
}

/** A key as a message may show it: short and printable, since even a key could be pasted from a secret. */
function safeKey(key: string): string {
  return /^[A-Za-z0-9_$-]{1,40}$/.test(key) ? key : "(unnamed)";
}

/**
 * A function that appends to `log` (when there is one) and reports a failure to `logger` instead of
 * throwing: the step it records has happened either way.
 */
export function auditTo(log: AuditLog | undefined, logger: Logger): (entry: AuditEntry) => Promise<void> {
  if (log === undefined) return async () => {};
  return async (entry) => {
    try {
      await log.append(entry);
    } catch (error) {
      try {
        logger.error(
          { err: error, event: EVENTS.has(entry?.event) ? entry.event : "(invalid)" },
          "Could not write an audit record",
        );
      } catch {
        // A logger that throws must not fail the step either.
      }
    }
  };
}
