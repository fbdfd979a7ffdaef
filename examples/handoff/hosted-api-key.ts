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
import { z } from "zod";

const env = process.env;
/** 32 random bytes, base64, from the environment (`openssl rand -base64 32`): the same on every instance. */
function secret(name: string): Buffer {
  const bytes = Buffer.from(env[name] ?? "", "base64");
  if (bytes.length < 32) throw new Error(`Set ${name} to 32 random bytes in base64`);
  return bytes;
}
const baseUrl = env.BASE_URL ?? "https://weather.example.com"; // where this app is served
const resource = `${baseUrl}/mcp`; // the MCP endpoint, as clients name it
const issuer = env.MCP_ISSUER ?? "https://auth.example.com"; // the MCP authorization server
const scopes = ["mcp:tools"]; // what a client's access token must grant
const api = new URL(env.WEATHER_API ?? "https://api.weather.example.com"); // the service the key is for

// Hand-offs waiting for their user, and the keys users saved (AES-256-GCM), in files every instance
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
  providers: {},
  // Each user's key goes in X-Api-Key to the weather service's host, and nowhere else.
  secrets: { weather: { hosts: [api.host], header: "X-Api-Key", label: "Weather API key" } },
  // Development only: lets a stand-in service on this machine be plain http (https everywhere else).
  unsafeHttpLoopbackForDevelopment: api.protocol === "http:",
});

const server = new McpServer(
  { name: "weather", version: "1.0.0" },
  // requestStateSecret seals the `requestState` of a 2026-07-28 hand-off: the retry may reach any instance.
  { interactions: withCredentials(manager, broker), requestStateSecret: secret("REQUEST_STATE_SECRET") },
);
server.registerTool(
  "forecast",
  { description: "Tomorrow's weather in a city", inputSchema: { city: z.string() } },
  async ({ city }, ctx) => {
    // Sent with the key this user typed on our page; without one, the user is handed off there first.
    const response = await ctx.credentials.fetch("weather", new URL(`/forecast?city=${encodeURIComponent(city)}`, api));
    return { content: [{ type: "text", text: await response.text() }] };
  },
);

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
// `${baseUrl}/connect/login` there), proof that it is the user the hand-off is for, the key form.
const connectPages = createConnectHandler({
  manager,
  vault,
  baseUrl,
  login: { issuer, clientId: env.CONNECT_CLIENT_ID ?? "connect-pages", redirectPath: "/connect/login" },
  providers: {},
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
