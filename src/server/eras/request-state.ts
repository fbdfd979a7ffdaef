/**
 * How a server serves revision 2026-07-28 requests (`StatelessSettings`), and the signed,
 * expiring `requestState` of its multi round-trip requests, bound to the request and its user.
 */
import { randomBytes } from "node:crypto";
import type { Params } from "../../jsonrpc/session.js";
import type { AuthInfo } from "../../model/identity.js";
import {
  type CacheHints,
  openRequestState,
  type RequestStateKeys,
  type RequestStatePayload,
  STATELESS_VERSIONS,
  type StateUser,
  SUPPORTED_VERSIONS,
  signRequestState,
} from "../../revisions/index.js";
import { DEFAULT_HANDOFF_HOLD_MS } from "./handoff-hold.js";

export type { CacheHints };

/** How the server serves stateless requests; set from `McpServerOptions`. */
export interface StatelessSettings {
  /** Every version the server speaks, newest first (`server/discover`, -32022). */
  readonly supportedVersions: readonly string[];
  /** Cache hints of list and read results. */
  readonly cache: CacheHints | undefined;
  /** Signs `requestState`. */
  readonly requestState: RequestStateKeys;
  /** ms a `requestState` stays valid. */
  readonly requestStateTtlMs: number;
  /** ms a retry that accepted a hand-off page still open waits for its completion; 0: none. */
  readonly handoffHoldMs: number;
}

/** What `statelessSettings` reads of `McpServerOptions`. */
export interface StatelessOptions {
  cacheHints?: CacheHints | undefined;
  requestStateSecret?: Uint8Array | undefined;
  requestStateKeys?: readonly Uint8Array[] | undefined;
  requestStateTtlMs?: number | undefined;
  handoffHoldMs?: number | undefined;
  now?: (() => number) | undefined;
}

/**
 * The settings of a server from its options (see `McpServerOptions`): every version it speaks,
 * a random `requestState` key unless keys are given, 10 minutes of `requestState` validity, and
 * a hold of 25,000 ms.
 * @throws TypeError for a negative, fractional or too long `handoffHoldMs`; for `requestStateKeys`
 *   that are empty or hold a key under 32 bytes, or given with `requestStateSecret`.
 */
export function statelessSettings(options: StatelessOptions): StatelessSettings {
  return {
    supportedVersions: [...STATELESS_VERSIONS, ...SUPPORTED_VERSIONS],
    cache: options.cacheHints,
    requestState: requestStateKeysOf(options),
    requestStateTtlMs: options.requestStateTtlMs ?? 600_000,
    handoffHoldMs: holdMsOf(options.handoffHoldMs),
  };
}

/**
 * The keys of `requestState`: the first of `requestStateKeys` signs and every one verifies;
 * `requestStateSecret` is one key; neither, a random key.
 * @throws TypeError for an empty list, a key under 32 bytes, or both options at once.
 */
function requestStateKeysOf(options: StatelessOptions): RequestStateKeys {
  const now = options.now ?? Date.now;
  const list = options.requestStateKeys;
  if (list === undefined) return { secret: options.requestStateSecret ?? randomBytes(32), now };
  if (options.requestStateSecret !== undefined) {
    throw new TypeError("Give requestStateKeys or requestStateSecret, not both");
  }
  const [secret, ...verifying] = list;
  if (secret === undefined) throw new TypeError("requestStateKeys needs at least one key");
  list.forEach((key, index) => {
    if (!(key instanceof Uint8Array) || key.byteLength < 32) {
      throw new TypeError(`requestStateKeys[${index}] must be a Uint8Array of at least 32 bytes`);
    }
  });
  return { secret, verifying, now };
}

/** `handoffHoldMs` checked: an integer that a timer can wait. */
function holdMsOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_HANDOFF_HOLD_MS;
  if (!Number.isSafeInteger(value) || value < 0 || value > 2 ** 31 - 1) {
    throw new TypeError(`handoffHoldMs must be an integer from 0 to ${2 ** 31 - 1}, got ${value}`);
  }
  return value;
}

/** The user a `requestState` is bound to: the verified token's issuer and subject, or none. */
function stateUser(authInfo: AuthInfo | undefined): StateUser | undefined {
  if (authInfo?.subject === undefined) return undefined;
  return authInfo.issuer === undefined
    ? { subject: authInfo.subject }
    : { issuer: authInfo.issuer, subject: authInfo.subject };
}

/** Signs and opens the `requestState` of one request. */
export function requestStateFor(
  settings: StatelessSettings,
  method: string,
  params: Params,
  authInfo: AuthInfo | undefined,
): {
  /** @throws ProtocolError -32602 for a state that is altered, expired, another user's or another request's. */
  open(): RequestStatePayload | undefined;
  sign(payload: RequestStatePayload): string;
} {
  const bound = { method, params, user: stateUser(authInfo) };
  return {
    open: () =>
      typeof params.requestState === "string"
        ? openRequestState(settings.requestState, params.requestState, bound)
        : undefined,
    sign: (payload) =>
      signRequestState(settings.requestState, payload, { ...bound, ttlMs: settings.requestStateTtlMs }),
  };
}
