/**
 * `startLocalConnect`: hand-offs for a server on the user's own machine (stdio, or HTTP on
 * loopback), with no authorization server. The connect page listens on 127.0.0.1; each hand-off
 * link carries a one-time token bound to its interaction and MCP session; the first browser to
 * open it claims it. See docs/threat-model.md for what this defends and what it does not.
 */
import { randomBytes } from "node:crypto";
import { userInfo } from "node:os";
import { InteractionManager } from "../../interaction/server/index.js";
import { type Logger, stderrLogger } from "../../jsonrpc/logger.js";
import type { UserRef } from "../../model/identity.js";
import type { InteractionService } from "../../server/index.js";
import { InProcessMessageBus } from "../../stores/in-process-message-bus.js";
import { MemoryCredentialVault } from "../../stores/memory-credential-vault.js";
import { MemoryInteractionStore } from "../../stores/memory-interaction-store.js";
import type { AuditLog, CredentialVault } from "../../stores/types.js";
import type { SecretDestination } from "../destination.js";
import type { PageBranding, PageServerInfo } from "../templates/index.js";
import { withCredentials } from "../with-credentials.js";
import { LocalCredentials } from "./credentials.js";
import { createLocalConnectHandler } from "./handler.js";
import { listenLocal } from "./listen.js";

export { LocalCredentials, type LocalCredentialsOptions } from "./credentials.js";
export { createLocalConnectHandler, type LocalConnectHandlerOptions } from "./handler.js";
export { isLoopbackHost } from "./host.js";

export interface LocalConnectOptions {
  /**
   * Where secrets are kept, for `user`. Default: in this process's memory, encrypted under a key
   * made at start, so a secret lasts as long as the server process.
   */
  vault?: CredentialVault;
  /**
   * Keeps the interactions. Default: in memory, taking every request without authorization to be
   * `user`. One given here must do the same (`unsafeLocalUser`), or requests have no user.
   */
  manager?: InteractionManager;
  /** Who the person at this machine is; default `{ issuer: "local", subject: <OS user name> }`. */
  user?: UserRef;
  /** The loopback address to listen at: `127.0.0.1` (default) or `::1`. */
  host?: "127.0.0.1" | "::1";
  /** Default 0: a free port. */
  port?: number;
  /** ms a link stays open (the default manager's interactions); default 600,000 (10 minutes). */
  ttlMs?: number;
  /** ms since the epoch; default `Date.now`. */
  now?: () => number;
  /**
   * The MCP server the pages speak for, as its `serverInfo` names it (pass the object given to
   * `McpServer`): its `title` or `name` is on every page. Default "This server".
   */
  serverInfo?: PageServerInfo;
  /** The operator's branding of the pages (name, `data:` logo, accent colour): see `createPageTheme`. */
  branding?: PageBranding;
  /**
   * Told why a page failed (the store or the vault, a page that threw), as
   * `logger.error({ err }, message)`; a pino logger can be passed as it is. Default
   * `stderrLogger()`, never stdout: a local server is usually a stdio one.
   */
  logger?: Logger;
  /**
   * Each secret's API hosts, header and label for `ctx.credentials.fetch`, e.g. `{ weather: {
   * hosts: ["api.weather.example"], header: "X-Api-Key", label: "Weather API key" } }`.
   */
  secrets?: Readonly<Record<string, SecretDestination>>;
  /**
   * Where each hand-off step, each stored secret and each use by `ctx.credentials.fetch` is
   * recorded (`docs/audit.md`), by the default manager, the pages and the credentials (a
   * `manager` given here records only if it was given the log too); default none.
   */
  audit?: AuditLog;
  /**
   * Development only: lets `ctx.credentials.fetch` send a secret over plain http to a listed
   * loopback API host (a local stand-in for the API). Default false: https only.
   */
  unsafeHttpLoopbackForDevelopment?: boolean;
}

export interface LocalConnect {
  /** Give it to `McpServer` as its `interactions` option: `ctx.credentials.require` then works. */
  readonly interactions: InteractionService;
  readonly manager: InteractionManager;
  readonly vault: CredentialVault;
  /** Where the pages are, e.g. `http://127.0.0.1:53124`. */
  readonly origin: string;
  /** Stops the pages and the default manager's sweep. */
  close(): Promise<void>;
}

function osUser(): string {
  try {
    return userInfo().username || "local-user";
  } catch {
    return "local-user";
  }
}

/**
 * Starts the local connect pages and returns the `interactions` for `McpServer`. Nothing keeps
 * the process alive: a stdio server still exits when its client closes stdin.
 * @throws RangeError when `host` is not a loopback address or `branding` is invalid (see
 *   `createPageTheme`); Error when it cannot listen there.
 */
export async function startLocalConnect(options: LocalConnectOptions = {}): Promise<LocalConnect> {
  const host = options.host ?? "127.0.0.1";
  if (host !== "127.0.0.1" && host !== "::1") throw new RangeError("The local connect pages listen on loopback only");
  const now = options.now ?? Date.now;
  const ownManager = options.manager === undefined;
  const manager =
    options.manager ??
    new InteractionManager({
      store: new MemoryInteractionStore({ now }),
      bus: new InProcessMessageBus(),
      now,
      ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
      unsafeLocalUser: options.user ?? { issuer: "local", subject: osUser() },
      ...(options.audit === undefined ? {} : { audit: options.audit }),
    });
  const vault =
    options.vault ?? new MemoryCredentialVault({ encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } });
  const logger = options.logger ?? stderrLogger();
  const listener = await listenLocal(
    (port) =>
      createLocalConnectHandler({
        manager,
        vault,
        port,
        now,
        logger,
        ...(options.audit === undefined ? {} : { audit: options.audit }),
        ...(options.serverInfo === undefined ? {} : { serverInfo: options.serverInfo }),
        ...(options.branding === undefined ? {} : { branding: options.branding }),
      }),
    { host, logger, ...(options.port === undefined ? {} : { port: options.port }) },
  );
  const credentials = new LocalCredentials({
    service: manager,
    vault,
    origin: listener.origin,
    logger,
    now,
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
    ...(options.unsafeHttpLoopbackForDevelopment === true ? { unsafeHttpLoopbackForDevelopment: true } : {}),
  });
  return {
    interactions: withCredentials(manager, credentials, { now }),
    manager,
    vault,
    origin: listener.origin,
    close: async () => {
      await listener.close();
      if (ownManager) await manager.close();
    },
  };
}
