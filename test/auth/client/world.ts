/**
 * A real authorization server (`oidc-provider` on 127.0.0.1, development login pages: any login
 * name is an account) that knows a native client with a loopback redirect on any port and also
 * registers clients dynamically; and an MCP server behind bearer authentication whose tool
 * `whoami` names the caller. Access tokens are JWTs for the MCP server (RFC 8707) and come with
 * refresh tokens.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import Provider from "oidc-provider";
import { close, listen } from "../../../examples/demo/full/authorization-servers.js";
import {
  createBearerVerifier,
  nodeBearerAuth,
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
} from "../../../src/auth/index.js";
import { McpServer } from "../../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../../src/transports/http/index.js";

export const CLIENT_ID = "handoff-cli";
export const SCOPE = "mcp:tools";
/** A scope the MCP server also asks for once `LoginWorld.requireAdmin()` was called. */
export const ADMIN_SCOPE = "mcp:admin";

export interface LoginWorld {
  issuer: string;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  resource: string;
  /** Paths the MCP server was asked for, with whether a bearer token came along. */
  requests: { path: string; bearer: boolean }[];
  /** From now on the MCP server also requires `mcp:admin`: a token without it gets 403 `insufficient_scope`. */
  requireAdmin(): void;
  close(): Promise<void>;
}

/**
 * The authorization server alone, for the MCP server at `resource`. With `connectPages`, it also
 * knows the connect pages of that server as a public client (`connect-pages`, redirect
 * `<connectPages>/connect/login`).
 */
export async function startMcpLoginServer(
  resource: string,
  connectPages?: string,
  options: { registration?: boolean } = {},
): Promise<{ issuer: string; close(): Promise<void> }> {
  const as = await listen("127.0.0.1");
  const connectClient = {
    client_id: "connect-pages",
    redirect_uris: [`${connectPages}/connect/login`],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  const provider = new Provider(as.origin, {
    clients: [
      {
        client_id: CLIENT_ID,
        application_type: "native",
        redirect_uris: ["http://127.0.0.1/callback"],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      },
      ...(connectPages === undefined ? [] : [connectClient]),
    ],
    scopes: ["openid", "offline_access"],
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    cookies: { keys: ["login-test-cookie-key-0123456789abcdef"] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: options.registration ?? true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new Error("unknown resource");
          return {
            scope: `${SCOPE} ${ADMIN_SCOPE}`,
            audience: resource,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
  });
  as.handle(provider.callback());
  return { issuer: as.origin, close: () => close(as.server) };
}

/**
 * Serves `mcp` at `<web.origin>/mcp` behind bearer tokens of `issuer`, its protected resource
 * metadata, and `other` (e.g. connect pages) for every other path.
 */
export function serveProtected(
  web: Awaited<ReturnType<typeof listen>>,
  issuer: string,
  mcp: McpServer,
  other: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(404).end(),
): { resource: string; requests: LoginWorld["requests"]; requireAdmin(): void; close(): Promise<void> } {
  const resource = `${web.origin}/mcp`;
  const endpoint = new StreamableHttpServer({ onsession: (transport) => void mcp.connect(transport) });
  const handleMcp = toNodeHandler(endpoint);
  const verifier = createBearerVerifier({ issuer, audience: resource, jwksUri: `${issuer}/jwks` });
  const resourceMetadataUrl = protectedResourceMetadataUrl(resource);
  const basic = nodeBearerAuth(verifier, { resourceMetadataUrl, requiredScopes: [SCOPE] });
  const admin = nodeBearerAuth(verifier, { resourceMetadataUrl, requiredScopes: [SCOPE, ADMIN_SCOPE] });
  let auth = basic;
  const metadata = protectedResourceMetadataHandler(
    protectedResourceMetadata({ resource, authorizationServers: [issuer], scopesSupported: [SCOPE] }),
  );
  const requests: LoginWorld["requests"] = [];
  const serveMetadata = toNodeHandler(metadata);
  web.handle((req, res) => {
    const path = new URL(req.url ?? "/", web.origin).pathname;
    requests.push({ path, bearer: /^Bearer /.test(req.headers.authorization ?? "") });
    if (path === "/mcp") void auth(req, res).then((ok) => (ok ? handleMcp(req, res) : undefined));
    else if (path.startsWith("/.well-known/oauth-protected-resource")) void serveMetadata(req, res);
    else other(req, res);
  });
  return {
    resource,
    requests,
    requireAdmin() {
      auth = admin;
    },
    async close() {
      await endpoint.close();
      await mcp.close();
      await close(web.server);
    },
  };
}

/** The authorization server and the MCP server; `registration: false` turns dynamic registration off. */
export async function startLoginWorld(options: { registration?: boolean } = {}): Promise<LoginWorld> {
  const web = await listen("127.0.0.1");
  const as = await startMcpLoginServer(`${web.origin}/mcp`, undefined, options);
  const mcp = new McpServer({ name: "login-test", version: "1.0.0", title: "Login test" });
  mcp.registerTool("whoami", { description: "Who the bearer token says you are." }, async (_args, ctx) => ({
    content: [{ type: "text", text: `${ctx.authInfo?.subject}` }],
  }));
  const served = serveProtected(web, as.issuer, mcp);
  return {
    issuer: as.issuer,
    resource: served.resource,
    requests: served.requests,
    requireAdmin: served.requireAdmin,
    async close() {
      await served.close();
      await as.close();
    },
  };
}
