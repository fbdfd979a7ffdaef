/**
 * A session transport as one replica of a fleet's session: its link to the other instances, the
 * shared GET stream (stored, then written by the instance holding the client's GET connection),
 * and the streams of POSTs that a client resumed on another instance than the one serving them.
 * Module functions of the transport, so a session outside a fleet holds nothing of this.
 */
import type { JsonRpcMessage } from "../../jsonrpc/messages.js";
import type { MessageExtra } from "../../jsonrpc/transport.js";
import { DEFAULT_SSE_RETRY_MS } from "./constants.js";
import type { EventStore } from "./event-store.js";
import type { HttpReply } from "./exchange.js";
import type { Fleet } from "./fleet.js";
import type { FleetLink } from "./fleet-link.js";
import { FollowedStreams } from "./followed-streams.js";
import { endStaleConnection, IDLE, type OutboundStream } from "./outbound-stream.js";
import type { SseSink } from "./sinks.js";

/** Fleet: what a replica of a session keeps besides what every session does. */
export interface ReplicaState {
  /** The replica's link to the other instances. */
  readonly link: FleetLink;
  /** Serializes the storing of what goes to the GET stream, so it keeps its order. */
  outbox: Promise<void>;
  /** The id of the last event of the GET stream written to the client from here. */
  cursor: string | undefined;
  /** Streams of POSTs served elsewhere that the client resumed here (made on the first). */
  followedStreams: FollowedStreams | undefined;
  /** Streams of POSTs served here that the client resumed on another instance. */
  followers: Set<string> | undefined;
}

/** @internal What the fleet part reads and calls of its session transport. */
export interface ReplicaHost {
  readonly sessionId: string | undefined;
  readonly options: { readonly eventStore: EventStore | undefined; readonly retryIntervalMs: number | undefined };
  /** The GET stream, if made. */
  readonly standaloneStream: OutboundStream | undefined;
  /** The GET stream, made if it was not. */
  readonly standalone: OutboundStream;
  readonly replica: ReplicaState | undefined;
  /** Streams by id where they can be resumed. */
  readonly streams: Map<string, OutboundStream> | undefined;
  fail(error: unknown): void;
  attachSse(stream: OutboundStream, fresh: boolean): SseSink;
  deliver(payload: JsonRpcMessage, extra: MessageExtra, stream: undefined): void;
  close(): Promise<void>;
}

/**
 * The replica state of `host` in `fleet`, its link made (not joined yet) and hooked to `host`.
 * `streamStart`: the record's, when another instance opened the session.
 */
export function makeReplica(
  host: ReplicaHost,
  fleet: Fleet,
  owner: string | undefined,
  streamStart: string | undefined,
): ReplicaState {
  const link = fleet.link(host.sessionId ?? "", owner, {
    stored: () => catchUp(host),
    streamStored: (streamId) => host.replica?.followedStreams?.catchUp(streamId, false),
    streamEnded: (streamId) => host.replica?.followedStreams?.catchUp(streamId, true),
    following: (streamId) => followedElsewhere(host, streamId),
    forwarded: (message) => host.deliver(message, forwardedExtra(host), undefined),
    listeningElsewhere: () => {
      if (host.standaloneStream !== undefined) endStaleConnection(host.standaloneStream);
    },
    ended: () => void host.close(),
  });
  link.streamStart = streamStart;
  return { link, outbox: IDLE, cursor: undefined, followedStreams: undefined, followers: undefined };
}

function forwardedExtra(host: ReplicaHost): MessageExtra {
  return host.sessionId === undefined ? {} : { sessionId: host.sessionId };
}

/**
 * The client resumed this instance's stream `streamId` elsewhere: what is stored on it from now
 * on is announced, and its end; announced at once (after what is queued) if it ended.
 */
