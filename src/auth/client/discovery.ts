/**
 * How a client finds where to log in for an MCP server (spec 2025-11-25: basic/authorization
 * § Authorization Server Discovery): an unauthenticated request answered 401 names the protected
 * resource metadata (RFC 9728) in `WWW-Authenticate`, else it is at the well-known URL; that
 * document lists the authorization servers, whose metadata comes from RFC 8414 or, failing
 * that, OpenID Connect discovery. Plain http is accepted only on this machine.
 */
import * as oauth from "oauth4webapi";
import { LoginError } from "./errors.js";

/** Options of every `oauth4webapi` request to `url`: plain http only for a loopback address. */
export function requestOptions(url: URL): { [oauth.allowInsecureRequests]?: true } {
  return url.protocol === "http:" && isLoopback(url) ? { [oauth.allowInsecureRequests]: true } : {};
}

function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** What the MCP server says about its authorization. */
export interface ResourceAuthorization {
  /** The resource identifier, equal to the MCP server's URL. */
  resource: string;
  /** The first authorization server the resource lists. */
  issuer: string;
  /** Scopes to ask for: the 401 challenge's `scope`, else the metadata's `scopes_supported`; may be empty. */
  scopes: string[];
}

/**
 * Asks the MCP server at `resource` without a token and follows its answer to the resource metadata.
 * @throws LoginError "discovery" when the server does not ask for authorization (it answers
 *   without 401), or its metadata is missing, names another resource or lists no authorization server.
 */
export async function discoverResource(resource: URL, signal?: AbortSignal): Promise<ResourceAuthorization> {
  let probe: Response;
  try {
    probe = await fetch(resource, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      redirect: "manual",
      ...(signal === undefined ? {} : { signal }),
    });
    await probe.body?.cancel();
  } catch (error) {
    throw new LoginError("discovery", `Could not reach ${resource.href}`, { cause: error });
  }
  if (probe.status !== 401) {
    throw new LoginError("discovery", `${resource.href} does not ask for authorization (HTTP ${probe.status})`);
  }
  const challenge = probe.headers.get("www-authenticate") ?? "";
  const metadataUrl = challengeParameter(challenge, "resource_metadata");
  const challengeScope = challengeParameter(challenge, "scope");
  let metadata: oauth.ResourceServer;
  try {
    const options = { ...requestOptions(resource), ...(signal === undefined ? {} : { signal }) };
    const response =
      metadataUrl === undefined
        ? await oauth.resourceDiscoveryRequest(resource, options)
        : await fetch(metadataUrl, { headers: { accept: "application/json" }, redirect: "manual", ...options });
    metadata = await oauth.processResourceDiscoveryResponse(resource, response);
  } catch (error) {
    throw new LoginError("discovery", `No usable protected resource metadata for ${resource.href}`, { cause: error });
  }
  const issuer = metadata.authorization_servers?.[0];
  if (issuer === undefined) {
    throw new LoginError("discovery", `The metadata of ${resource.href} lists no authorization server`);
  }
  const scopes = challengeScope?.split(" ").filter(Boolean) ?? metadata.scopes_supported ?? [];
  return { resource: metadata.resource, issuer, scopes: [...scopes] };
}

/**
 * The authorization server's metadata: RFC 8414 first, then OpenID Connect discovery.
 * @throws LoginError "discovery" when neither answers with metadata for `issuer`, or the server
 *   does not support PKCE with S256 (which MCP clients must refuse).
 */
export async function discoverAuthorizationServer(
  issuer: string,
  signal?: AbortSignal,
): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const options = { ...requestOptions(url), ...(signal === undefined ? {} : { signal }) };
  let as: oauth.AuthorizationServer | undefined;
  let failure: unknown;
  for (const algorithm of ["oauth2", "oidc"] as const) {
    try {
      as = await oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, { ...options, algorithm }));
      break;
    } catch (error) {
      failure = error;
    }
  }
  if (as === undefined) {
    throw new LoginError("discovery", `No authorization server metadata found for ${issuer}`, { cause: failure });
  }
  if (!as.code_challenge_methods_supported?.includes("S256")) {
    throw new LoginError("discovery", `${issuer} does not announce PKCE with S256; not logging in there`);
  }
  return as;
}

/** One auth-param of a `WWW-Authenticate: Bearer ...` challenge (RFC 9110 § 11.6.1), quoted or not. */
function challengeParameter(challenge: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, "i").exec(challenge);
  if (match === null) return undefined;
  return match[1] === undefined ? match[2] : match[1].replace(/\\(.)/g, "$1");
}
