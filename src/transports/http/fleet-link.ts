/**
 * One instance's replica of a fleet's session and the others: the record in the session
 * directory, the session's bus channel (what was stored for its GET stream, the client's answers
 * to another instance's requests, changes, its end) and the throttled touches that keep the
 * record alive while the session is used.
 */
import { createHash } from "node:crypto";
import { SdkError } from "../../jsonrpc/errors.js";
import { isNotification, isResponse, type JsonRpcMessage } from "../../jsonrpc/messages.js";
import type { MessageBus } from "../../model/bus.js";
import type { AgreedHandshake, FleetSessions, SessionChange, SharedSession } from "../features.js";
import type { EventStore } from "./event-store.js";
import { decodeFleetMessage, encodeFleetMessage, type FleetMessage } from "./fleet-messages.js";
import type { SessionDirectory } from "./session-directory.js";

/** What every replica of one instance shares (the server's `Fleet`). */
export interface FleetShared extends FleetSessions {
  /** This instance's id on the bus and in the ids of its requests to clients. */
  readonly instance: string;
  readonly directory: SessionDirectory;
  readonly bus: MessageBus;
  readonly store: EventStore;
  /** ms a record lives after its last touch. */
  readonly ttlMs: number;
  /** ms between two touches of one session's record by one replica. */
  readonly touchEveryMs: number;
  readonly report: (error: Error) => void;
  channel(sessionId: string): string;
}

/**
 * The prefix of the ids of a session's streams in the shared event store: the same on every
 * instance, so that any of them can tell a `Last-Event-ID` of that session; derived from the
 * session id without showing it.
 */
export function streamTagOf(sessionId: string): string {
  return createHash("sha256").update(`mcp-handoff session ${sessionId}`).digest("base64url").slice(0, 22);
}

/**
 * The instance serving the POST whose stream is `streamId`, when it is a fleet's stream id of the
 * form `<stream tag>.<instance>.<uuid>` (the shared GET stream's, `<stream tag>.standalone`, is not).
 */
export function instanceOfStreamId(streamId: string): string | undefined {
  return /^[A-Za-z0-9_-]{22}\.([A-Za-z0-9_-]{16})\./.exec(streamId)?.[1];
}

/** The instance whose request `id` answers, when `id` is a fleet id of the form `<instance>~<n>`. */
export function instanceOfRequestId(id: unknown): string | undefined {
  if (typeof id !== "string") return undefined;
  const match = /^([A-Za-z0-9_-]{16})~\d+$/.exec(id);
  return match?.[1];
}

/** What the replica's transport does when the other instances tell it something. */
export interface LinkHooks {
  /** Events were stored for the GET stream: write what this instance holds of it. */
  stored(): void;
  /** Events were stored on a POST's stream `streamId` that this replica follows: write them. */
  streamStored(streamId: string): void;
  /** A POST's stream `streamId` served here is followed elsewhere: tell what is stored on it, and its end. */
  following(streamId: string): void;
  /** A POST's stream `streamId` that this replica follows got every response: end its connection. */
  streamEnded(streamId: string): void;
  /** Hand the client's message to this replica's protocol layer. */
  forwarded(message: JsonRpcMessage): void;
  /** A GET stream opened elsewhere: end the one held here. */
  listeningElsewhere(): void;
  /** The session ended everywhere: close the replica. */
  ended(): void;
}

export class FleetLink implements SharedSession {
  onchange: ((change: SessionChange) => void) | undefined;
  onlisten: (() => void) | undefined;
  readonly requestIdPrefix: string;
  /** Prefix of the session's stream ids in the event store, the same on every instance. */
  readonly streamTag: string;
  /** This instance's id, in the ids of the streams of the POSTs it serves. */
  readonly instance: string;
  readonly fleet: FleetSessions;
  #unsubscribe: Promise<() => Promise<void>> | undefined;
  #touchedAt: number;
  #left = false;

