/**
 * The server side of one Streamable HTTP session as a `Transport`. Each POST that carries
 * requests opens an outbound stream (SSE, or one JSON body); responses go to the stream of
 * their request, server-to-client messages to the stream of the request they relate to, or
 * else to the standalone GET stream. Spec: basic/transports § Streamable HTTP.
 */
import { ErrorCode, SdkError } from "../../jsonrpc/errors.js";
import {
  isErrorResponse,
  isNotification,
  isRequest,
  isRequestId,
  isResponse,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type RequestId,
} from "../../jsonrpc/messages.js";
import type { MessageExtra, SendOptions, Transport, TransportReceiver } from "../../jsonrpc/transport.js";
import type {
  PresumedHandshakeOffer,
  PresumedHandshakeTransport,
  ProtocolVersionTransport,
  SessionIdTransport,
  SharedSession,
  SharedSessionTransport,
} from "../features.js";
import { DEFAULT_SSE_RETRY_MS, TRANSPORT_ERROR_CODE } from "./constants.js";
import type { EventStore } from "./event-store.js";
import type { HttpReply } from "./exchange.js";
import type { Fleet } from "./fleet.js";
import { type FleetLink, instanceOfStreamId } from "./fleet-link.js";
import { FollowedStreams } from "./followed-streams.js";
import {
  disconnectStream,
  endStaleConnection,
  IDLE,
  NO_REQUESTS,
  newStream,
  type OutboundStream,
  rotateStream,
  writeToStream,
} from "./outbound-stream.js";
import { httpError, refusalReply } from "./responses.js";
import { placeLastEventId } from "./resume-point.js";
import { JsonSink, SseSink } from "./sinks.js";

/** @internal Options the server passes when it creates a session transport; one object serves every session. */
export interface SessionTransportOptions {
  eventStore: EventStore | undefined;
  /**
   * ms sent as `retry` in each priming event (`undefined`: the client's default) and when a
   * connection reaches its allowed age (`undefined`: `DEFAULT_SSE_RETRY_MS`).
   */
  retryIntervalMs: number | undefined;
  /** Stateless mode: close once every request received is answered, or the POST's client goes away. */
  closeWhenIdle: boolean;
  /** Runs once on close, before `onclose`, so the server forgets the session. */
  onterminate?: (transport: StreamableHttpSessionTransport) => void;
}

/** @internal How the server wants one POST answered. */
export interface PostOptions {
  /** One JSON body for its requests instead of an SSE stream. */
  json: boolean;
  /** The id of the `initialize` request that creates this session: an error answer to it ends the session. */
  opening?: RequestId | undefined;
  /** Registers what to do if the POST's client goes away before its answer (`RequestView.onAbort`). */
  onAbort?: (listener: () => void) => void;
}

/** Bits of `StreamableHttpSessionTransport.state`. */
const STARTED = 1;
const CLOSED = 2;
/**
 * Numbers the streams of every session of this process where events are not stored (ids then only
 * need to differ within a session): one counter here instead of one per session.
 */
let streamCount = 0;

/** How many unrelated notifications wait for the standalone stream; the oldest go first. */
const MAX_UNSENT_NOTIFICATIONS = 100;
/**
 * How many cancelled request ids are remembered to drop a response that crossed the cancellation;
 * such a response follows its cancellation closely, so the oldest ids are forgotten first.
 */
const MAX_CANCELLED_IDS = 1000;

/**
 * The per-session transport handed to `StreamableHttpServerOptions.onsession`. The protocol
 * layer connects to it like to any `Transport` and calls `setProtocolVersion` once the
 * revision is negotiated; from then on a request with another `MCP-Protocol-Version` gets 400.
 */
