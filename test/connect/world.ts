/**
 * Everything the connect tests run against: the connect pages on 127.0.0.1, the MCP authorization
 * server, the third-party service with its API, an `InteractionManager` and a vault on an
 * injectable clock, and an `McpServer` whose `repos` tool lists the caller's third-party items
 * through `ctx.credentials.require`.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import {
  type AuthorizationServerConfig,
  CredentialBroker,
  createConnectHandler,
  type GrantStateStore,
  inboxUrlFor,
  withCredentials,
} from "../../src/connect/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { type Logger, McpServer } from "../../src/server/index.js";
import {
  type AuditLog,
  type CredentialVault,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";
import { toNodeHandler, type WebHandler } from "../../src/transports/http/index.js";
import { recordingLogger } from "../support/recording-logger.js";
import { close, listen, startMcpAuthorizationServer, startThirdParty } from "./authorization-servers.js";

export class Clock {
  time = Date.now();
  readonly now = () => this.time;
}

/** What a test may put into the world: the server's logger, where `state` values are kept, and who else hears reports. */
export interface WorldOptions {
  logger?: Logger;
  states?: GrantStateStore;
  report?: (message: string, error: unknown) => void;
  /** The connect pages' logger, passed to them as it is (then `report` and `reports` hear nothing). */
  pagesLogger?: Logger;
  /** Puts a handler in front of the pages, on the same `node:http` server; default none. */
  wrap?: (pages: WebHandler) => WebHandler;
  /** A path the pages are served under, e.g. `/app` (then `/app/connect/<id>`); default none. */
  prefix?: string;
  /**
   * How the third-party service (provider `github`) answers: `sendIss` as for `startThirdParty`;
   * `sharedCallback` also registers `<connect origin>/connect/callback`, one redirect URI for every provider.
   */
  thirdParty?: { sendIss?: boolean; sharedCallback?: boolean };
  /** More providers beside `github`, by name. */
  providers?: Record<string, AuthorizationServerConfig>;
  /** The vault the pages and the broker use, made around the world's own; default that one. */
  vault?: (inner: CredentialVault) => CredentialVault;
  /** The audit log the manager, the pages and the broker write to, and the connections page reads; default none. */
  audit?: AuditLog;
  /** Turns on the hand-off ladder's inbox rung, at the pages' `/connect/inbox`; default off. */
  inbox?: boolean;
}

export async function startWorld(options: WorldOptions = {}) {
  const clock = new Clock();
  const reports: string[] = [];
  const web = await listen("127.0.0.1");
  const prefix = options.prefix ?? "";
  const baseUrl = `${web.origin}${prefix}`;
  const mcpAs = await startMcpAuthorizationServer(baseUrl);
  const thirdParty = await startThirdParty(baseUrl, "github", {
    ...(options.thirdParty?.sendIss === undefined ? {} : { sendIss: options.thirdParty.sendIss }),
    alsoRedirectTo: options.thirdParty?.sharedCallback ? [`${baseUrl}/connect/callback`] : [],
  });
  const store = new MemoryInteractionStore({ now: clock.now });
  const audit = options.audit === undefined ? {} : { audit: options.audit };
  const manager = new InteractionManager({ store, bus: new InProcessMessageBus(), now: clock.now, ...audit });
  const vaultKey = randomBytes(32);
  const cookieSecret = "a cookie secret of at least thirty-two bytes";
  const inner = new MemoryCredentialVault({ encryption: { keys: { k1: vaultKey }, currentKeyId: "k1" } });
  const vault = options.vault?.(inner) ?? inner;
  const providers: Record<string, AuthorizationServerConfig> = {
    github: {
      issuer: thirdParty.issuer,
      clientId: "repo-connector",
      clientSecret: "repo-connector-secret-for-tests",
      apiHosts: [new URL(thirdParty.issuer).host],
    },
    ...options.providers,
  };
  const serverInfo = { name: "connect-test", version: "1.0.0", title: "Connect <Test>" };
  const pagesLogger =
    options.pagesLogger ??
    recordingLogger((entry) => {
      reports.push(entry.message);
      options.report?.(entry.message, entry.error);
    });
  const broker = new CredentialBroker({
    service: manager,
    vault,
    baseUrl,
    providers,
    secretLabels: { forecast: "API key" },
    now: clock.now,
    ...audit,
    // The third party listens on plain http on loopback, as a developer's stand-in would.
    unsafeHttpLoopbackForDevelopment: true,
  });
  const handler = createConnectHandler({
    serverInfo,
    manager,
    vault,
    baseUrl,
    login: {
      issuer: mcpAs.issuer,
      clientId: "mcp-connect",
      clientSecret: "mcp-connect-secret-for-tests",
      redirectPath: `${prefix}/connect/login`,
    },
    providers,
    cookieSecret,
    ...(options.states ? { states: options.states } : {}),
    now: clock.now,
    logger: pagesLogger,
    connections: broker,
    ...audit,
  });
  // Served as an operator would: the package's own node:http adapter for web-standard handlers.
  const serve = toNodeHandler(options.wrap?.(handler) ?? handler, { logger: pagesLogger });
  web.handle((req, res) => void serve(req, res));
  const server = new McpServer(serverInfo, {
    interactions: withCredentials(manager, broker),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.inbox ? { handoffs: { inbox: { url: inboxUrlFor(baseUrl) } } } : {}),
  });
  server.registerTool("repos", { inputSchema: { wait: z.boolean().optional() } }, async ({ wait }, ctx) => {
    const response = await ctx.credentials.fetch("github", `${thirdParty.issuer}/api/items`, {
      credential: { scopes: ["repo"], wait: wait === true },
    });
    return { content: [{ type: "text", text: JSON.stringify(await response.json()) }] };
  });
  server.registerTool("forecast", { inputSchema: {} }, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast");
    return { content: [{ type: "text", text: `key of length ${credential.secret.length}` }] };
  });
  return {
    clock,
    manager,
    vault,
    broker,
    server,
    /** Where the pages are served: the origin, with the prefix when there is one. */
    connectOrigin: baseUrl,
    mcpIssuer: mcpAs.issuer,
    thirdParty,
    /** What the connect handler reported, in order. */
    reports,
    /** The vault's encryption key and the cookie secret, for tests that look for them where they must not be. */
    vaultKey,
    cookieSecret,
    async close() {
      await Promise.all([close(web.server), mcpAs.close(), thirdParty.close()]);
    },
  };
}