  /** @param streamStart the record's `streamStart` (see `SessionRecord`), when adopting. */
  constructor(
    private readonly here: FleetShared,
    readonly sessionId: string,
    private readonly owner: string | undefined,
    private readonly hooks: LinkHooks,
    public streamStart: string | undefined,
  ) {
    this.requestIdPrefix = `${here.instance}~`;
    this.streamTag = streamTagOf(sessionId);
    this.fleet = here;
    this.instance = here.instance;
    this.#touchedAt = Date.now();
  }

  /** The id of the session's GET stream in the shared event store. */
  get standaloneStreamId(): string {
    return `${this.streamTag}.standalone`;
  }

  /**
   * Subscribes to the session's channel; call before the replica serves anything.
   * @throws what the bus throws (SdkError "STORE_UNAVAILABLE" for a shared one that is down).
   */
  async join(): Promise<void> {
    this.#unsubscribe = this.here.bus.subscribe(this.here.channel(this.sessionId), (text) => this.#receive(text));
    await this.#unsubscribe;
  }

  /** Unsubscribes; the record stays for the other instances. */
  async leave(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    const unsubscribe = await this.#unsubscribe?.catch(() => undefined);
    await unsubscribe?.().catch((error: unknown) => this.#report("Could not leave a session's bus channel", error));
  }

  async agreed(handshake: AgreedHandshake): Promise<void> {
    const fleet = this.here;
    this.streamStart = await fleet.store.primingEventId(this.standaloneStreamId);
    await fleet.directory.put(
      this.sessionId,
      {
        protocolVersion: handshake.protocolVersion,
        clientCapabilities: { ...handshake.clientCapabilities },
        clientInfo: { ...handshake.clientInfo },
        subscriptions: [],
        ...(this.owner === undefined ? {} : { owner: this.owner }),
        streamStart: this.streamStart,
      },
      fleet.ttlMs,
    );
    this.#touchedAt = Date.now();
  }

  /** @throws SdkError "CONNECTION_CLOSED" when the session ended elsewhere; what the directory or bus throws. */
  async changed(change: SessionChange): Promise<void> {
    const known = await this.here.directory.update(this.sessionId, change);
    if (!known) {
      this.hooks.ended();
      throw new SdkError("CONNECTION_CLOSED", "The session ended on another instance");
    }
    await this.#publish({ v: 1, from: this.here.instance, kind: "change", change });
  }

  /** Tells the instance holding the GET stream that events were stored for it; a failure is reported. */
  announceStored(): Promise<void> {
    return this.#publish({ v: 1, from: this.here.instance, kind: "stored" }).catch((error: unknown) =>
      this.#report("Could not announce a message stored for a session's GET stream", error),
    );
  }