export class StreamableHttpSessionTransport
  implements Transport, SessionIdTransport, PresumedHandshakeTransport, ProtocolVersionTransport, SharedSessionTransport
{
  /** The `Mcp-Session-Id` of this session; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /**
   * Stateless mode, a POST other than `initialize`: the client initialized on an earlier POST, and
   * this is the `MCP-Protocol-Version` it sends (see `Transport.presumedHandshake`). Set by the server.
   */
  presumedHandshake: PresumedHandshakeOffer | undefined;

  /**
   * @internal The server's record of this session: `clock()` of its last request (see
   * `clock.ts`), and who opened it (`sessionOwner` of its `initialize`; only they may use it).
   */
  activeAt = 0;
  /** @internal See `activeAt`. */
  owner: string | undefined;
  /** Where messages, errors and the close go (`setReceiver`), unless a callback set since takes them. */
  private receiver: TransportReceiver | undefined;
  private version: string | undefined;
  /** The stream of each request still waiting for its response; dropped when none is, as in an idle session. */
  private byRequest: Map<RequestId, OutboundStream> | undefined;
  /** The standalone GET stream, made when first needed: an idle session may never have one. */
  private standaloneStream: OutboundStream | undefined;
  /** The `initialize` request that opened this session, until it is answered; an error answer ends the session. */
  private opening: RequestId | undefined;
  /** The stream of the POST being delivered right now, for an answer that has no id. */
  private delivering: OutboundStream | undefined;
  /**
   * While a POST is delivered at once (`acceptPost`), `null`, or the error without an id that then
   * refuses the POST; `undefined` otherwise.
   */
  private refusal: JsonRpcErrorResponse | null | undefined;
  /** Deliveries waiting for `start`. */
  private queue: Array<() => void> | undefined;
  /** `STARTED` and `CLOSED`, as bits of one number. */
  private state = 0;
  /** What few sessions use, made when first needed (see `Rare`): an idle session holds one field for it all. */
  private rare: Rare | undefined;

  /** @internal Made by `StreamableHttpServer` for each session (`sessionId` undefined in stateless mode). */
  constructor(
    sessionId: string | undefined,
    private readonly options: SessionTransportOptions,
  ) {
    this.sessionId = sessionId;
  }

  private get more(): Rare {
    this.rare ??= {
      callbacks: undefined,
      tag: undefined,
      streams: undefined,
      cancelled: undefined,
      unsent: undefined,
      replica: undefined,
    };
    return this.rare;
  }

  /** The callbacks set as properties, made when the first is: a session with a receiver holds none. */
  private get callbacks(): Callbacks | undefined {
    return this.rare?.callbacks;
  }

  /** Streams by id, kept only where they can be resumed (an event store and a session). */
  private get streams(): Map<string, OutboundStream> | undefined {
    return this.rare?.streams;
  }

  /** Requests the client cancelled while they were pending (see `Rare.cancelled`). */
  private get cancelled(): Set<RequestId> | undefined {
    return this.rare?.cancelled;
  }

  /** Notifications for the standalone stream sent before the client opened it. */
  private get unsent(): JsonRpcMessage[] | undefined {
    return this.rare?.unsent;
  }

  /** What this replica of a fleet's session keeps; `undefined` outside a fleet. */
  private get replica(): ReplicaState | undefined {
    return this.rare?.replica;
  }

  private get started(): boolean {
    return (this.state & STARTED) !== 0;
  }

  private get closed(): boolean {
    return (this.state & CLOSED) !== 0;
  }

  private get standalone(): OutboundStream {
    // The standalone stream never has requests of its own, so it shares one empty set.
    this.standaloneStream ??= newStream(this.streamId("standalone"), NO_REQUESTS);
    return this.standaloneStream;
  }

  private get tag(): string {
    const rare = this.more;
    rare.tag ??= this.link?.streamTag ?? globalThis.crypto.randomUUID();
    return rare.tag;
  }

  /** This replica's link to the other instances of a fleet; `undefined` outside one. */
  private get link(): FleetLink | undefined {
    return this.replica?.link;
  }

  /** Fleet: the session as every instance shares it (see `SharedSession`); `undefined` outside a fleet. */
  get sharedSession(): SharedSession | undefined {
    return this.link;
  }

  /**
   * @internal Makes this transport a replica of a fleet's session (before `onsession`): subscribes
   * to its bus channel. `streamStart`: the record's, when another instance opened the session.
   * @throws what the bus throws.
   */
  async joinFleet(fleet: Fleet, owner: string | undefined, streamStart?: string): Promise<void> {
    const link = fleet.link(this.sessionId ?? "", owner, {
      stored: () => this.catchUp(),
      streamStored: (streamId) => this.replica?.followedStreams?.catchUp(streamId, false),
      streamEnded: (streamId) => this.replica?.followedStreams?.catchUp(streamId, true),
      following: (streamId) => this.followedElsewhere(streamId),
      forwarded: (message) => this.deliver(message, this.forwardedExtra(), undefined),
      listeningElsewhere: () => {
        if (this.standaloneStream !== undefined) endStaleConnection(this.standaloneStream);
      },
      ended: () => void this.close(),
    });
    link.streamStart = streamStart;
    this.more.replica = { link, outbox: IDLE, cursor: undefined, followedStreams: undefined, followers: undefined };
    await link.join();
  }

  /** @internal Fleet: ends the session on every instance, then here. @throws what the directory throws. */
  async endEverywhere(): Promise<void> {
    await this.link?.end();
    await this.close();
  }

  /** @internal Fleet: the session was used now (throttled touch of its record). */
  touchShared(now: number): void {
    this.link?.touch(now);
  }

  private forwardedExtra(): MessageExtra {
    return this.sessionId === undefined ? {} : { sessionId: this.sessionId };
  }

  /**
   * A stream's id: tagged with the session where events are stored, else a plain counter; in a
   * fleet a POST's stream also names this instance, so one that resumes it elsewhere can follow it.
   */
  private streamId(name?: string): string {
    if (this.options.eventStore === undefined) return name ?? String(++streamCount);
    if (name === undefined && this.link !== undefined) {
      return `${this.tag}.${this.link.instance}.${globalThis.crypto.randomUUID()}`;
    }
    return `${this.tag}.${name ?? globalThis.crypto.randomUUID()}`;
  }

  /**
   * Fleet: the client resumed this instance's stream `streamId` elsewhere: what is stored on it
   * from now on is announced, and its end; announced at once (after what is queued) if it ended.
   */
  private followedElsewhere(streamId: string): void {
    const link = this.link as FleetLink;
    const stream = this.streams?.get(streamId);
    if (stream === undefined) {
      void link.announceStreamEnd(streamId);
      return;
    }
    const replica = this.replica as ReplicaState;
    replica.followers ??= new Set();
    replica.followers.add(streamId);
    stream.chain = stream.chain.then(() => void link.announceStreamStored(streamId));
  }

  /**
   * Takes `receiver` in place of `onmessage`, `onerror` and `onclose` (see `Transport.setReceiver`),
   * replacing any set before, as a session's `connect` sets them. Read afterwards, each callback is
   * a function that hands on to the receiver, so that code wrapping a callback still reaches it;
   * one set afterwards takes its place.
   */
  setReceiver(receiver: TransportReceiver): void {
    this.receiver = receiver;
    if (this.rare !== undefined) this.rare.callbacks = undefined;
  }

  get onmessage(): Callbacks["onmessage"] {
    const receiver = this.receiver;
    if (this.callbacks !== undefined && "onmessage" in this.callbacks) return this.callbacks.onmessage;
    return (
      receiver &&
      ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => receiver.receive(message, extra))
    );
  }

  set onmessage(callback: Callbacks["onmessage"]) {
    const rare = this.more;
    rare.callbacks ??= {};
    rare.callbacks.onmessage = callback;
  }

  get onerror(): Callbacks["onerror"] {
    const receiver = this.receiver;
    if (this.callbacks !== undefined && "onerror" in this.callbacks) return this.callbacks.onerror;
    return receiver && ((error: Error) => receiver.transportFailed(error));
  }

  set onerror(callback: Callbacks["onerror"]) {
    const rare = this.more;
    rare.callbacks ??= {};
    rare.callbacks.onerror = callback;
  }

  get onclose(): Callbacks["onclose"] {
    const receiver = this.receiver;
    if (this.callbacks !== undefined && "onclose" in this.callbacks) return this.callbacks.onclose;
    return receiver && (() => receiver.transportClosed());
  }

  set onclose(callback: Callbacks["onclose"]) {
    const rare = this.more;
    rare.callbacks ??= {};
    rare.callbacks.onclose = callback;
  }

  private fail(error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (this.callbacks !== undefined && "onerror" in this.callbacks) this.callbacks.onerror?.(failure);
    else this.receiver?.transportFailed(failure);
  }

  /** The revision the protocol layer negotiated, if it said so. */
  get protocolVersion(): string | undefined {
    return this.version;
  }

  /** Called by the protocol layer with the negotiated revision; later requests must send it as `MCP-Protocol-Version`. */
  setProtocolVersion(version: string): void {
    this.version = version;
  }

  /** Whether a client can resume this session's streams: events are stored and a GET can reach them. */
  private get resumable(): boolean {
    return this.options.eventStore !== undefined && this.sessionId !== undefined;
  }

  /**
   * Whether a client is connected: an answer stream (SSE or JSON) or the GET stream is open. A
   * request whose client left its answer does not count: idle expiry may end the session, and
   * closing cancels the request.
   */
  get busy(): boolean {
    if (this.standaloneStream?.sink?.open === true) return true;
    for (const stream of this.byRequest?.values() ?? []) if (stream.sink?.open === true) return true;
    return false;
  }

  /** Whether the session ended (DELETE, idle expiry, server close, `close()`). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Delivers messages that arrived before the protocol layer connected. */
  async start(): Promise<void> {
    if (this.started) throw new SdkError("ALREADY_CONNECTED", "This transport is already started");
    this.state |= STARTED;
    const queued = this.queue;
    this.queue = undefined;
    for (const run of queued ?? []) run();
  }

  /**
   * Writes a message to the stream it belongs to.
   * @throws SdkError "CONNECTION_CLOSED" after close; "TRANSPORT_ERROR" for a response to no
   *   pending request, or a request with no stream that could carry it.
   */
  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    if (this.closed) throw new SdkError("CONNECTION_CLOSED", "The HTTP session is closed");
    if (isResponse(message)) {
      if (message.id === null && this.refusal !== undefined && isErrorResponse(message)) {
        this.refusal ??= message;
        return;
      }
      const stream = message.id === null ? this.delivering : this.byRequest?.get(message.id);
      if (stream === undefined && message.id !== null && this.cancelled?.delete(message.id)) return;
      if (stream === undefined) {
        throw new SdkError("TRANSPORT_ERROR", `No pending request with id ${JSON.stringify(message.id)}`);
      }
      const answered = message.id === null ? [...stream.pending] : [message.id];
      for (const id of answered) {
        stream.pending.delete(id);
        this.untrack(id);
      }
      const written = this.write(stream, message);
      if (stream.pending.size === 0) this.finish(stream);
      if (message.id !== null && message.id === this.opening) {
        this.opening = undefined;
        // A session whose initialize failed can never be used; it ends once the error is delivered.
        if ("error" in message) stream.chain = stream.chain.then(() => this.close());
      }
      return written;
    }
    const related = options.relatedRequestId === undefined ? undefined : this.byRequest?.get(options.relatedRequestId);
    // In a fleet what has no open request stream here goes to the shared GET stream.
    if (this.link !== undefined && !(related !== undefined && this.canCarry(related))) return this.share(message);
    const target = related !== undefined && this.canCarry(related) ? related : this.standalone;
    if (!this.canCarry(target)) {
      if (isRequest(message)) {
        throw new SdkError("TRANSPORT_ERROR", `No open stream can carry the ${message.method} request`);
      }
      // A client opens its GET stream a moment after initializing; what the server says meanwhile
      // (a completion, a list change) waits for it instead of being lost.
      if (target === this.standalone) {
        const rare = this.more;
        rare.unsent ??= [];
        if (rare.unsent.length === MAX_UNSENT_NOTIFICATIONS) rare.unsent.shift();
        rare.unsent.push(message);
      }
      return;
    }
    return this.write(target, message);
  }

  /** Ends every stream; requests still waiting in JSON mode get a -32000 error. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.state |= CLOSED;
    const open = new Set([...(this.byRequest?.values() ?? []), ...(this.streams?.values() ?? [])]);
    if (this.standaloneStream !== undefined) open.add(this.standaloneStream);
    for (const stream of open) {
      stream.sink?.end([...stream.pending]);
      stream.sink = undefined;
    }
    this.streams?.clear();
    this.byRequest = undefined;
    this.cancelled?.clear();
    this.replica?.followedStreams?.close();
    void this.link?.leave();
    this.options.onterminate?.(this);
    if (this.callbacks !== undefined && "onclose" in this.callbacks) this.callbacks.onclose?.();
    else this.receiver?.transportClosed();
  }

  /**
   * @internal Takes the messages of one POST and answers it (202, SSE or JSON). An error without an
   * id that the protocol layer sends at once, while the POST is delivered, refuses the POST as a
   * whole (a batch the revision does not allow): it is the HTTP answer, 400 (500 for -32603), not
   * an event of a 200 stream (spec 2025-11-25: basic/transports § Sending Messages to the Server).
   */
  acceptPost(
    messages: JsonRpcMessage[],
    batch: boolean,
    extra: MessageExtra,
    headers: Record<string, string>,
    post: PostOptions,
  ): HttpReply | Promise<HttpReply> {
    if (this.link !== undefined) {
      // The client's answers to another instance's requests go there.
      const local = this.link.route(messages);
      if (local.length === 0) return { status: 202, headers };
      messages = local;
    }
    const payload = batch ? messages : (messages[0] as JsonRpcMessage);
    const ids: RequestId[] = [];
    for (const message of messages) if (isRequest(message)) ids.push(message.id);
    if (post.opening !== undefined && this.sessionId !== undefined) this.opening = post.opening;
    if (ids.length === 0) {
      const refusal = this.deliverRefusable(payload, extra, undefined);
      if (this.options.closeWhenIdle) queueMicrotask(() => void this.close());
      return refusal === undefined ? { status: 202, headers } : refusalReply(refusal, headers);
    }
    const pending = new Set<RequestId>();
    for (const id of ids) {
      if (pending.has(id) || this.byRequest?.has(id)) {
        return httpError(400, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in use`, headers);
      }
      pending.add(id);
    }
    const stream = newStream(this.streamId(), pending);
    if (this.resumable) {
      const rare = this.more;
      rare.streams ??= new Map();
      rare.streams.set(stream.id, stream);
    }
    this.byRequest ??= new Map();
    for (const id of ids) this.byRequest.set(id, stream);
    let response: HttpReply | Promise<HttpReply>;
    if (post.json) {
      const sink = new JsonSink(batch, headers);
      stream.sink = sink;
      response = sink.reply;
      // Nothing else tells a JSON answer that its client left (an SSE one hears it from its body).
      post.onAbort?.(() => {
        if (stream.sink === sink) stream.sink = undefined;
        sink.cancel();
      });
    } else {
      const sink = this.attachSse(stream);
      response = sink.reply(headers);
    }
    // The extra is made for this POST alone, so the stream's closer can be set on it.
    if (this.resumable && !post.json) extra.closeSseStream = () => disconnectStream(stream);
    const refusal = this.deliverRefusable(payload, extra, stream);
    if (refusal === undefined) return response;
    for (const id of ids) this.untrack(id);
    stream.pending.clear();
    this.finish(stream);
    return refusalReply(refusal, headers);
  }

  /** @internal Opens the standalone GET stream; a connection still attached to it is ended (the newest wins). */
  openStandalone(headers: Record<string, string>): HttpReply {
    if (this.link !== undefined) return this.listenShared(undefined, headers);
    endStaleConnection(this.standalone);
    const response = this.attachSse(this.standalone).reply(headers);
    const unsent = this.unsent;
    if (this.rare !== undefined) this.rare.unsent = undefined;
    for (const message of unsent ?? []) void this.write(this.standalone, message);
    return response;
  }

  /**
   * @internal Replays a stream after `lastEventId` and, if the stream is still live, continues it.
   * A connection still attached to that stream is ended: the client that resumes has lost it.
   * 410 when the store cannot place the id in this session or dropped events after it.
   */
  async resume(lastEventId: string, headers: Record<string, string>): Promise<HttpReply> {
    const store = this.options.eventStore;
    const point = await placeLastEventId(
      store,
      lastEventId,
      () => this.tag,
      (error) => this.fail(error),
    );
    if (store === undefined || "gone" in point) {
      return httpError(410, TRANSPORT_ERROR_CODE, "gone" in point ? point.gone : "Gone", headers);
    }
    const { streamId } = point;
    if (this.link !== undefined && streamId === this.standalone.id) return this.listenShared(lastEventId, headers);
    const stream = streamId === this.standalone.id ? this.standalone : this.streams?.get(streamId);
    const owner = this.link === undefined || stream !== undefined ? undefined : instanceOfStreamId(streamId);
    if (owner !== undefined && owner !== this.link?.instance) {
      // Served by another instance: its response may come later, stored there and announced.
      const replica = this.replica as ReplicaState;
      replica.followedStreams ??= new FollowedStreams(
        store,
        this.link as FleetLink,
        this.options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS,
        (error) => this.fail(error),
      );
      return replica.followedStreams.follow(streamId, owner, lastEventId, headers);
    }
    if (stream !== undefined) endStaleConnection(stream);
    const sink = stream ? this.attachSse(stream, false) : new SseSink(() => {});
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
        this.fail(error);
      });
    }
    return sink.reply(headers);
  }

  /**
   * A new SSE connection for `stream`. A fresh one (not a resumption) is attached at once and,
   * when events are stored, starts with a priming event so the client can resume it from the
   * first message on (spec 2025-11-25: basic/transports § Sending Messages to the Server).
   */
  private attachSse(stream: OutboundStream, fresh = true): SseSink {
    // This transport hears of the sink with its stream (`sinkCancelled`, `sinkExpired`): no closures per sink.
    const sink = new SseSink(this, stream);
    stream.resumable = true;
    // The GET stream can be opened again, and a stored stream resumed: their connections may be closed.
    if (stream === this.standaloneStream || this.resumable) sink.onexpire = true;
    if (!fresh) return sink;
    stream.sink = sink;
    const store = this.options.eventStore;
    if (store !== undefined && this.resumable) {
      // Through the stream's chain: what was queued earlier goes out first, and the id marks the point after it.
      stream.chain = stream.chain
        .then(async () => sink.prime(await store.primingEventId(stream.id), this.options.retryIntervalMs))
        .catch((error: unknown) => this.fail(error));
    }
    return sink;
  }

  /**
   * Fleet: attaches a GET connection to the shared GET stream, after `lastEventId` or (a fresh
   * GET) after what this replica wrote last, else from the session's start. The replica already
   * listens to the bus, so nothing stored from now on is missed, and `catchUp` writes each event
   * once, in the store's order.
   */
  private listenShared(lastEventId: string | undefined, headers: Record<string, string>): HttpReply {
    const stream = this.standalone;
    const store = this.options.eventStore as EventStore;
    const replica = this.replica as ReplicaState;
    const link = replica.link;
    endStaleConnection(stream);
    const sink = this.attachSse(stream, false);
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
        sink.prime(replica.cursor, this.options.retryIntervalMs);
      })
      .catch((error: unknown) => {
        if (stream.sink === sink) stream.sink = undefined;
        sink.end();
        this.fail(error);
      });
    this.catchUp();
    link.listening();
    return sink.reply(headers);
  }

  /** Fleet: stores a message for the shared GET stream and tells the instance holding it. */
  private share(message: JsonRpcMessage): Promise<void> {
    const store = this.options.eventStore as EventStore;
    const replica = this.replica as ReplicaState;
    const link = replica.link;
    const streamId = this.standalone.id;
    const stored = replica.outbox.then(() => store.storeEvent(streamId, message));
    replica.outbox = stored.then(
      () => undefined,
      () => undefined,
    );
    return stored.then(() => {
      this.catchUp();
      void link.announceStored();
    });
  }

  /** Fleet: writes to the GET connection held here what the shared GET stream stored after the cursor. */
  private catchUp(): void {
    const stream = this.standaloneStream;
    const store = this.options.eventStore;
    const sink = stream?.sink;
    const replica = this.replica;
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
        this.fail(error);
      });
  }

  /** @internal The client left `sink`, a connection of the stream `key` (an `OutboundStream`). */
  sinkCancelled(sink: SseSink, key: unknown): void {
    const stream = key as OutboundStream;
    if (stream.sink === sink) stream.sink = undefined;
    // Stateless mode: the transport serves this one POST, and without a session nothing can resume
    // its stream, so a client that left ends it (the protocol layer then stops the request's handler).
    if (this.options.closeWhenIdle) void this.close();
  }

  /** @internal `sink`, a connection of the stream `key`, reached its allowed age. */
  sinkExpired(sink: SseSink, key: unknown): void {
    this.rotate(key as OutboundStream, sink);
  }

  /** Closes `sink`, the connection of `stream`, for the client to reconnect (see `maxSseConnectionMs`). */
  private rotate(stream: OutboundStream, sink: SseSink): void {
    const store = this.options.eventStore;
    const shared = this.link !== undefined && stream === this.standaloneStream;
    // The shared GET stream resumes after what was written here: another instance may have stored more.
    const primingId = shared
      ? async () => this.replica?.cursor ?? (await (store as EventStore).primingEventId(stream.id))
      : store && this.resumable
        ? () => store.primingEventId(stream.id)
        : undefined;
    rotateStream(stream, sink, this.options.retryIntervalMs ?? DEFAULT_SSE_RETRY_MS, primingId).catch(
      (error: unknown) => {
        if (stream.sink === sink) stream.sink = undefined;
        sink.end();
        this.fail(error);
      },
    );
  }

  /** A stream can take a request or notification if it is connected, or resumable and stored. */
  private canCarry(stream: OutboundStream): boolean {
    if (stream.sink?.open) return stream.sink.streaming;
    return stream.sink === undefined && stream.resumable && this.options.eventStore !== undefined;
  }

  private write(stream: OutboundStream, message: JsonRpcMessage): Promise<void> {
    const written = writeToStream(stream, message, this.options.eventStore);
    if (this.replica?.followers?.has(stream.id) !== true) return written;
    // Resumed on another instance: that one writes it to the client.
    return written.then(() => void this.link?.announceStreamStored(stream.id));
  }

  private finish(stream: OutboundStream): void {
    stream.done = true;
    const end = () => {
      stream.sink?.end();
      stream.sink = undefined;
      this.streams?.delete(stream.id);
      if (this.replica?.followers?.delete(stream.id)) void this.link?.announceStreamEnd(stream.id);
      if (this.options.closeWhenIdle && this.byRequest === undefined) queueMicrotask(() => void this.close());
    };
    if (stream.chain === IDLE) end();
    else stream.chain = stream.chain.then(end);
  }

  /**
   * A cancelled request gets no response (spec: basic/utilities/cancellation), so it stops holding
   * its stream open: the stream ends once nothing else on it is pending, and the session can expire.
   */
  private releaseCancelled(messages: readonly JsonRpcMessage[]): void {
    for (const message of messages) {
      if (!isNotification(message) || message.method !== "notifications/cancelled") continue;
      const id = message.params?.requestId;
      if (!isRequestId(id)) continue;
      const stream = this.byRequest?.get(id);
      if (stream === undefined) continue;
      this.untrack(id);
      stream.pending.delete(id);
      const rare = this.more;
      rare.cancelled ??= new Set();
      rare.cancelled.add(id);
      if (rare.cancelled.size > MAX_CANCELLED_IDS)
        rare.cancelled.delete(rare.cancelled.values().next().value as RequestId);
      if (stream.pending.size === 0) this.finish(stream);
    }
  }

  private untrack(id: RequestId): void {
    this.byRequest?.delete(id);
    if (this.byRequest?.size === 0) this.byRequest = undefined;
  }

  /**
   * Delivers a POST's messages and returns the error without an id the protocol layer answered
   * them with at once, if it did. Before `start` the delivery waits, and such an error is then
   * written to the POST's stream as any answer.
   */
  private deliverRefusable(
    payload: JsonRpcMessage | JsonRpcMessage[],
    extra: MessageExtra,
    stream: OutboundStream | undefined,
  ): JsonRpcErrorResponse | undefined {
    if (!this.started) {
      this.deliver(payload, extra, stream);
      return undefined;
    }
    this.refusal = null;
    try {
      this.deliver(payload, extra, stream);
      return this.refusal ?? undefined;
    } finally {
      this.refusal = undefined;
    }
  }

  private deliver(payload: JsonRpcMessage | JsonRpcMessage[], extra: MessageExtra, stream?: OutboundStream): void {
    if (this.started) this.run(payload, extra, stream);
    else {
      this.queue ??= [];
      this.queue.push(() => this.run(payload, extra, stream));
    }
  }

  private run(
    payload: JsonRpcMessage | JsonRpcMessage[],
    extra: MessageExtra,
    stream: OutboundStream | undefined,
  ): void {
    this.delivering = stream;
    try {
      if (this.callbacks !== undefined && "onmessage" in this.callbacks) this.callbacks.onmessage?.(payload, extra);
      else this.receiver?.receive(payload, extra);
    } catch (error) {
      this.fail(error);
    } finally {
      this.delivering = undefined;
    }
    if (Array.isArray(payload)) this.releaseCancelled(payload);
    else if (isNotification(payload)) this.releaseCancelled([payload]);
  }
}

/** What a session transport keeps that few sessions use; made, whole, when the first is needed. */
interface Rare {
  callbacks: Callbacks | undefined;
  /** Prefixes stream ids in the event store, so a `Last-Event-ID` names its session. */
  tag: string | undefined;
  streams: Map<string, OutboundStream> | undefined;
  /**
   * Requests the client cancelled while they were pending; a response that crossed the cancellation
   * is dropped. Made on the first cancellation.
   */
  cancelled: Set<RequestId> | undefined;
  unsent: JsonRpcMessage[] | undefined;
  replica: ReplicaState | undefined;
}

/** A transport's three callbacks, as set on it (a name present and `undefined`: set to nothing). */
interface Callbacks {
  onmessage?: ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onclose?: (() => void) | undefined;
}

/** Fleet: what a replica of a session keeps besides what every session does. */
interface ReplicaState {
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

/** Whether `store` can replay after `eventId` (it knows the id and dropped nothing after it). */
async function isReplayable(store: EventStore, eventId: string): Promise<boolean> {
  try {
    await store.replayEventsAfter(eventId, async () => {});
    return true;
  } catch {
    return false;
  }
}
