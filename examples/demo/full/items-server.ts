/**
 * The full demo's MCP server on 127.0.0.1: `/mcp` (Streamable HTTP) accepts only bearer tokens
 * of the MCP authorization server issued for it; `/connect/*` are the connect pages; its tool
 * `list_items` reads the caller's items from the third-party API with the caller's own grant,
 * which `ctx.credentials.require` finds in the encrypted vault or obtains through a hand-off. The
 * user sees and disconnects their connections at `/connect/connections`, or through the tools
 * `connections_list` and `connections_disconnect`.
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
import {
  CredentialBroker,
  createConnectHandler,
  type GrantStateStore,
  inboxUrlFor,
  registerConnectionTools,
  withCredentials,
} from "../../../src/connect/index.js";
import { InteractionManager } from "../../../src/interaction/server/index.js";
import type { UserRef } from "../../../src/model/identity.js";
import type { StoredCredential } from "../../../src/model/interaction.js";
import { consoleLogger, McpServer } from "../../../src/server/index.js";
import {
  type AuditLog,
  type CredentialVault,
  type ExpiringNotes,
  InProcessMessageBus,
  type InteractionStore,
  type KeyedLock,
  MemoryCredentialVault,
  MemoryInteractionStore,
  type MessageBus,
} from "../../../src/stores/index.js";
import {
  type EventStore,
  type SessionDirectory,
  StreamableHttpServer,
  toNodeHandler,
} from "../../../src/transports/http/index.js";
import type { listen } from "./authorization-servers.js";
import { CONNECT_CLIENT, MCP_SCOPE } from "./mcp-authorization-server.js";

/**
 * What the instances of a fleet share (the fleet demo passes Redis and PostgreSQL engines); without
 * it one instance keeps everything in memory.
 */
export interface SharedStores {
  interactions: InteractionStore;
  bus: MessageBus;
  vault: CredentialVault;
  grantStates: GrantStateStore;
  locks: KeyedLock;
  notes: ExpiringNotes;
  eventStore: EventStore;
  sessions: SessionDirectory;
  /** 2026-07-28 `requestState` keys, the same list on every instance: the first seals, all open. */
  requestStateKeys: readonly Uint8Array[];
  /** Seals the connect pages' cookie: the same secret on every instance (at least 32 bytes). */
  cookieSecret: Uint8Array;
}

export interface ItemsServerConfig {
  /**
   * The already listening `node:http` server of this origin (see `listen`): its public origin
   * (behind a load balancer, the balancer's) and where to mount the handler.
   */
  web: Pick<Awaited<ReturnType<typeof listen>>, "origin" | "handle">;
  /** Stores shared with other instances; default: this instance's own, in memory. */
  shared?: SharedStores;
  mcpIssuer: string;
  thirdParty: { issuer: string; clientId: string; clientSecret: string };
  say(line: string): void;
  /**
   * Whether `list_items` waits inside the call while the user connects (the server asks during
   * the request: `elicitation/create` or `interaction/create`) instead of failing with a hand-off
   * error for the client to retry (-32042 or -32003). Default false.
   */
  waitInRequest?: boolean;
  /** Turns on the hand-off ladder's inbox, `/connect/inbox`, for clients that can open no page. Default false. */
  inbox?: boolean;
  /** Where the hand-off steps, grants and refreshes are recorded (`docs/audit.md`); default none. */
  audit?: AuditLog;
}

/** A key as the text that could quote it: base64, base64url and hex. */
function spellingsOf(key: Uint8Array): string[] {
  const bytes = Buffer.from(key);
  return [bytes.toString("base64"), bytes.toString("base64url"), bytes.toString("hex")];
}

/** A vault that says when it stores a grant (never what): the step a newcomer wants to see. */
function tellingVault(vault: CredentialVault, say: (line: string) => void): CredentialVault {
  return {
    get: (user, provider) => vault.get(user, provider),
    delete: (user, provider) => vault.delete(user, provider),
    list: (user) => vault.list?.(user) ?? Promise.resolve([]),
    markUsed: (user, provider, at) => vault.markUsed?.(user, provider, at) ?? Promise.resolve(),
    async put(user: UserRef, credential: StoredCredential): Promise<void> {
      await vault.put(user, credential);
      say(`server   the callback stored ${user.subject}'s "${credential.provider}" token in the encrypted vault`);
    },
  };
}

