/**
 * Storage behind SSE resumability (spec: basic/transports § Resumability and Redelivery).
 * Every message written to an SSE stream is stored first; its event id goes on the wire, and
 * a client that reconnects with `Last-Event-ID` gets the rest of that stream replayed.
 */
import { SdkError } from "../../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc/messages.js";

/**
 * Where a Streamable HTTP server keeps the messages of its SSE streams so that a client can
 * resume one after a drop. Implement it over shared storage to resume across server instances.
 */
export interface EventStore {
  /**
   * Stores one message of stream `streamId` and returns its event id. Ids must be unique
   * across all streams the store holds and must not contain line breaks.
   */
  storeEvent(streamId: string, message: JsonRpcMessage): Promise<string>;
  /**
   * Returns a fresh event id that marks the current end of stream `streamId` (new or not)
   * without storing a message: replaying after it yields what the stream stores from now on.
   * The server sends it as the priming event (an id with empty data) when an SSE connection
   * opens, so a client can resume the stream before any message arrived.
   */
  primingEventId(streamId: string): Promise<string>;
  /**
   * Calls `send` in order for each message stored on the same stream after `lastEventId`,
   * and returns that stream's id.
   * @throws EventsEvictedError when a message stored after `lastEventId` is no longer kept (the
   *   server answers 410, so the client knows the stream cannot be resumed whole); any other
   *   error when `lastEventId` is unknown to the store (the server answers 410 too: the stream
   *   cannot be resumed; an error other than an `SdkError` also goes to the transport's `onerror`).
   */
  replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string>;
  /**
   * Optional: the stream an event id of this store names, read from the id alone (no lookup), or
   * `undefined` when it has no such form. Given it, a resumption whose `Last-Event-ID` names
   * another session's stream is refused before the store reads that stream.
   */
  streamIdOf?(eventId: string): string | undefined;
}

/** The stream of an id of the form `<streamId>/<position>`, as the memory and Redis stores give them. */
export function streamIdBeforeSlash(eventId: string): string | undefined {
  const slash = eventId.lastIndexOf("/");
  return slash > 0 ? eventId.slice(0, slash) : undefined;
}

/**
 * A resumption the store cannot serve whole: messages stored after the `Last-Event-ID` were
 * dropped (evicted to make room, expired). Replaying the rest would lose them silently.
 */
export class EventsEvictedError extends SdkError {
  /** @param lastEventId the id the client resumed after. */
  constructor(lastEventId: string) {
    super("INVALID_ARGUMENT", `Events after "${lastEventId}" are no longer stored`);
  }
}

/** Options of `new MemoryEventStore(options)`. */
export interface MemoryEventStoreOptions {
  /** Events kept in all; the oldest are dropped first. Default 10,000. */
  maxEvents?: number;
}

interface StoredEvent {
  seq: number;
  message: JsonRpcMessage;
}

/**
 * An `EventStore` in process memory, for a single server instance. Event ids are
 * `<streamId>/<sequence>`, so a `Last-Event-ID` names its stream. It remembers, per stream, the
 * newest event it dropped, and refuses with `EventsEvictedError` a replay that would skip it.
 */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StoredEvent[]>();
  /** Stream ids in the order their events were stored, for dropping the oldest event first. */
  private readonly order: string[] = [];
  /** Streams primed but still without events, oldest first; bounded like the events. */
  private readonly primed = new Set<string>();
  /**
   * The sequence of the newest dropped event of each stream that lost one, oldest first; bounded
   * like the events. Events leave a stream oldest first, so everything up to it is gone.
   */
  private readonly dropped = new Map<string, number>();
  private readonly maxEvents: number;
  private seq = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? 10_000;
  }

  async storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    const seq = ++this.seq;
    this.primed.delete(streamId);
    let events = this.streams.get(streamId);
    if (events === undefined) {
      events = [];
      this.streams.set(streamId, events);
    }
    events.push({ seq, message });
    this.order.push(streamId);
    while (this.order.length > this.maxEvents) this.dropOldest();
    return `${streamId}/${seq}`;
  }

  async primingEventId(streamId: string): Promise<string> {
    if (!this.streams.has(streamId)) {
      this.primed.delete(streamId);
      this.primed.add(streamId);
      for (const oldest of this.primed) {
        if (this.primed.size <= this.maxEvents) break;
        this.primed.delete(oldest);
      }
    }
    return `${streamId}/${++this.seq}`;
  }

  streamIdOf(eventId: string): string | undefined {
    return streamIdBeforeSlash(eventId);
  }

  /** @throws SdkError "INVALID_ARGUMENT" when the id does not name a stored or primed stream. */
  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string> {
    const slash = lastEventId.lastIndexOf("/");
    const streamId = lastEventId.slice(0, Math.max(0, slash));
    const after = Number(lastEventId.slice(slash + 1));
    const dropped = this.dropped.get(streamId);
    const known = this.primed.has(streamId) || dropped !== undefined;
    const events = this.streams.get(streamId) ?? (known ? [] : undefined);
    if (slash < 0 || !Number.isInteger(after) || events === undefined) {
      throw new SdkError("INVALID_ARGUMENT", `Unknown event id "${lastEventId}"`);
    }
    if (dropped !== undefined && dropped > after) throw new EventsEvictedError(lastEventId);
    for (const event of events) {
      if (event.seq > after) await send(`${streamId}/${event.seq}`, event.message);
    }
    return streamId;
  }

  private dropOldest(): void {
    const streamId = this.order.shift();
    if (streamId === undefined) return;
    const events = this.streams.get(streamId);
    const event = events?.shift();
    if (events?.length === 0) this.streams.delete(streamId);
    if (event === undefined) return;
    this.dropped.delete(streamId);
    this.dropped.set(streamId, event.seq);
    for (const oldest of this.dropped.keys()) {
      if (this.dropped.size <= this.maxEvents) break;
      this.dropped.delete(oldest);
    }
  }
}
