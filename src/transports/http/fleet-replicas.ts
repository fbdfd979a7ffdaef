/**
 * Fleet: the replicas one instance makes of sessions opened on another (spec 2025-11-25:
 * basic/transports § Session Management). A replica is built from the session directory's record
 * as if this instance had answered the session's `initialize`; it is made once per session, and
 * a lookup in progress is shared only by the requests of one caller, so that another caller's
 * refusal never becomes theirs.
 */
import { clock } from "./clock.js";
import { TRANSPORT_ERROR_CODE } from "./constants.js";
import type { HttpReply } from "./exchange.js";
import type { Fleet } from "./fleet.js";
import { httpError, sessionNotFound } from "./responses.js";
import type { SessionRecord } from "./session-directory.js";
import { type SessionTransportOptions, StreamableHttpSessionTransport } from "./session-transport.js";

/** What the HTTP server lends its replicas. */
export interface ReplicaHost {
  readonly fleet: Fleet;
  /** The server's open sessions by id, where a replica is kept once made. */
  readonly sessions: Map<string, StreamableHttpSessionTransport>;
  readonly transportOptions: SessionTransportOptions;
  isClosed(): boolean;
  onsession(transport: StreamableHttpSessionTransport): unknown;
  touch(transport: StreamableHttpSessionTransport): void;
  reportError(error: unknown): void;
}

export class FleetReplicas {
  /** Lookups in progress, by session id and who asked. */
  readonly #making = new Map<string, Promise<StreamableHttpSessionTransport | HttpReply>>();

  constructor(private readonly host: ReplicaHost) {}

  /**
   * The replica of `sessionId` for `who` (one caller, or the server itself): the one being made
   * for `who`, else a new lookup. 404 (as for an unknown session) when the directory does not know
   * the session or `allowed` refuses its owner, 503 when the directory fails.
   * @throws what the bus or the server's `onsession` throws while the replica joins the fleet.
   */
  replicaOf(
    sessionId: string,
    who: string,
    allowed: (owner: string | undefined) => boolean,
  ): Promise<StreamableHttpSessionTransport | HttpReply> {
    const key = JSON.stringify([sessionId, who]);
    let making = this.#making.get(key);
    if (making === undefined) {
      making = this.#make(sessionId, allowed).finally(() => this.#making.delete(key));
      this.#making.set(key, making);
    }
    return making;
  }

  /**
   * `FleetSessions.replicate`: serves session `sessionId` here for the server itself (a notice it
   * must store on the session's GET stream), whoever owns it. The session's id comes from the
   * server's own records, never from a request. @returns whether the session is served here now.
   */
  async replicate(sessionId: string): Promise<boolean> {
    const transport = this.host.sessions.get(sessionId);
    if (transport !== undefined) {
      this.host.touch(transport);
      return true;
    }
    if (this.host.isClosed()) return false;
    const made = await this.replicaOf(sessionId, "server", () => true).catch((error: unknown) => {
      this.host.reportError(error);
      return undefined;
    });
    return made instanceof StreamableHttpSessionTransport;
  }

  async #make(
    sessionId: string,
    allowed: (owner: string | undefined) => boolean,
  ): Promise<StreamableHttpSessionTransport | HttpReply> {
    const { fleet, sessions } = this.host;
    let record: SessionRecord | undefined;
    try {
      record = await fleet.directory.get(sessionId);
    } catch (error) {
      this.host.reportError(error);
      return httpError(503, TRANSPORT_ERROR_CODE, "Service Unavailable: the session directory did not answer; retry");
    }
    // Another caller's session is answered as unknown, and costs no replica.
    if (record === undefined || this.host.isClosed() || !allowed(record.owner)) return sessionNotFound();
    // Made meanwhile for another caller's lookup (or the server's own): one replica per session.
    const existing = sessions.get(sessionId);
    if (existing !== undefined) return existing;
    const transport = new StreamableHttpSessionTransport(sessionId, this.host.transportOptions);
    transport.presumedHandshake = {
      protocolVersion: record.protocolVersion,
      session: {
        clientCapabilities: record.clientCapabilities,
        clientInfo: record.clientInfo,
        subscriptions: record.subscriptions,
        ...(record.logLevel === undefined ? {} : { logLevel: record.logLevel }),
      },
    };
    transport.setProtocolVersion(record.protocolVersion);
    transport.activeAt = clock();
    transport.owner = record.owner;
    sessions.set(sessionId, transport);
    try {
      await transport.joinFleet(fleet, record.owner, record.streamStart);
      await this.host.onsession(transport);
    } catch (error) {
      await transport.close();
      throw error;
    }
    return transport;
  }
}
