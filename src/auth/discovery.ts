/**
 * Finds an authorization server's `jwks_uri` from its metadata, trying the well-known locations
 * in the order MCP clients use (spec 2025-11-25: basic/authorization § Authorization Server
 * Metadata Discovery; RFC 8414 § 3.1 and § 5).
 */
import { AuthorizationServerUnavailableError } from "./errors.js";

/** The metadata URLs to try for `issuer`, most specific first. */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const origin = url.origin;
  if (path === "") {
    return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  }
  return [
    `${origin}/.well-known/oauth-authorization-server${path}`,
    `${origin}/.well-known/openid-configuration${path}`,
    `${origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * The `jwks_uri` the issuer publishes.
 * @throws AuthorizationServerUnavailableError when no location answers with metadata, or the
 *   metadata names another issuer (RFC 8414 § 3.3) or no `jwks_uri`.
 */
export async function discoverJwksUri(issuer: string, fetchFn: typeof fetch, timeoutMs: number): Promise<string> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchFn(url, {
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new AuthorizationServerUnavailableError(`The authorization server metadata at ${url} did not answer`, {
        cause,
      });
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (metadata?.issuer !== issuer) {
      throw new AuthorizationServerUnavailableError(`The metadata at ${url} does not name the issuer ${issuer}`);
    }
    if (typeof metadata.jwks_uri !== "string" || !URL.canParse(metadata.jwks_uri)) {
      throw new AuthorizationServerUnavailableError(`The metadata at ${url} has no jwks_uri`);
    }
    return metadata.jwks_uri;
  }
  throw new AuthorizationServerUnavailableError(`No authorization server metadata found for ${issuer}`);
}
