/**
 * The server's `requestState`: what earlier rounds of a multi round-trip request established,
 * carried by the client between rounds (spec 2026-07-28: basic/patterns/mrtr § Server
 * Requirements). The client may tamper with it, so it is signed (HMAC-SHA256), expires, and is
 * bound to the verified user and to the original request (method and params without `_meta`,
 * `inputResponses` and `requestState`). The payload is readable by the client: it must hold no
 * secrets, only answers the client itself gave and ids of the server's own records.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ErrorCode, ProtocolError, SdkError } from "../../jsonrpc/errors.js";

/** The user a state belongs to: issuer and subject of the verified token, or none. */
export interface StateUser {
  issuer?: string;
  subject: string;
}

/** What a state carries between rounds. */
export interface RequestStatePayload {
  /** Answers given in earlier rounds, by the key the handler asked under. */
  answers: Record<string, RequestStateAnswer>;
  /** Input requests of the last round that the retry must answer, by key. */
  pending: RequestStateAsk[];
  /** A hand-off the last round started and the retry must find completed. */
  handoff?: string;
}

export interface RequestStateAnswer {
  method: string;
  result: Record<string, unknown>;
  /** The hand-off the answer was about (a URL-mode elicitation). */
  interaction?: string;
}

export interface RequestStateAsk {
  key: string;
  method: string;
  interaction?: string;
}

export interface RequestStateKeys {
  /** Signs, and verifies; at least 32 bytes. */
  secret: Uint8Array;
  /** Verify too (older keys of a rotation, shared by every instance); each at least 32 bytes. */
  verifying?: readonly Uint8Array[];
  /** ms since the epoch; injectable for tests. */
  now: () => number;
}

interface Envelope extends RequestStatePayload {
  v: 1;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** `[issuer, subject]` of the user as JSON, or "" for none. */
  usr: string;
  /** SHA-256 of the original request, base64url. */
  req: string;
}

/** `value` as JSON with object keys sorted, so equal requests hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The digest that binds a state to the request it was issued for. */
export function requestDigest(method: string, params: Record<string, unknown> | undefined): string {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params ?? {};
  return createHash("sha256")
    .update(`${method}\n${canonical(rest)}`)
    .digest("base64url");
}

/** `[issuer, subject]` as JSON (`null` for no issuer), so that no two users share it; "" for none. */
function userKey(user: StateUser | undefined): string {
  return user === undefined ? "" : JSON.stringify([user.issuer ?? null, user.subject]);
}

function mac(key: Uint8Array, body: string): Buffer {
  return createHmac("sha256", key).update(body).digest();
}

/** Whether `signature` is the MAC of `body` under one of the keys; every key is tried, in constant time each. */
function signedByAny(keys: RequestStateKeys, body: string, signature: string): boolean {
  const given = Buffer.from(signature);
  let found = false;
  for (const key of [keys.secret, ...(keys.verifying ?? [])]) {
    // Compared as text: decoding first would let other spellings of the same bytes (padding,
    // "+/" for "-_", characters the decoder skips) pass as the state issued.
    const expected = Buffer.from(mac(key, body).toString("base64url"));
    if (given.byteLength === expected.byteLength && timingSafeEqual(given, expected)) found = true;
  }
  return found;
}

/**
 * A signed state for the request `method` + `params`, valid for `ttlMs`.
 * @throws SdkError "INVALID_ARGUMENT" when the secret is shorter than 32 bytes.
 */
export function signRequestState(
  keys: RequestStateKeys,
  payload: RequestStatePayload,
  bound: { method: string; params: Record<string, unknown> | undefined; user: StateUser | undefined; ttlMs: number },
): string {
  if (keys.secret.byteLength < 32) throw new SdkError("INVALID_ARGUMENT", "The requestState secret needs 32 bytes");
  const envelope: Envelope = {
    v: 1,
    exp: keys.now() + bound.ttlMs,
    usr: userKey(bound.user),
    req: requestDigest(bound.method, bound.params),
    ...payload,
  };
  const body = Buffer.from(JSON.stringify(envelope)).toString("base64url");
  return `${body}.${mac(keys.secret, body).toString("base64url")}`;
}

function refuse(why: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);
}

/**
 * The payload of a state the client echoed, after checking signature, expiry, user and request.
 * @throws ProtocolError -32602 naming the reason: not issued by this server or altered, expired,
 *   issued to another user, or issued for another request.
 */
export function openRequestState(
  keys: RequestStateKeys,
  state: string,
  bound: { method: string; params: Record<string, unknown> | undefined; user: StateUser | undefined },
): RequestStatePayload {
  const [body, signature, extra] = state.split(".");
  if (body === undefined || signature === undefined || extra !== undefined) {
    throw refuse("was not issued by this server or was altered");
  }
  if (!signedByAny(keys, body, signature)) throw refuse("was not issued by this server or was altered");
  const envelope = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Envelope;
  const answers = envelope.answers as unknown;
  if (envelope.v !== 1 || typeof answers !== "object" || answers === null || !Array.isArray(envelope.pending)) {
    throw refuse("was not issued by this server or was altered");
  }
  if (keys.now() >= envelope.exp) throw refuse("has expired; call again without it");
  if (envelope.usr !== userKey(bound.user)) throw refuse("was issued to another user");
  if (envelope.req !== requestDigest(bound.method, bound.params)) throw refuse("was issued for another request");
  const payload: RequestStatePayload = { answers: envelope.answers, pending: envelope.pending };
  if (typeof envelope.handoff === "string") payload.handoff = envelope.handoff;
  return payload;
}
