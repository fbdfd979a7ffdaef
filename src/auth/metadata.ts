/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the document that tells an MCP client which
 * authorization servers issue tokens for this server (spec 2025-11-25: basic/authorization §
 * Authorization Server Location), and a handler that serves it at its well-known URLs.
 */
import { assertResource } from "./resource.js";
import { assertScopes } from "./scopes.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

export interface ProtectedResourceMetadataOptions {
  /** This resource's canonical URI, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuer identifiers of the authorization servers whose tokens this resource accepts; at least one. */
  authorizationServers: readonly string[];
  /** Scopes a client needs for basic use (spec: Scope Selection Strategy). */
  scopesSupported?: readonly string[];
  /** A human-readable name of the resource, for consent screens. */
  resourceName?: string;
  /** A page with human-readable documentation of the resource. */
  resourceDocumentation?: string;
}

/** The RFC 9728 § 2 document, with the members this resource uses. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  /** Always `["header"]`: tokens are accepted in the `Authorization` header only (RFC 6750 § 2.1). */
  bearer_methods_supported: string[];
  scopes_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
}

/**
 * Builds the metadata document.
 * @throws TypeError when `resource` is not an absolute http(s) URL without fragment, no
 *   authorization server is named, or a scope is not a valid OAuth scope.
 */
export function protectedResourceMetadata(options: ProtectedResourceMetadataOptions): ProtectedResourceMetadata {
  assertResource(options.resource, "resource");
  if (options.authorizationServers.length === 0) {
    throw new TypeError("authorizationServers must name at least one authorization server");
  }
  for (const server of options.authorizationServers) assertResource(server, "authorizationServers");
  const document: ProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (options.scopesSupported !== undefined) {
    assertScopes(options.scopesSupported, "scopesSupported");
    document.scopes_supported = [...options.scopesSupported];
  }
  if (options.resourceName !== undefined) document.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) document.resource_documentation = options.resourceDocumentation;
  return document;
}

/**
 * The URL of the metadata for `resource` (RFC 9728 § 3.1): the well-known path inserted between
 * the host and the resource's path, e.g. `https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`.
 * Put it in `withBearerAuth`'s `resourceMetadataUrl`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${WELL_KNOWN}${path}${url.search}`;
}

export interface MetadataHandlerOptions {
  /**
   * Also serve the document at `/.well-known/oauth-protected-resource` when the resource has a
   * path, the location clients try second (spec: Protected Resource Metadata Discovery). Default true.
   */
  serveAtRoot?: boolean;
}

/**
 * A web-standard handler for the metadata's well-known paths: GET and HEAD get the JSON document
 * (readable cross-origin, since it is public and browser-based clients fetch it), OPTIONS gets the
 * CORS preflight answer, other methods 405, other paths 404.
 */
export function protectedResourceMetadataHandler(
  metadata: ProtectedResourceMetadata,
  options: MetadataHandlerOptions = {},
): (request: Request) => Response {
  const own = new URL(protectedResourceMetadataUrl(metadata.resource)).pathname;
  const paths = new Set([own]);
  if (options.serveAtRoot ?? true) paths.add(WELL_KNOWN);
  const body = JSON.stringify(metadata);
  const cors = { "access-control-allow-origin": "*" };
  return (request) => {
    if (!paths.has(new URL(request.url).pathname)) return new Response("Not Found", { status: 404 });
    switch (request.method) {
      case "GET":
      case "HEAD":
        return new Response(request.method === "GET" ? body : null, {
          status: 200,
          headers: { ...cors, "content-type": "application/json", "cache-control": "max-age=3600" },
        });
      case "OPTIONS":
        return new Response(null, {
          status: 204,
          headers: { ...cors, "access-control-allow-methods": "GET, HEAD, OPTIONS" },
        });
      default:
        return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, HEAD, OPTIONS" } });
    }
  };
}
