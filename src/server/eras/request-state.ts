/**
 * How a server serves revision 2026-07-28 requests (`StatelessSettings`), and the sealed,
 * expiring `requestState` of its multi round-trip requests, bound to the request and its user.
 */
import { randomBytes } from "node:crypto";
import { SdkError } from "../../jsonrpc/errors.js";
import type { Params } from "../../jsonrpc/session.js";
import type { AuthInfo } from "../../model/identity.js";
import {
  type CacheHints,
  checkRequestStateKeys,
  openRequestState,
  type RequestStateKey,
  type RequestStateKeys,
  type RequestStatePayload,
  STATELESS_VERSIONS,
  type StateUser,
  SUPPORTED_VERSIONS,
  sealRequestState,
} from "../../revisions/index.js";
import type { InteractionService } from "../handler-types.js";
import { DEFAULT_HANDOFF_HOLD_MS } from "./handoff-hold.js";

export type { CacheHints, RequestStateKey };

/** How the server serves stateless requests; set from `McpServerOptions`. */
export interface StatelessSettings {
  /** Every version the server speaks, newest first (`server/discover`, -32022). */
  readonly supportedVersions: readonly string[];
  /** Cache hints of list and read results. */
  readonly cache: CacheHints | undefined;
  /** Seal and open `requestState`. */
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
  requestStateKeys?: readonly (RequestStateKey | Uint8Array)[] | undefined;
  requestStateTtlMs?: number | undefined;
  handoffHoldMs?: number | undefined;
  now?: (() => number) | undefined;
}

/**
 * The settings of a server from its options (see `McpServerOptions`): every version it speaks,
 * a random `requestState` key unless keys are given, 10 minutes of `requestState` validity, and
 * a hold of 25,000 ms.
 * @throws TypeError for a negative, fractional or too long `handoffHoldMs`.
 * @throws SdkError "INVALID_ARGUMENT" for `requestStateKeys` that are empty, hold a key that is not
 *   32 bytes or repeat an id, for a `requestStateSecret` that is not 32 bytes, or for both at once.
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
 * The keys of `requestState`: the first of `requestStateKeys` seals and every one opens;
 * `requestStateSecret` is one key; neither, a random key of this process, which suits one
 * instance only (a fleet shares its keys, or a retry reaching another instance is refused).
 * @throws SdkError "INVALID_ARGUMENT" as `statelessSettings` says.
 */
function requestStateKeysOf(options: StatelessOptions): RequestStateKeys {
  const now = options.now ?? Date.now;
  const list = options.requestStateKeys;
  if (list !== undefined && options.requestStateSecret !== undefined) {
    throw new SdkError("INVALID_ARGUMENT", "Give requestStateKeys or requestStateSecret, not both");
  }
  return { keys: checkRequestStateKeys(list ?? [options.requestStateSecret ?? randomBytes(32)]), now };
}

/** `handoffHoldMs` checked: an integer that a timer can wait. */
function holdMsOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_HANDOFF_HOLD_MS;
  if (!Number.isSafeInteger(value) || value < 0 || value > 2 ** 31 - 1) {
    throw new TypeError(`handoffHoldMs must be an integer from 0 to ${2 ** 31 - 1}, got ${value}`);
  }
  return value;
}

/**
 * The user a `requestState` is bound to: the verified token's issuer and subject; without
 * authorization, the local user of the interaction service (`userFor`), if it has one; else none.
 */
export function stateUser(
  authInfo: AuthInfo | undefined,
  service: Pick<InteractionService, "userFor"> | undefined,
): StateUser | undefined {
  if (authInfo === undefined) return service?.userFor(undefined);
  if (authInfo.subject === undefined) return undefined;
  return authInfo.issuer === undefined
    ? { subject: authInfo.subject }
    : { issuer: authInfo.issuer, subject: authInfo.subject };
}

/** What seals and opens the `requestState` of one request. */
export interface RequestStateOf {
  /**
   * The retry's state opened, or `undefined` for a request without one.
   * @throws ProtocolError -32602 for a state that is altered, sealed under a key no longer held,
   *   expired, another user's or another request's.
   */
  open(): Promise<RequestStatePayload | undefined>;
  seal(payload: RequestStatePayload): Promise<string>;
}

/** Seals and opens the `requestState` of one request of `user`. */
export function requestStateFor(
  settings: StatelessSettings,
  method: string,
  params: Params,
  user: StateUser | undefined,
): RequestStateOf {
  const bound = { method, params, user };
  return {
    open: async () =>
      typeof params.requestState === "string"
        ? openRequestState(settings.requestState, params.requestState, bound)
        : undefined,
    seal: (payload) =>
      sealRequestState(settings.requestState, payload, { ...bound, ttlMs: settings.requestStateTtlMs }),
  };
}
