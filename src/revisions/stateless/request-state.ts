/**
 * The server's `requestState`: what earlier rounds of a multi round-trip request established,
 * carried by the client between rounds (spec 2026-07-28: basic/patterns/mrtr § Server
 * Requirements: attacker-controlled input, integrity-protected, bound to the principal, a short
 * expiry and the originating request). It is sealed, not only signed: a compact JWE (RFC 7516)
 * with `alg: "dir"` and `enc: "A256GCM"`, whose header names the key (`kid`) and nothing else,
 * so the client can read none of it. Sealed inside: the expiry, the verified user, a digest of
 * the original request, and for every question asked a digest of exactly what was asked.
 */
import { createHash } from "node:crypto";
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import type { RequestStateKeys } from "./request-state-keys.js";

/** jose, loaded with the first state sealed or opened: a server that asks no input does not load it at start. */
let jose: Promise<typeof import("jose")> | undefined;
const loadJose = () => {
  jose ??= import("jose");
  return jose;
};

/** The user a state belongs to: issuer and subject of the verified token (or the local user), or none. */
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
  /** `questionDigest` of what was asked; absent for an answer given without a state. */
  question?: string;
}

export interface RequestStateAsk {
  key: string;
  method: string;
  interaction?: string;
  /** `questionDigest` of the input request sent under `key`. */
  question?: string;
}

/**
 * The plaintext of a sealed state. The binding travels inside the ciphertext rather than as
 * additional authenticated data: compact JWE authenticates only its own header, and a binding
 * read back after decryption lets the refusal say which check failed (expired, another user,
 * another request) while the client still sees nothing but ciphertext.
 */
interface Sealed extends RequestStatePayload {
  v: 2;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** `[issuer, subject]` of the user as JSON, or "" for none. */
  usr: string;
  /** `requestDigest` of the original request. */
  req: string;
}

const HEADER = { alg: "dir", enc: "A256GCM" } as const;

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

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * The digest that binds a state to the request it was issued for: the method and its params
 * without what a retry legitimately changes (`_meta`, `inputResponses`, `requestState`).
 */
export function requestDigest(method: string, params: Record<string, unknown> | undefined): string {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params ?? {};
  return sha256(`${method}\n${canonical(rest)}`);
}

/** The digest of one input request as sent (its method and params), so an answer is bound to the question it answers. */
export function questionDigest(method: string, params: Record<string, unknown>): string {
  return sha256(`question\n${method}\n${canonical(params)}`);
}

/** `[issuer, subject]` as JSON (`null` for no issuer), so that no two users share it; "" for none. */
function userKey(user: StateUser | undefined): string {
  return user === undefined ? "" : JSON.stringify([user.issuer ?? null, user.subject]);
}

/**
 * A sealed state for the request `method` + `params` and its `user`, valid for `ttlMs`, under
 * the first of `keys`.
 */
export async function sealRequestState(
  keys: RequestStateKeys,
  payload: RequestStatePayload,
  bound: { method: string; params: Record<string, unknown> | undefined; user: StateUser | undefined; ttlMs: number },
): Promise<string> {
  const [first] = keys.keys;
  if (first === undefined) throw new ProtocolError(ErrorCode.InternalError, "No requestState key");
  const sealed: Sealed = {
    v: 2,
    exp: keys.now() + bound.ttlMs,
    usr: userKey(bound.user),
    req: requestDigest(bound.method, bound.params),
    ...payload,
  };
  const { CompactEncrypt } = await loadJose();
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(sealed)))
    .setProtectedHeader({ ...HEADER, kid: first.id })
    .encrypt(first.key);
}

function refuse(why: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid params: requestState ${why}`);
}

const ALTERED = "was not issued by this server or was altered";

/**
 * Whether `state` is a compact JWE of the `dir` shape spelt exactly as encoded: five parts, the
 * second empty, each canonical base64url, so no other spelling of the same bytes passes as the
 * state issued.
 */
function wellFormed(state: string): boolean {
  const parts = state.split(".");
  return (
    parts.length === 5 &&
    parts[1] === "" &&
    parts.every(
      (part) => /^[A-Za-z0-9_-]*$/.test(part) && Buffer.from(part, "base64url").toString("base64url") === part,
    )
  );
}

/**
 * The payload of a state the client echoed, after opening it under the key its header names and
 * checking expiry, user and request.
 * @throws ProtocolError -32602 naming the reason without revealing anything sealed: not issued
 *   by this server or altered (also: sealed under a key no longer held), expired, issued to
 *   another user, or issued for another request.
 */
export async function openRequestState(
  keys: RequestStateKeys,
  state: string,
  bound: { method: string; params: Record<string, unknown> | undefined; user: StateUser | undefined },
): Promise<RequestStatePayload> {
  if (!wellFormed(state)) throw refuse(ALTERED);
  const { compactDecrypt } = await loadJose();
  let sealed: Sealed;
  try {
    const { plaintext } = await compactDecrypt(
      state,
      (header) => {
        const found = keys.keys.find((entry) => entry.id === header.kid);
        if (found === undefined) throw new Error("unknown key id");
        return found.key;
      },
      { keyManagementAlgorithms: [HEADER.alg], contentEncryptionAlgorithms: [HEADER.enc] },
    );
    sealed = JSON.parse(new TextDecoder().decode(plaintext)) as Sealed;
  } catch {
    throw refuse(ALTERED);
  }
  const answers = sealed.answers as unknown;
  if (sealed.v !== 2 || typeof answers !== "object" || answers === null || !Array.isArray(sealed.pending)) {
    throw refuse(ALTERED);
  }
  if (keys.now() >= sealed.exp) throw refuse("has expired; call again without it");
  if (sealed.usr !== userKey(bound.user)) throw refuse("was issued to another user");
  if (sealed.req !== requestDigest(bound.method, bound.params)) throw refuse("was issued for another request");
  const payload: RequestStatePayload = { answers: sealed.answers, pending: sealed.pending };
  if (typeof sealed.handoff === "string") payload.handoff = sealed.handoff;
  return payload;
}

/** The refusal of an answer whose question is not the one the handler asks now under `key`. */
export function swappedQuestion(key: string): ProtocolError {
  return refuse(`was issued for another question under inputResponses.${key}; call again without it`);
}
