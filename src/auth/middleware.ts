/**
 * Bearer authentication in front of a web-standard handler such as `StreamableHttpServer.handle`
 * (spec 2025-11-25: basic/authorization § Access Token Usage, § Error Handling). Every request
 * must carry `Authorization: Bearer <token>`; the verified `AuthInfo` is passed on as
 * `extra.authInfo`, where `McpServer` hands it to tool handlers as `ctx.authInfo`.
 */

import type { AuthInfo } from "../model/identity.js";
import type { HandleExtra } from "../transports/http/server.js";
import { challengeResponse } from "./challenge.js";
import { AuthorizationServerUnavailableError, BearerTokenError } from "./errors.js";
import { assertScopes, challengeScopes, missingScopes } from "./scopes.js";
import type { BearerVerifier } from "./verifier.js";

export interface BearerAuthOptions {
  /** The URL of this resource's protected resource metadata (see `protectedResourceMetadataUrl`). */
  resourceMetadataUrl: string;
  /** Scopes this handler needs on top of the verifier's; also named in the 401 challenge. */
  requiredScopes?: readonly string[];
  /** Failures that are not the client's: the authorization server unreachable, a verifier bug. */
  onerror?: (error: Error) => void;
}

/** A web-standard handler as `StreamableHttpServer.handle` is one. */
export type WebHandler = (request: Request, extra?: HandleExtra) => Promise<Response>;

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Wraps `handler` so it only sees requests with a valid bearer token. Refusals:
 * 401 `Bearer resource_metadata="…"` (plus `scope`) without credentials or with another scheme;
 * 400 `invalid_request` for a malformed `Authorization: Bearer` value;
 * 401 `invalid_token` for a token that fails verification;
 * 403 `insufficient_scope` with `scope="…"` (granted plus required) for missing scopes;
 * 503 when the authorization server could not be asked; 500 when the verifier fails otherwise.
 */
export function withBearerAuth(handler: WebHandler, verifier: BearerVerifier, options: BearerAuthOptions): WebHandler {
  assertScopes(options.requiredScopes ?? [], "requiredScopes");
  return async (request, extra = {}) => {
    const result = await authenticate(request.headers.get("authorization"), verifier, options);
    if (result instanceof Response) return result;
    return handler(request, { ...extra, authInfo: result });
  };
}

/**
 * The verified `AuthInfo` for an `Authorization` header value, or the refusal to send. The one
 * implementation behind `withBearerAuth` and `nodeBearerAuth`.
 * @throws never; every failure becomes a response.
 */
export async function authenticate(
  authorization: string | null,
  verifier: BearerVerifier,
  options: BearerAuthOptions,
): Promise<AuthInfo | Response> {
  const required = [...new Set([...verifier.requiredScopes, ...(options.requiredScopes ?? [])])];
  const resourceMetadataUrl = options.resourceMetadataUrl;
  if (authorization === null || !/^bearer(?: |$)/i.test(authorization)) {
    return challengeResponse({ resourceMetadataUrl, scopes: required });
  }
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) {
    return challengeResponse({
      resourceMetadataUrl,
      error: "invalid_request",
      description: "The Authorization header must be one bearer token: Bearer <token>",
    });
  }
  let info: AuthInfo;
  try {
    info = await verifier.verify(token);
  } catch (error) {
    return refusal(error, resourceMetadataUrl, required, options);
  }
  const granted = info.scopes ?? [];
  if (missingScopes(granted, required).length > 0) {
    return challengeResponse({
      resourceMetadataUrl,
      error: "insufficient_scope",
      description: "The access token lacks a scope this resource requires",
      scopes: challengeScopes(granted, required),
    });
  }
  return info;
}

function refusal(
  error: unknown,
  resourceMetadataUrl: string,
  required: readonly string[],
  options: BearerAuthOptions,
): Response {
  if (error instanceof BearerTokenError) {
    return challengeResponse({
      resourceMetadataUrl,
      error: error.code,
      description: error.message,
      scopes: error.code === "insufficient_scope" ? error.scopes : required,
    });
  }
  options.onerror?.(error instanceof Error ? error : new Error(String(error)));
  const unavailable = error instanceof AuthorizationServerUnavailableError;
  return new Response(
    JSON.stringify({
      error: unavailable ? "temporarily_unavailable" : "server_error",
      error_description: unavailable ? "The authorization server could not be reached" : "Internal error",
    }),
    { status: unavailable ? 503 : 500, headers: { "content-type": "application/json" } },
  );
}
