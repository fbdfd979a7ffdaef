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
  return resourceFromChallenge(resource, probe.headers.get("www-authenticate") ?? "", signal);
}

/**
 * The resource metadata (RFC 9728) of the MCP server at `resource`, given the `WWW-Authenticate`
 * value of its 401 (or 403): the document its `resource_metadata` names, else the one at the
 * path-aware well-known URL, else at the origin's well-known URL. The metadata's `resource` must
 * be the URL the metadata was looked up for (RFC 9728 § 3.3): `resource` itself, or its origin for
 * the origin's document. The `resource` returned is the metadata's own spelling, to be sent as is.
 * @throws LoginError "discovery" when no metadata is found, it names another resource, or it
 *   lists no authorization server.
 */
export async function resourceFromChallenge(
  resource: URL,
  challenge: string,
  signal?: AbortSignal,
): Promise<ResourceAuthorization> {
  const metadataUrl = challengeParameter(challenge, "resource_metadata");
  const challengeScope = challengeParameter(challenge, "scope");
  const options = { ...requestOptions(resource), ...(signal === undefined ? {} : { signal }) };
  const candidates: Array<{ expected: URL; get: () => Promise<Response> }> = [];
  if (metadataUrl !== undefined && URL.canParse(metadataUrl)) {
    const url = new URL(metadataUrl);
    const get = () => fetch(url, { headers: { accept: "application/json" }, redirect: "manual", ...options });
    candidates.push({ expected: resource, get });
  } else {
    candidates.push({ expected: resource, get: () => oauth.resourceDiscoveryRequest(resource, options) });
    const origin = new URL(resource.origin);
    if (resource.pathname !== "/") {
      candidates.push({ expected: origin, get: () => oauth.resourceDiscoveryRequest(origin, options) });
    }
  }
  let metadata: oauth.ResourceServer | undefined;
  let failure: unknown;
  for (const { expected, get } of candidates) {
    let response: Response;
    try {
      response = await get();
    } catch (error) {
      throw new LoginError("discovery", `Could not read the protected resource metadata of ${resource.href}`, {
        cause: error,
      });
    }
    try {
      metadata = await oauth.processResourceDiscoveryResponse(expected, response);
      break;
    } catch (error) {
      failure = error;
      // Only a missing document sends the client on to the next place; one that names another resource does not.
      if (response.status === 200) break;
    }
  }
  if (metadata === undefined) {
    throw new LoginError("discovery", `No usable protected resource metadata for ${resource.href}`, { cause: failure });
  }
  const issuer = metadata.authorization_servers?.[0];
  if (issuer === undefined) {
    throw new LoginError("discovery", `The metadata of ${resource.href} lists no authorization server`);
  }
  const scopes = challengeScope?.split(" ").filter(Boolean) ?? metadata.scopes_supported ?? [];
  return { resource: metadata.resource, issuer, scopes: [...scopes] };
}

/**
 * The authorization server's metadata, tried in the order of basic/authorization § Authorization
 * Server Metadata Discovery: RFC 8414 (path inserted), OpenID Connect discovery with the path
 * inserted, then appended. The document's `issuer` must be `issuer` (RFC 8414 § 3.3); a
 * document naming another issuer is never used.
 * @throws LoginError "discovery" when no document for `issuer` is found, or the server does not
 *   support PKCE with S256 (which MCP clients must refuse).
 */
export async function discoverAuthorizationServer(
  issuer: string,
  signal?: AbortSignal,
): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const options = { ...requestOptions(url), ...(signal === undefined ? {} : { signal }) };
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    ...(path === "" ? [] : [`${url.origin}/.well-known/openid-configuration${path}`]),
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  let as: oauth.AuthorizationServer | undefined;
  let failure: unknown;
  for (const candidate of candidates) {
    try {
      const response = await fetch(candidate, {
        headers: { accept: "application/json" },
        redirect: "manual",
        ...options,
      });
      as = await oauth.processDiscoveryResponse(url, response);
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
export function challengeParameter(challenge: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,]+))`, "i").exec(challenge);
  if (match === null) return undefined;
  return match[1] === undefined ? match[2] : match[1].replace(/\\(.)/g, "$1");
}