/** Mounts everything on `config.web`; resolves with the MCP endpoint and a `close`. */
export function startItemsServer(config: ItemsServerConfig): {
  resource: string;
  /** The third-party token stored for `subject`, for the demo's own check that the client never saw it. */
  storedSecret(subject: string): Promise<string | undefined>;
  /**
   * Every secret this server holds or was given, for checks that none appears where it must not:
   * its keys (as base64, base64url and hex), its client secrets, and the tokens stored for `subjects`.
   */
  secretsUsed(subjects: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
} {
  const { web, mcpIssuer, thirdParty, say, waitInRequest, shared, audit } = config;
  const resource = `${web.origin}/mcp`;
  const logged = audit === undefined ? {} : { audit };
  const bus = shared?.bus ?? new InProcessMessageBus();
  const manager = new InteractionManager({
    store: shared?.interactions ?? new MemoryInteractionStore(),
    bus,
    ...logged,
  });
  const vaultKey = randomBytes(32);
  const cookieSecret = shared?.cookieSecret ?? randomBytes(32);
  const vault = tellingVault(
    shared?.vault ?? new MemoryCredentialVault({ encryption: { keys: { k1: vaultKey }, currentKeyId: "k1" } }),
    say,
  );
  // The token goes to the third party's API host only (ctx.credentials.fetch checks every request).
  const providers = { items: { ...thirdParty, apiHosts: [new URL(thirdParty.issuer).host] } };
  const broker = new CredentialBroker({
    service: manager,
    vault,
    baseUrl: web.origin,
    providers,
    // A disconnect on any instance is heard on every one.
    bus,
    // The demo's third party is plain http on 127.0.0.1; a deployed server never sets this.
    unsafeHttpLoopbackForDevelopment: true,
    ...(shared === undefined ? {} : { locks: shared.locks, notes: shared.notes }),
    ...logged,
  });
  const serverInfo = { name: "items-demo", version: "1.0.0", title: "Items (demo)" };
  const connect = createConnectHandler({
    serverInfo,
    manager,
    vault,
    baseUrl: web.origin,
    login: { issuer: mcpIssuer, ...CONNECT_CLIENT, redirectPath: "/connect/login" },
    providers,
    cookieSecret,
    ...(shared === undefined ? {} : { states: shared.grantStates }),
    // `/connect/connections`: the signed-in user's connections, each with a Disconnect button.
    connections: broker,
    logger: { ...consoleLogger(), error: (_fields, message) => say(`server   connect pages: ${message}`) },
    ...logged,
  });

  const mcp = new McpServer(serverInfo, {
    // In a fleet a decline on the page is noted where the retry's instance reads it.
    interactions: withCredentials(manager, broker, shared === undefined ? {} : { declines: shared.notes }),
    ...(shared === undefined ? {} : { requestStateKeys: shared.requestStateKeys }),
    ...(config.inbox === true ? { handoffs: { inbox: { url: inboxUrlFor(web.origin) } } } : {}),
  });
  mcp.registerTool(
    "list_items",
    {
      title: "Your items",
      description: "Your items at the third-party service.",
      inputSchema: { limit: z.number().optional() },
    },
    async ({ limit }, ctx) => {
      say(`server   list_items for ${ctx.authInfo?.subject}: asking ctx.credentials for an "items" grant`);
      // The grant is found in the vault (or obtained first) and attached here, for its API host only;
      // `openid` too, so the grant's ID token names the account on the connections page.
      const response = await ctx.credentials.fetch("items", `${thirdParty.issuer}/api/items`, {
        credential: { scopes: ["openid", "repo"], wait: waitInRequest === true },
      });
      say("server   found the grant in the vault; it went to the third-party /api/items host only");
      const items = ((await response.json()) as string[]).slice(0, limit);
      return { content: [{ type: "text", text: items.join(", ") }] };
    },
  );

  // The same list and disconnect for the model, for the caller's own user only.
  registerConnectionTools(mcp, { connections: broker, userFor: (authInfo) => manager.userFor(authInfo) });

  // One endpoint for both eras: a session per `initialize` (2025-11-25 and before), and one
  // transport per POST for 2026-07-28 clients, which send no handshake. In a fleet, a session
  // lives in the shared directory and its streams in the shared event store, so any instance
  // serves its requests and a GET stream resumes on another instance.
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
    ...(shared === undefined
      ? {}
      : { eventStore: shared.eventStore, fleet: { sessions: shared.sessions, bus: shared.bus } }),
  });
  // In a fleet, this instance delivers a hand-off completed on its connect pages into the
  // session's shared stream even when it has served none of that session's requests.
  const fleetSessions = endpoint.fleetSessions;
  if (fleetSessions !== undefined) mcp.serveFleet(fleetSessions);
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
    secretsUsed: async (subjects) => {
      const held = [...spellingsOf(cookieSecret), thirdParty.clientSecret, CONNECT_CLIENT.clientSecret];
      if (shared?.vault === undefined) held.push(...spellingsOf(vaultKey));
      for (const subject of subjects) {
        const stored = await vault.get({ issuer: mcpIssuer, subject }, "items");
        if (stored?.secret !== undefined) held.push(stored.secret);
        if (stored?.refreshToken !== undefined) held.push(stored.refreshToken);
      }
      return held;
    },
    close: async () => {
      await endpoint.close();
      await mcp.close();
      await broker.close();
      await manager.close();
    },
  };
}
