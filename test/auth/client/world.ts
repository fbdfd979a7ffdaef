/**
 * A real authorization server (`oidc-provider` on 127.0.0.1, development login pages: any login
 * name is an account) that knows a native client with a loopback redirect on any port and also
 * registers clients dynamically; and an MCP server behind bearer authentication whose tool
 * `whoami` names the caller. Access tokens are JWTs for the MCP server (RFC 8707) and come with
 * refresh tokens.
 */
import Provider from "oidc-provider";
import { close, listen } from "../../../examples/demo/full/authorization-servers.js";
import { serveWeb } from "../../../examples/demo/full/node-web.js";
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

export interface LoginWorld {
  issuer: string;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  resource: string;
  /** Paths the MCP server was asked for, with whether a bearer token came along. */
  requests: { path: string; bearer: boolean }[];
  close(): Promise<void>;
}

export async function startLoginWorld(): Promise<LoginWorld> {
  const web = await listen("127.0.0.1");
  const resource = `${web.origin}/mcp`;
  const as = await listen("127.0.0.1");
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
    ],
    scopes: ["openid", "offline_access"],
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 3600, RefreshToken: 86_400, IdToken: 3600 },
    cookies: { keys: ["login-test-cookie-key-0123456789abcdef"] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new Error("unknown resource");
          return { scope: SCOPE, audience: resource, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
        },
      },
    },
  });
  as.handle(provider.callback());

  const mcp = new McpServer({ name: "login-test", version: "1.0.0", title: "Login test" });
  mcp.registerTool("whoami", { description: "Who the bearer token says you are." }, async (_args, ctx) => ({
    content: [{ type: "text", text: `${ctx.authInfo?.subject}` }],
  }));
  const endpoint = new StreamableHttpServer({ onsession: (transport) => void mcp.connect(transport) });
  const handleMcp = toNodeHandler(endpoint);
  const verifier = createBearerVerifier({ issuer: as.origin, audience: resource, jwksUri: `${as.origin}/jwks` });
  const auth = nodeBearerAuth(verifier, {
    resourceMetadataUrl: protectedResourceMetadataUrl(resource),
    requiredScopes: [SCOPE],
  });
  const metadata = protectedResourceMetadataHandler(
    protectedResourceMetadata({ resource, authorizationServers: [as.origin], scopesSupported: [SCOPE] }),
  );
  const requests: LoginWorld["requests"] = [];
  web.handle((req, res) => {
    const path = new URL(req.url ?? "/", web.origin).pathname;
    requests.push({ path, bearer: /^Bearer /.test(req.headers.authorization ?? "") });
    if (path === "/mcp") void auth(req, res).then((ok) => (ok ? handleMcp(req, res) : undefined));
    else if (path.startsWith("/.well-known/oauth-protected-resource")) void serveWeb(metadata, req, res, web.origin);
    else res.writeHead(404).end();
  });
  return {
    issuer: as.origin,
    resource,
    requests,
    async close() {
      await endpoint.close();
      await mcp.close();
      await Promise.all([close(web.server), close(as.server)]);
    },
  };
}
