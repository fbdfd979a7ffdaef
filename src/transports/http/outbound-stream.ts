/**
 * The state of one outbound stream of a Streamable HTTP session, as the session transport keeps
 * it, and the moves on it that keep its events in order: writing (stored first, where events are
 * stored), and ending its connection without ending the stream.
 */
import type { JsonRpcMessage, RequestId } from "../../jsonrpc/messages.js";
import type { EventStore } from "./event-store.js";
import type { Sink, SseSink } from "./sinks.js";

/** One logical outbound stream: the answer to a POST, or the standalone GET stream. */
export interface OutboundStream {
  readonly id: string;
  /** Requests of the POST still waiting for a response. */
  readonly pending: Set<RequestId>;
  /** The connection currently attached; `undefined` while the client is away. */
  sink: Sink | undefined;
  /** Serializes store-then-write so events keep their order. */
  chain: Promise<void>;
  /** An SSE connection was attached once, so with an event store the client can resume it. */
  resumable: boolean;
  done: boolean;
  /** The stream of the `initialize` that opens its session, until answered: an error answer ends the session. */
  opening: boolean;
}

/** The pending set of a stream that never has requests of its own (the standalone stream). */
export const NO_REQUESTS: Set<RequestId> = new Set();

/** The chain of a stream with nothing queued; a stream's chain is replaced, never reset, once used. */
export const IDLE: Promise<void> = Promise.resolve();

export function newStream(id: string, pending: Set<RequestId>): OutboundStream {
  return pending === NO_REQUESTS ? new RequestlessRecord(id) : new RequestsRecord(id, pending);
}

/** Bits of `StreamRecord.flags`. */
const RESUMABLE = 1;
const DONE = 2;
const OPENING = 4;

/** An `OutboundStream` whose booleans share one field: an idle session's GET stream holds one. */
abstract class StreamRecord implements OutboundStream {
  sink: Sink | undefined = undefined;
  chain: Promise<void> = IDLE;
  private flags = 0;

  constructor(readonly id: string) {}

  abstract readonly pending: Set<RequestId>;

  get resumable(): boolean {
    return (this.flags & RESUMABLE) !== 0;
  }

  set resumable(resumable: boolean) {
    this.flags = resumable ? this.flags | RESUMABLE : this.flags & ~RESUMABLE;
  }

  get done(): boolean {
    return (this.flags & DONE) !== 0;
  }

  set done(done: boolean) {
    this.flags = done ? this.flags | DONE : this.flags & ~DONE;
  }

  get opening(): boolean {
    return (this.flags & OPENING) !== 0;
  }

  set opening(opening: boolean) {
    this.flags = opening ? this.flags | OPENING : this.flags & ~OPENING;
  }
}

/** The stream of a POST's requests. */
class RequestsRecord extends StreamRecord {
  constructor(
    id: string,
    readonly pending: Set<RequestId>,
  ) {
    super(id);
  }
}

/** The standalone GET stream, which never has requests of its own: no field for them. */
class RequestlessRecord extends StreamRecord {
  get pending(): Set<RequestId> {
    return NO_REQUESTS;
  }
}

/** Writes `message` to the stream's connection, after what is queued; with a `store`, stored first for resumption. */
export function writeToStream(stream: OutboundStream, message: JsonRpcMessage, store: EventStore | undefined) {
  // Nothing is queued and nothing is stored: the message can go out now, without a promise per write.
  if (stream.chain === IDLE && store === undefined) {
    stream.sink?.write(message);
    return IDLE;
  }
  const next = stream.chain.then(async () => {
    const streaming = stream.sink === undefined || stream.sink.streaming;
    const eventId = store && streaming ? await store.storeEvent(stream.id, message) : undefined;
    stream.sink?.write(message, eventId);
  });
  stream.chain = next.catch(() => {});
  return next;
}

/**
 * Ends the connection of a stream but not the stream: later messages are stored, and the
 * client gets them by resuming with `Last-Event-ID` (spec 2025-11-25: basic/transports,
 * the server "MAY close the connection (without terminating the SSE stream)").
 */
export function disconnectStream(stream: OutboundStream): void {
  // Through the chain, so that messages already queued reach the client before the close.
  stream.chain = stream.chain.then(() => {
    const sink = stream.sink;
    stream.sink = undefined;
    sink?.end();
  });
}

/**
 * Ends the connection still attached to a stream that a client opens again or resumes: a client
 * does so only for a connection it has lost, possibly before the server noticed (a silent
 * network loss). The new connection takes over; nothing more is written to the old one.
 */
export function endStaleConnection(stream: OutboundStream): void {
  const stale = stream.sink;
  if (stale?.open !== true) return;
  stream.sink = undefined;
  stale.end();
}

/**
 * Closes the connection `sink` of a stream that outlived its allowed time, not the stream: after
 * what is queued, a last event gives the client the `retry` (ms) to wait and, where events are
 * stored, an id (`primingId`) to resume after (spec 2025-11-25: basic/transports § Sending
 * Messages to the Server, and § Listening for Messages from the Server).
 */
export function rotateStream(
  stream: OutboundStream,
  sink: SseSink,
  retryMs: number,
  primingId: (() => Promise<string>) | undefined,
): Promise<void> {
  const next = stream.chain.then(async () => {
    if (stream.sink !== sink || !sink.open) return;
    const eventId = primingId === undefined ? undefined : await primingId();
    if (stream.sink !== sink) return;
    stream.sink = undefined;
    sink.close(retryMs, eventId);
  });
  stream.chain = next.catch(() => {});
  return next;
}