function followedElsewhere(host: ReplicaHost, streamId: string): void {
  const replica = host.replica as ReplicaState;
  const link = replica.link;
  const stream = host.streams?.get(streamId);
  if (stream === undefined) {
    void link.announceStreamEnd(streamId);
    return;
  }
  replica.followers ??= new Set();
  replica.followers.add(streamId);
  stream.chain = stream.chain.then(() => void link.announceStreamStored(streamId));
}

/**
 * Resumes here the stream `streamId` of a POST that the instance `owner` serves: its response may
 * come later, stored there and announced.
 */
export function followElsewhere(
  host: ReplicaHost,
  store: EventStore,
  streamId: string,
  owner: string,
  lastEventId: string,
  headers: Record<string, string>,
): HttpReply {
  const replica = host.replica as ReplicaState;
  replica.followedStreams ??= new FollowedStreams(
    store,
    replica.link,
    host.options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS,
    (error) => host.fail(error),
  );
  return replica.followedStreams.follow(streamId, owner, lastEventId, headers);
}

/**
 * Attaches a GET connection to the shared GET stream, after `lastEventId` or (a fresh GET) after
 * what this replica wrote last, else from the session's start. The replica already listens to the
 * bus, so nothing stored from now on is missed, and `catchUp` writes each event once, in the
 * store's order.
 */
export function listenShared(host: ReplicaHost, lastEventId: string | undefined, headers: Record<string, string>) {
  const stream = host.standalone;
  const store = host.options.eventStore as EventStore;
  const replica = host.replica as ReplicaState;
  const link = replica.link;
  endStaleConnection(stream);
  const sink = host.attachSse(stream, false);
  stream.sink = sink;
  stream.chain = stream.chain
    .then(async () => {
      if (lastEventId !== undefined) {
        replica.cursor = lastEventId;
        return;
      }
      const start = replica.cursor ?? link.streamStart;
      const known = start !== undefined && (await isReplayable(store, start));
      replica.cursor = known ? start : await store.primingEventId(stream.id);
      sink.prime(replica.cursor, host.options.retryIntervalMs);
    })
    .catch((error: unknown) => {
      if (stream.sink === sink) stream.sink = undefined;
      sink.end();
      host.fail(error);
    });
  catchUp(host);
  link.listening();
  return sink.reply(headers);
}

/** Stores a message for the shared GET stream and tells the instance holding it. */
export function share(host: ReplicaHost, message: JsonRpcMessage): Promise<void> {
  const store = host.options.eventStore as EventStore;
  const replica = host.replica as ReplicaState;
  const link = replica.link;
  const streamId = host.standalone.id;
  const stored = replica.outbox.then(() => store.storeEvent(streamId, message));
  replica.outbox = stored.then(
    () => undefined,
    () => undefined,
  );
  return stored.then(() => {
    catchUp(host);
    void link.announceStored();
  });
}

/** Writes to the GET connection held here what the shared GET stream stored after the cursor. */
function catchUp(host: ReplicaHost): void {
  const stream = host.standaloneStream;
  const store = host.options.eventStore;
  const sink = stream?.sink;
  const replica = host.replica;
  if (stream === undefined || store === undefined || replica === undefined || sink?.open !== true) return;
  stream.chain = stream.chain
    .then(async () => {
      const after = replica.cursor;
      if (stream.sink !== sink || !sink.open || after === undefined) return;
      await store.replayEventsAfter(after, async (eventId, message) => {
        if (stream.sink !== sink || !sink.open) return;
        sink.write(message, eventId);
        replica.cursor = eventId;
      });
    })
    .catch((error: unknown) => {
      // Events lost after the cursor: the client reconnects, and its resumption is refused (410).
      if (stream.sink === sink) stream.sink = undefined;
      sink.end();
      host.fail(error);
    });
}

/** Whether `store` can replay after `eventId` (it knows the id and dropped nothing after it). */
async function isReplayable(store: EventStore, eventId: string): Promise<boolean> {
  try {
    await store.replayEventsAfter(eventId, async () => {});
    return true;
  } catch {
    return false;
  }
}