  /** Tells the followers of stream `streamId` of a POST served here that events were stored on it. */
  announceStreamStored(streamId: string): Promise<void> {
    return this.#publish({ v: 1, from: this.here.instance, kind: "stored", stream: streamId }).catch((error: unknown) =>
      this.#report("Could not announce a message stored for a resumed stream", error),
    );
  }

  /** Tells the followers of stream `streamId` of a POST served here that it got every response. */
  announceStreamEnd(streamId: string): Promise<void> {
    return this.#publish({ v: 1, from: this.here.instance, kind: "streamEnd", stream: streamId }).catch(
      (error: unknown) => this.#report("Could not announce the end of a resumed stream", error),
    );
  }

  /** The client resumed here stream `streamId` of a POST that instance `to` serves. */
  follow(to: string, streamId: string): Promise<void> {
    return this.#publish({ v: 1, from: this.here.instance, kind: "following", to, stream: streamId }).catch(
      (error: unknown) => this.#report("Could not follow a resumed stream", error),
    );
  }

  /** A GET stream opened here: the others end theirs, and the protocol layer hears completions here. */
  listening(): void {
    this.onlisten?.();
    this.#publish({ v: 1, from: this.here.instance, kind: "listening" }).catch((error: unknown) =>
      this.#report("Could not announce a session's new GET stream", error),
    );
  }

  /**
   * The messages of a POST that this replica serves itself; the client's answers to (and progress
   * on) another instance's requests go to that instance, and a cancellation to every instance too.
   */
  route(messages: readonly JsonRpcMessage[]): JsonRpcMessage[] {
    const local: JsonRpcMessage[] = [];
    for (const message of messages) {
      const to = this.#recipientOf(message);
      if (to !== undefined && to !== this.here.instance) {
        this.#forward(message, to);
        continue;
      }
      if (isNotification(message) && message.method === "notifications/cancelled") this.#forward(message, undefined);
      local.push(message);
    }
    return local;
  }

  /**
   * Ends the session everywhere: the record goes, and every replica closes.
   * @throws what the directory throws.
   */
  async end(): Promise<void> {
    await this.here.directory.delete(this.sessionId);
    await this.#publish({ v: 1, from: this.here.instance, kind: "ended" }).catch((error: unknown) =>
      this.#report("Could not announce a session's end", error),
    );
  }

  /**
   * Keeps the record alive for the session's activity, at most once per `touchEveryMs`. A record
   * gone meanwhile (expired, or deleted by an instance whose message was lost) closes the replica.
   */
  touch(now: number): void {
    if (now - this.#touchedAt < this.here.touchEveryMs) return;
    this.#touchedAt = now;
    this.here.directory.touch(this.sessionId, this.here.ttlMs).then(
      (known) => {
        if (!known) this.hooks.ended();
      },
      (error: unknown) => this.#report("Could not keep a session's record alive", error),
    );
  }

  #recipientOf(message: JsonRpcMessage): string | undefined {
    if (isResponse(message)) return instanceOfRequestId(message.id);
    if (isNotification(message) && message.method === "notifications/progress") {
      return instanceOfRequestId(message.params?.progressToken);
    }
    return undefined;
  }

  #forward(message: JsonRpcMessage, to: string | undefined): void {
    const from = this.here.instance;
    const sent: FleetMessage =
      to === undefined ? { v: 1, from, kind: "forward", message } : { v: 1, from, kind: "forward", to, message };
    this.#publish(sent).catch((error: unknown) => this.#report("Could not pass a client's message on", error));
  }

  #publish(message: FleetMessage): Promise<void> {
    return this.here.bus.publish(this.here.channel(this.sessionId), encodeFleetMessage(message));
  }

  #receive(text: string): void {
    const message = decodeFleetMessage(text);
    if ("invalid" in message) {
      this.#report("Ignored a malformed message on a session's bus channel", new Error(message.invalid));
      return;
    }
    if (message.from === this.here.instance) return;
    // A stream id names its session: one of another session's is never acted on.
    if ("stream" in message && message.stream !== undefined && !message.stream.startsWith(`${this.streamTag}.`)) {
      this.#report("Ignored a stream of another session on a session's bus channel", new Error(message.kind));
      return;
    }
    switch (message.kind) {
      case "stored":
        if (message.stream === undefined) this.hooks.stored();
        else this.hooks.streamStored(message.stream);
        return;
      case "following":
        if (message.to === this.here.instance) this.hooks.following(message.stream);
        return;
      case "streamEnd":
        this.hooks.streamEnded(message.stream);
        return;
      case "listening":
        this.hooks.listeningElsewhere();
        return;
      case "ended":
        this.hooks.ended();
        return;
      case "change":
        this.onchange?.(message.change);
        return;
      case "forward":
        if (message.to === undefined || message.to === this.here.instance) this.hooks.forwarded(message.message);
    }
  }

  #report(what: string, error: unknown): void {
    const cause = error instanceof Error ? error : new Error(String(error));
    this.here.report(new Error(`${what}: ${cause.message}`, { cause }));
  }
}
