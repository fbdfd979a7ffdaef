import {
  createBearerVerifier,
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
  withBearerAuth,
} from "mcp-handoff/auth";
import { CredentialBroker, createConnectHandler, withCredentials } from "mcp-handoff/connect";
import { StreamableHttpServer } from "mcp-handoff/http";
import { InteractionManager } from "mcp-handoff/interaction";
import { McpServer } from "mcp-handoff/server";
import { InProcessMessageBus, SqliteCredentialVault, SqliteInteractionStore } from "mcp-handoff/stores";

const env = process.env;
/** 32 random bytes, base64, from the environment (`openssl rand -base64 32`): the same on every instance. */
function secret(name: string): Buffer {
  const bytes = Buffer.from(env[name] ?? "", "base64");
  if (bytes.length < 32) throw new Error(`Set ${name} to 32 random bytes in base64`);
  return bytes;
}
const baseUrl = env.BASE_URL ?? "https://mcp.example.com"; // where this app is served
const resource = `${baseUrl}/mcp`; // the MCP endpoint, as clients name it
const issuer = env.MCP_ISSUER ?? "https://auth.mcp.example.com"; // the MCP authorization server
const scopes = ["mcp:tools"]; // what a client's access token must grant
const reposApi = new URL(env.GITHUB_API ?? "https://api.github.example.com/user/repos");
// The third party whose grant the tool needs; register `${baseUrl}/connect/callback/github` there.
const github = {
  issuer: env.GITHUB_ISSUER ?? "https://github.example.com",
  clientId: env.GITHUB_CLIENT_ID ?? "mcp-example",
  clientSecret: env.GITHUB_CLIENT_SECRET ?? "…",
  apiHosts: [reposApi.host], // the only hosts its tokens are ever sent to
};

// Hand-offs waiting for their user, and the grants users made (AES-256-GCM), in files every instance
// opens; the bus tells a waiting request that its hand-off completed (this one: within one process).
const manager = new InteractionManager({
  store: new SqliteInteractionStore({ filename: env.INTERACTIONS_FILE ?? "interactions.db" }),
  bus: new InProcessMessageBus(),
});
const vault = new SqliteCredentialVault({
  filename: env.VAULT_FILE ?? "credentials.db",
  encryption: { keys: { k1: secret("VAULT_KEY") }, currentKeyId: "k1" },
});
const broker = new CredentialBroker({
  service: manager,
  vault,
  baseUrl,
  providers: { github },
  // Development only: lets a stand-in API on this machine be plain http (https everywhere else).
  unsafeHttpLoopbackForDevelopment: reposApi.protocol === "http:",
});

const server = new McpServer(
  { name: "repos", version: "1.0.0" },
  // requestStateSecret seals the `requestState` of a 2026-07-28 hand-off: the retry may reach any instance.
  { interactions: withCredentials(manager, broker), requestStateSecret: secret("REQUEST_STATE_SECRET") },
);
server.registerTool("list_repos", { description: "Your GitHub repositories" }, async (_args, ctx) => {
  // Sent with this user's token, renewed when it expires, to a host in `apiHosts` only; without a
  // grant the user is handed off to ${baseUrl}/connect/<id>, and the client retries once it is stored.
  const response = await ctx.credentials.fetch("github", reposApi, { credential: { scopes: ["repo"] } });
  return { content: [{ type: "text", text: await response.text() }] };
});

const endpoint = new StreamableHttpServer({
  onsession: (transport) => server.connect(transport), // 2025-11-25 and older
  onrequest: (transport) => server.connect(transport), // 2026-07-28
});
// Only requests with an access token of the MCP authorization server for this resource get in.
const mcp = withBearerAuth(
  (request, extra) => endpoint.handle(request, extra),
  createBearerVerifier({ issuer, audience: resource, requiredScopes: scopes }),
  { resourceMetadataUrl: protectedResourceMetadataUrl(resource) },
);
// RFC 9728: where a client without a token learns to log in.
const metadata = protectedResourceMetadataHandler(
  protectedResourceMetadata({ resource, authorizationServers: [issuer], scopesSupported: scopes }),
);
// The page the user is handed off to: a login at the MCP authorization server (register
// `${baseUrl}/connect/login` there), proof that it is the user the hand-off is for, the GitHub grant.
const connectPages = createConnectHandler({
  manager,
  vault,
  baseUrl,
  login: { issuer, clientId: env.CONNECT_CLIENT_ID ?? "connect-pages", redirectPath: "/connect/login" },
  providers: { github },
  cookieSecret: secret("COOKIE_SECRET"),
});

/** The whole app as one web-standard handler: `export default` for hosts that call `fetch(request)`. */
export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === "/mcp") return mcp(request);
    if (pathname.startsWith("/.well-known/oauth-protected-resource")) return metadata(request);
    if (pathname.startsWith("/connect/")) return connectPages(request);
    return new Response("Not found", { status: 404 });
  },
};
