/**
 * The answers a protected resource gives when it refuses a request: status, a `Bearer`
 * challenge in `WWW-Authenticate` (RFC 6750 § 3, with `resource_metadata` from RFC 9728 § 5.1)
 * and a small OAuth-style JSON body.
 */
import { BEARER_ERROR_STATUS, type BearerErrorCode } from "./errors.js";

export interface Challenge {
  /** The metadata URL (RFC 9728 § 5.1), so a client can find the authorization server. */
  resourceMetadataUrl: string;
  /** Absent when the request carried no credentials at all (RFC 6750 § 3.1). */
  error?: BearerErrorCode;
  /** A fixed sentence of ours; never token material. */
  description?: string;
  /** The scopes to ask for (spec 2025-11-25: basic/authorization § Scope Challenge Handling). */
  scopes?: readonly string[];
}

/** The `WWW-Authenticate` value: `Bearer resource_metadata="…", error="…", error_description="…", scope="…"`. */
export function bearerChallenge(challenge: Challenge): string {
  const params: [string, string][] = [["resource_metadata", challenge.resourceMetadataUrl]];
  if (challenge.error !== undefined) params.push(["error", challenge.error]);
  if (challenge.description !== undefined) params.push(["error_description", challenge.description]);
  if (challenge.scopes !== undefined && challenge.scopes.length > 0) params.push(["scope", challenge.scopes.join(" ")]);
  return `Bearer ${params.map(([name, value]) => `${name}="${quotable(value)}"`).join(", ")}`;
}

/** A refusal: 401 without an error code, otherwise the status that goes with it. */
export function challengeResponse(challenge: Challenge): Response {
  const status = challenge.error === undefined ? 401 : BEARER_ERROR_STATUS[challenge.error];
  const body: Record<string, string> = {};
  if (challenge.error !== undefined) body.error = challenge.error;
  body.error_description = challenge.description ?? "This resource requires a bearer access token";
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "www-authenticate": bearerChallenge(challenge) },
  });
}

/** RFC 6750 allows no `"` or `\` inside these values, and only printable ASCII. */
function quotable(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "");
}
