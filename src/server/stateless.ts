/**
 * What a server connection needs to serve revision 2026-07-28 requests: the `server/discover`
 * result, the per-request view of `_meta` (capabilities, log level), and the signed
 * `requestState` of multi round-trip requests. Which revision a request is written in is asked of
 * the codec (`isStatelessRequest`, `readRequestMeta`); nothing here compares versions.
 */
import type { Params, Result } from "../jsonrpc/session.js";
import type { AuthInfo } from "../model/identity.js";
import {
  type CacheHints,
  isStatelessRequest,
  MRTR_METHODS,
  openRequestState,
  type RequestMeta,
  type RequestStateKeys,
  type RequestStatePayload,
  readRequestMeta,
  type ServerCapabilities,
  type StatelessVersion,
  type StateUser,
  signRequestState,
} from "../revisions/index.js";

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

/** The `_meta` facts of a request written in the stateless era, or `undefined` for a stateful one. */
export function statelessMeta(
  method: string,
  params: Params,
): (RequestMeta & { protocolVersion: StatelessVersion }) | undefined {
  return isStatelessRequest(method, params) ? readRequestMeta(params) : undefined;
}

/** Whether the handler of `method` may answer with an `InputRequiredResult`. */
export function allowsInputRounds(method: string): boolean {
  return MRTR_METHODS.has(method);
}

/**
 * The `server/discover` result (spec 2026-07-28: server/discover). The server's identity and the
 * cache hints are put on by the codec, as on every result: the identity only in `_meta`.
 */
export function discoverResult(
  settings: StatelessSettings,
  capabilities: ServerCapabilities,
  instructions: string | undefined,
): Result {
  const result: Result = {
    supportedVersions: [...settings.supportedVersions],
    capabilities: capabilities as Record<string, unknown>,
  };
  if (instructions !== undefined) result.instructions = instructions;
  return result;
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
