import { randomBytes } from "node:crypto";
import { CredentialBroker, createConnectHandler, withCredentials } from "mcp-handoff/connect";
import { InteractionManager } from "mcp-handoff/interaction";
import { McpServer } from "mcp-handoff/server";
import { InProcessMessageBus, MemoryInteractionStore, SqliteCredentialVault } from "mcp-handoff/stores";

const env = process.env;
const baseUrl = env.BASE_URL ?? "https://mcp.example.com";
const github = {
  issuer: env.GITHUB_ISSUER ?? "https://github.example.com",
  clientId: env.GITHUB_CLIENT_ID ?? "mcp-example",
  clientSecret: env.GITHUB_CLIENT_SECRET ?? "…",
};

const manager = new InteractionManager({ store: new MemoryInteractionStore(), bus: new InProcessMessageBus() });
const vault = new SqliteCredentialVault({
  filename: env.VAULT_FILE ?? "credentials.db",
  encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" }, // load the key from your secret store
});
const broker = new CredentialBroker({ service: manager, vault, baseUrl, providers: { github } });

export const server = new McpServer(
  { name: "repos", version: "1.0.0" },
  { interactions: withCredentials(manager, broker) },
);

server.registerTool("list_repos", { description: "Your GitHub repositories" }, async (_args, ctx) => {
  // A stored token for this user, renewed when it expires; otherwise the user is handed off to
  // ${baseUrl}/connect/<id>, and the client retries this call once the grant is stored.
  const credential = await ctx.credentials.require("github", { scopes: ["repo"] });
  const response = await fetch(env.GITHUB_API ?? "https://api.github.example.com/user/repos", {
    headers: { authorization: `Bearer ${credential.secret}` },
  });
  return { content: [{ type: "text", text: await response.text() }] };
});

// Mount beside the MCP endpoint: it logs the browser's user in at the MCP authorization server,
// refuses anyone but the user the hand-off was made for, and runs the GitHub grant.
export const connectPages = createConnectHandler({
  manager,
  vault,
  baseUrl,
  login: {
    issuer: env.MCP_ISSUER ?? "https://auth.mcp.example.com",
    clientId: "connect-pages",
    redirectPath: "/connect/login",
  },
  providers: { github },
  cookieSecret: randomBytes(32),
});
