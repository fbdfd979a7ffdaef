/**
 * The MCP authorization server of the full demo: an `oidc-provider` on 127.0.0.1 with its
 * development login pages (any login name is an account). It knows two clients: the connect
 * pages, which only ask who is at the browser, and the demo's MCP client, a public client using
 * authorization code + PKCE whose access tokens are JWTs for the MCP server (RFC 8707 `resource`).
 * Other MCP clients register themselves (dynamic client registration, RFC 7591, at `/reg`) as
 * remote-server clients such as `mcp-remote` do, and find it by its RFC 8414 metadata
 * (`/.well-known/oauth-authorization-server`) as well as by OpenID Connect discovery.
 */
import Provider from "oidc-provider";
import { accountClaims, close, listen } from "./authorization-servers.js";

export const CONNECT_CLIENT = { clientId: "mcp-connect", clientSecret: "mcp-connect-secret-for-the-demo" };
export const MCP_CLIENT_ID = "demo-mcp-client";
/**
 * The MCP client's registered redirect: a native app's loopback redirect, so any port is accepted
 * (RFC 8252 § 7.3) and the client listens on an ephemeral one while it signs in.
 */
export const MCP_CLIENT_REDIRECT = "http://127.0.0.1/callback";
export const MCP_SCOPE = "mcp:tools";
/** The key the MCP authorization server signs its own cookies with. */
export const MCP_AS_COOKIE_KEY = "mcp-demo-cookie-key-0123456789abcdef";

export interface McpAuthorizationServer {
  issuer: string;
  close(): Promise<void>;
}

/** Starts it on 127.0.0.1; `mcpOrigin` serves the connect pages, `resource` is the MCP endpoint. */
/** `options.observe` is called with the provider before it serves anything (see `collectIssuedSecrets`). */
export async function startMcpAuthorizationServer(
  mcpOrigin: string,
  resource: string,
  options: { observe?: (provider: Provider) => void } = {},
): Promise<McpAuthorizationServer> {
  const { server, origin: issuer, handle } = await listen("127.0.0.1");
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CONNECT_CLIENT.clientId,
        client_secret: CONNECT_CLIENT.clientSecret,
        redirect_uris: [`${mcpOrigin}/connect/login`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
      {
        client_id: MCP_CLIENT_ID,
        application_type: "native",
        redirect_uris: [MCP_CLIENT_REDIRECT],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      },
    ],
    // `mcp:tools` too: a registering client names the scopes it will ask for (the protected
    // resource metadata's `scopes_supported`), and only known scopes can be registered.
    scopes: ["openid", "email", "profile", MCP_SCOPE],
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    // Refresh tokens for the clients registered with the `refresh_token` grant (as mcp-remote
    // registers); this also lets registration accept that grant type.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    cookies: { keys: [MCP_AS_COOKIE_KEY] },
    // Every login name is an account, alice@example.com for "alice"; its ID token says so.
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, ...accountClaims(id) }) }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["preferred_username"] },
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: true },
      // Open registration, as MCP clients expect of an authorization server they have never met.
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new Error("unknown resource");
          return { scope: MCP_SCOPE, audience: resource, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
        },
      },
    },
  });
  options.observe?.(provider);
  const callback = provider.callback();
  handle((req, res) => {
    // RFC 8414 metadata: the same document as OpenID Connect discovery, at the OAuth well-known path.
    if (req.url === "/.well-known/oauth-authorization-server") req.url = "/.well-known/openid-configuration";
    callback(req, res);
  });
  return { issuer, close: () => close(server) };
}
