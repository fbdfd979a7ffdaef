/**
 * The full demo's MCP server on 127.0.0.1: `/mcp` (Streamable HTTP) accepts only bearer tokens
 * of the MCP authorization server issued for it; `/connect/*` are the connect pages; its tool
 * `list_items` reads the caller's items from the third-party API with the caller's own grant,
 * which `ctx.credentials.require` finds in the encrypted vault or obtains through a hand-off.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import {
  createBearerVerifier,
  nodeBearerAuth,
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
} from "../../../src/auth/index.js";
import { CredentialBroker, createConnectHandler, withCredentials } from "../../../src/connect/index.js";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import type { UserRef } from "../../../src/model/identity.js";
import type { StoredCredential } from "../../../src/model/interaction.js";
import { consoleLogger, McpServer } from "../../../src/server/index.js";
import { InProcessMessageBus, MemoryCredentialVault, MemoryInteractionStore } from "../../../src/stores/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../../src/transports/http/index.js";
import type { listen } from "./authorization-servers.js";
import { CONNECT_CLIENT, MCP_SCOPE } from "./mcp-authorization-server.js";

export interface ItemsServerConfig {
  /** The already listening `node:http` server of this origin (see `listen`), and its origin. */
  web: Awaited<ReturnType<typeof listen>>;
  mcpIssuer: string;
  thirdParty: { issuer: string; clientId: string; clientSecret: string };
  say(line: string): void;
  /**
   * Whether `list_items` waits inside the call while the user connects (the server asks during
   * the request: `elicitation/create` or `interaction/create`) instead of failing with a hand-off
   * error for the client to retry (-32042 or -32003). Default false.
   */
  waitInRequest?: boolean;
}

/** A vault that says when it stores a grant (never what): the step a newcomer wants to see. */
class TellingVault extends MemoryCredentialVault {
  constructor(private readonly say: (line: string) => void) {
    super({ encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } });
  }
  override async put(user: UserRef, credential: StoredCredential): Promise<void> {
    await super.put(user, credential);
    this.say(`server   the callback stored ${user.subject}'s "${credential.provider}" token in the encrypted vault`);
  }
}

/** Mounts everything on `config.web`; resolves with the MCP endpoint and a `close`. */
export function startItemsServer(config: ItemsServerConfig): {
  resource: string;
  /** The third-party token stored for `subject`, for the demo's own check that the client never saw it. */
  storedSecret(subject: string): Promise<string | undefined>;
  close(): Promise<void>;
} {
  const { web, mcpIssuer, thirdParty, say, waitInRequest } = config;
  const resource = `${web.origin}/mcp`;
  const manager = new InteractionManager({ store: new MemoryInteractionStore(), bus: new InProcessMessageBus() });
  const vault = new TellingVault(say);
  const providers = { items: thirdParty };
  const broker = new CredentialBroker({ service: manager, vault, baseUrl: web.origin, providers });
  const serverInfo = { name: "items-demo", version: "1.0.0", title: "Items (demo)" };
  const connect = createConnectHandler({
    serverInfo,
    manager,
    vault,
    baseUrl: web.origin,
    login: { issuer: mcpIssuer, ...CONNECT_CLIENT, redirectPath: "/connect/login" },
    providers,
    cookieSecret: randomBytes(32),
    logger: { ...consoleLogger(), error: (_fields, message) => say(`server   connect pages: ${message}`) },
  });

  const mcp = new McpServer(serverInfo, { interactions: withCredentials(manager, broker) });
  mcp.registerTool(
    "list_items",
    {
      title: "Your items",
      description: "Your items at the third-party service.",
      inputSchema: { limit: z.number().optional() },
    },
    async ({ limit }, ctx) => {
      say(`server   list_items for ${ctx.authInfo?.subject}: asking ctx.credentials for an "items" grant`);
      const credential = await ctx.credentials.require("items", { scopes: ["repo"], wait: waitInRequest === true });
      say("server   found the grant in the vault; calling the third-party /api/items with it");
      const response = await fetch(`${thirdParty.issuer}/api/items`, {
        headers: { authorization: `Bearer ${credential.secret}` },
      });
      const items = ((await response.json()) as string[]).slice(0, limit);
      return { content: [{ type: "text", text: items.join(", ") }] };
    },
  );

  // One endpoint for both eras: a session per `initialize` (2025-11-25 and before), and one
  // transport per POST for 2026-07-28 clients, which send no handshake.
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
  });
  const handleMcp = toNodeHandler(endpoint);
  const verifier = createBearerVerifier({ issuer: mcpIssuer, audience: resource, jwksUri: `${mcpIssuer}/jwks` });
  const auth = nodeBearerAuth(verifier, {
    resourceMetadataUrl: protectedResourceMetadataUrl(resource),
    requiredScopes: [MCP_SCOPE],
  });
  const metadata = protectedResourceMetadataHandler(
    protectedResourceMetadata({ resource, authorizationServers: [mcpIssuer], scopesSupported: [MCP_SCOPE] }),
  );
  const servePages = toNodeHandler(connect);
  const serveMetadata = toNodeHandler(metadata);
  web.handle((req, res) => {
    const path = new URL(req.url ?? "/", web.origin).pathname;
    if (path === "/mcp") {
      void auth(req, res).then((ok) => (ok ? handleMcp(req, res) : undefined));
    } else if (path.startsWith("/connect/")) void servePages(req, res);
    else if (path.startsWith("/.well-known/oauth-protected-resource")) void serveMetadata(req, res);
    else res.writeHead(404).end();
  });
  return {
    resource,
    storedSecret: async (subject) => (await vault.get({ issuer: mcpIssuer, subject }, "items"))?.secret,
    close: async () => {
      await endpoint.close();
      await mcp.close();
    },
  };
}
