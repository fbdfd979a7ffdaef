/**
 * The SSE connections of a session transport's streams: attaching one (primed where events are
 * stored), the standalone GET stream, resuming a stream after `Last-Event-ID`, and closing a
 * connection that reached its allowed age for the client to reconnect. Module functions of the
 * transport: a session holds no object or closure of its own for them.
 */
import type { JsonRpcMessage } from "../../jsonrpc/messages.js";
import { DEFAULT_SSE_RETRY_MS, TRANSPORT_ERROR_CODE } from "./constants.js";
import type { EventStore } from "./event-store.js";
import type { HttpReply } from "./exchange.js";
import { type FleetLink, instanceOfStreamId } from "./fleet-link.js";
import { endStaleConnection, type OutboundStream, rotateStream } from "./outbound-stream.js";
import { httpError } from "./responses.js";
import { placeLastEventId } from "./resume-point.js";
import { followElsewhere, listenShared, type ReplicaHost } from "./session-fleet.js";
import type { RareState } from "./session-rare.js";
import { SseSink, type SseSinkOwner } from "./sinks.js";

/** @internal What the SSE part reads and calls of its session transport. */
export interface SseHost extends ReplicaHost, SseSinkOwner {
  readonly rare: RareState | undefined;
  readonly link: FleetLink | undefined;
  /** Prefix of the session's stream ids in the event store. */
  readonly tag: string;
  /** Whether a client can resume this session's streams. */
  readonly resumable: boolean;
  write(stream: OutboundStream, message: JsonRpcMessage): Promise<void>;
}

/**
 * A new SSE connection for `stream`. A fresh one (not a resumption) is attached at once and,
 * when events are stored, starts with a priming event so the client can resume it from the
 * first message on (spec 2025-11-25: basic/transports § Sending Messages to the Server).
 */
export function attachSse(host: SseHost, stream: OutboundStream, fresh: boolean): SseSink {
  // The transport hears of the sink with its stream (`sinkCancelled`, `sinkExpired`): no closures per sink.
  const sink = new SseSink(host, stream);
  stream.resumable = true;
  // The GET stream can be opened again, and a stored stream resumed: their connections may be closed.
  if (stream === host.standaloneStream || host.resumable) sink.onexpire = true;
  if (!fresh) return sink;
  stream.sink = sink;
  const store = host.options.eventStore;
  if (store !== undefined && host.resumable) {
    // Through the stream's chain: what was queued earlier goes out first, and the id marks the point after it.
    stream.chain = stream.chain
      .then(async () => sink.prime(await store.primingEventId(stream.id), host.options.retryIntervalMs))
      .catch((error: unknown) => host.fail(error));
  }
  return sink;
}

/** Opens the standalone GET stream; a connection still attached to it is ended (the newest wins). */
export function openStandalone(host: SseHost, headers: Record<string, string>): HttpReply {
  if (host.link !== undefined) return listenShared(host, undefined, headers);
  const stream = host.standalone;
  endStaleConnection(stream);
  const response = attachSse(host, stream, true).reply(headers);
  for (const message of host.rare?.takeUnsent() ?? []) void host.write(stream, message);
  return response;
}

/**
 * Replays a stream after `lastEventId` and, if the stream is still live, continues it. A
 * connection still attached to that stream is ended: the client that resumes has lost it. 410
 * when the store cannot place the id in this session or dropped events after it.
 */
export async function resume(host: SseHost, lastEventId: string, headers: Record<string, string>): Promise<HttpReply> {
  const store = host.options.eventStore;
  const point = await placeLastEventId(
    store,
    lastEventId,
    () => host.tag,
    (error) => host.fail(error),
  );
  if (store === undefined || "gone" in point) {
    return httpError(410, TRANSPORT_ERROR_CODE, "gone" in point ? point.gone : "Gone", headers);
  }
  const { streamId } = point;
  const link = host.link;
  if (link !== undefined && streamId === host.standalone.id) return listenShared(host, lastEventId, headers);
  const stream = streamId === host.standalone.id ? host.standalone : host.streams?.get(streamId);
  const owner = link === undefined || stream !== undefined ? undefined : instanceOfStreamId(streamId);
  if (owner !== undefined && owner !== link?.instance) {
    return followElsewhere(host, store, streamId, owner, lastEventId, headers);
  }
  if (stream !== undefined) endStaleConnection(stream);
  const sink = stream ? attachSse(host, stream, false) : new SseSink(() => {});
  const replay = async () => {
    await store.replayEventsAfter(lastEventId, async (eventId, message) => sink.write(message, eventId));
    if (stream === undefined || stream.done) sink.end();
    // A client that left during the replay leaves the stream as it found it: stored, resumable.
    else if (sink.open) stream.sink = sink;
  };
  if (stream === undefined) {
    await replay();
  } else {
    // Replaying inside the stream's chain means no event is stored between replay and attach.
    stream.chain = stream.chain.then(replay).catch((error: unknown) => {
      sink.end();
      host.fail(error);
    });
  }
  return sink.reply(headers);
}

/** Closes `sink`, the connection of `stream`, for the client to reconnect (see `maxSseConnectionMs`). */
export function rotate(host: SseHost, stream: OutboundStream, sink: SseSink): void {
  const store = host.options.eventStore;
  const shared = host.link !== undefined && stream === host.standaloneStream;
  // The shared GET stream resumes after what was written here: another instance may have stored more.
  const primingId = shared
    ? async () => host.replica?.cursor ?? (await (store as EventStore).primingEventId(stream.id))
    : store && host.resumable
      ? () => store.primingEventId(stream.id)
      : undefined;
  rotateStream(stream, sink, host.options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS, primingId).catch(
    (error: unknown) => {
      if (stream.sink === sink) stream.sink = undefined;
      sink.end();
      host.fail(error);
    },
  );
}
