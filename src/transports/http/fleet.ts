/**
 * Several instances of one Streamable HTTP endpoint serving the same 2025-era sessions
 * (`StreamableHttpServerOptions.fleet`): the session directory says what each session agreed, the
 * shared event store holds what the server sends, and the bus tells the instances what changed.
 * A request for a session this instance does not hold is served by a replica made from the
 * directory's record (spec 2025-11-25: basic/transports § Session Management).
 */
import { randomBytes } from "node:crypto";
import type { MessageBus } from "../../model/bus.js";
import { MAX_TIMER_MS } from "./constants.js";
import type { EventStore } from "./event-store.js";
import { FleetLink, type FleetShared, type LinkHooks } from "./fleet-link.js";
import type { SessionDirectory, SessionRecord } from "./session-directory.js";

/** `StreamableHttpServerOptions.fleet`. */
export interface FleetOptions {
  /** Where every instance finds each session's negotiated state (shared: Redis for a fleet). */
  sessions: SessionDirectory;
  /** Carries what one instance tells the others about a session (shared: Redis pub/sub for a fleet). */
  bus: MessageBus;
  /** Prefix of the bus channels, one per session; default `mcp-handoff:sessions:`. */
  channelPrefix?: string;
}

/** The default `FleetOptions.channelPrefix`. */
export const DEFAULT_FLEET_CHANNEL_PREFIX = "mcp-handoff:sessions:";

/** The server's side of the fleet: who this instance is, and what every replica of it shares. */
export class Fleet implements FleetShared {
  /** This instance's id on the bus and in the ids of its requests to clients; random, 16 characters. */
  readonly instance = randomBytes(12).toString("base64url");
  readonly directory: SessionDirectory;
  readonly bus: MessageBus;
  readonly store: EventStore;
  /** ms a record lives after its last touch: a quarter more than the idle timeout. */
  readonly ttlMs: number;
  /** ms between two touches of one session's record by one replica. */
  readonly touchEveryMs: number;
  readonly report: (error: Error) => void;
  readonly #prefix: string;
  readonly #replicate: (sessionId: string) => Promise<boolean>;

  /**
   * @param idleTimeoutMs the server's `sessionIdleTimeoutMs` (Infinity: records live for the
   *   longest timer, 2,147,483,647 ms, after their last touch).
   * @param replicate the server's: makes a replica of a session held elsewhere (`FleetSessions`).
   */
  constructor(
    options: FleetOptions,
    store: EventStore,
    idleTimeoutMs: number,
    report: (error: Error) => void,
    replicate: (sessionId: string) => Promise<boolean>,
  ) {
    this.#replicate = replicate;
    this.directory = options.sessions;
    this.bus = options.bus;
    this.store = store;
    this.#prefix = options.channelPrefix ?? DEFAULT_FLEET_CHANNEL_PREFIX;
    const idle = Math.min(idleTimeoutMs, MAX_TIMER_MS);
    // Touches are a quarter of the idle time apart, so a record outlives the last activity by at
    // least the idle timeout, and a busy session costs one write per quarter, not one per request.
    this.touchEveryMs = Math.ceil(idle / 4);
    this.ttlMs = Math.min(idle + this.touchEveryMs, MAX_TIMER_MS);
    this.report = report;
  }

  replicate(sessionId: string): Promise<boolean> {
    return this.#replicate(sessionId);
  }

  async subscribedTo(uri: string): Promise<readonly string[] | undefined> {
    try {
      return await this.directory.subscribedTo?.(uri);
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      this.report(new Error(`Could not find the sessions subscribed to a resource: ${cause.message}`, { cause }));
      return undefined;
    }
  }

  /** The bus channel of session `sessionId`. */
  channel(sessionId: string): string {
    return `${this.#prefix}${sessionId}`;
  }

  /** The link of this instance's replica of `sessionId`, not yet subscribed (`FleetLink.join`). */
  link(sessionId: string, owner: string | undefined, hooks: LinkHooks, record?: SessionRecord): FleetLink {
    return new FleetLink(this, sessionId, owner, hooks, record?.streamStart);
  }
}
