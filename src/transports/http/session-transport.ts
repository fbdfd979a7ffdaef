/**
 * The server side of one Streamable HTTP session as a `Transport`. Each POST that carries
 * requests opens an outbound stream (SSE, or one JSON body); responses go to the stream of
 * their request, server-to-client messages to the stream of the request they relate to, or
 * else to the standalone GET stream. Spec: basic/transports § Streamable HTTP. What few sessions
 * use is in `session-rare.ts`; a POST's answer and delivery in `session-post.ts`; SSE connections,
 * the GET stream and resumption in `session-sse.ts`; a fleet replica's part in `session-fleet.ts`.
 */
import { SdkError } from "../../jsonrpc/errors.js";
import { isErrorResponse, isRequest, isResponse, type JsonRpcMessage, type RequestId } from "../../jsonrpc/messages.js";
import type { MessageExtra, SendOptions, Transport, TransportReceiver } from "../../jsonrpc/transport.js";
import type {
  PresumedHandshakeOffer,
  PresumedHandshakeTransport,
  ProtocolVersionTransport,
  SessionIdTransport,
  SharedSession,
  SharedSessionTransport,
} from "../features.js";
import type { EventStore } from "./event-store.js";
import type { HttpReply } from "./exchange.js";
import type { Fleet } from "./fleet.js";
import type { FleetLink } from "./fleet-link.js";
import { IDLE, NO_REQUESTS, newStream, type OutboundStream, writeToStream } from "./outbound-stream.js";
import { makeReplica, type ReplicaState, share } from "./session-fleet.js";
import { deliver, deliveringStreamOf, takeRefusal } from "./session-post.js";
import { type Callbacks, hasCallback, RareState } from "./session-rare.js";
import { attachSse, openStandalone, resume, rotate } from "./session-sse.js";
import type { SseSink } from "./sinks.js";

export type { PostOptions } from "./session-post.js";

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

/** Bits of `StreamableHttpSessionTransport.state`. */
const STARTED = 1;
const CLOSED = 2;
/**
 * Numbers the streams of every session of this process where events are not stored (ids then only
 * need to differ within a session): one counter here instead of one per session.
 */
let streamCount = 0;

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
   * @internal The server's record of this session: `clock()` of its last request (see
   * `clock.ts`), and who opened it (`sessionOwner` of its `initialize`; only they may use it).
   */
  activeAt = 0;
  /** @internal See `activeAt`. */
  owner: string | undefined;
  /** @internal Where messages, errors and the close go (`setReceiver`), unless a callback set since takes them. */
  receiver: TransportReceiver | undefined;
  private version: string | undefined;
  /** @internal The stream of each request still waiting for its response; dropped when none is, as in an idle session. */
  byRequest: Map<RequestId, OutboundStream> | undefined;
  /** @internal The standalone GET stream, made when first needed: an idle session may never have one. */
  standaloneStream: OutboundStream | undefined;
  /** @internal Deliveries waiting for `start`. */
  queue: Array<() => void> | undefined;
  /** `STARTED` and `CLOSED`, as bits of one number. */
  private state = 0;
  /** @internal What few sessions use, made when first needed (see `RareState`): an idle session holds one field for it all. */
  rare: RareState | undefined;

  /** @internal Made by `StreamableHttpServer` for each session (`sessionId` undefined in stateless mode). */
  constructor(
    sessionId: string | undefined,
    /** @internal */
    readonly options: SessionTransportOptions,
  ) {
    this.sessionId = sessionId;
  }

  /**
   * Stateless mode, a POST other than `initialize`: the client initialized on an earlier POST, and
   * this is the `MCP-Protocol-Version` it sends (see `Transport.presumedHandshake`). Set by the server.
   */
  get presumedHandshake(): PresumedHandshakeOffer | undefined {
    return this.rare?.presumedHandshake;
  }

  set presumedHandshake(offer: PresumedHandshakeOffer | undefined) {
    // A session transport never has one: it keeps no state for it.
    if (offer !== undefined || this.rare !== undefined) this.more.presumedHandshake = offer;
  }

  /** @internal `rare`, made if it was not. */
  get more(): RareState {
    this.rare ??= new RareState();
    return this.rare;
  }

  /** @internal Streams by id, kept only where they can be resumed (an event store and a session). */
  get streams(): Map<string, OutboundStream> | undefined {
    return this.rare?.streams;
  }

  /** Requests the client cancelled while they were pending (see `RareState.cancelled`). */
  private get cancelled(): Set<RequestId> | undefined {
    return this.rare?.cancelled;
  }

  /** @internal What this replica of a fleet's session keeps; `undefined` outside a fleet. */
  get replica(): ReplicaState | undefined {
    return this.rare?.replica;
  }

  /** @internal Whether `start` was called. */
  get started(): boolean {
    return (this.state & STARTED) !== 0;
  }

  private get closed(): boolean {
    return (this.state & CLOSED) !== 0;
  }

  /** @internal The standalone GET stream, made if it was not. */
  get standalone(): OutboundStream {
    // The standalone stream never has requests of its own, so it shares one empty set.
    this.standaloneStream ??= newStream(this.streamId("standalone"), NO_REQUESTS);
    return this.standaloneStream;
  }

  /** @internal Prefixes stream ids in the event store (see `RareState.tag`). */
  get tag(): string {
    const rare = this.more;
    rare.tag ??= this.link?.streamTag ?? globalThis.crypto.randomUUID();
    return rare.tag;
  }

  /** @internal This replica's link to the other instances of a fleet; `undefined` outside one. */
  get link(): FleetLink | undefined {
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
    const replica = makeReplica(this, fleet, owner, streamStart);
    this.more.replica = replica;
    await replica.link.join();
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

  /**
   * @internal A stream's id: tagged with the session where events are stored, else a plain counter;
   * in a fleet a POST's stream also names this instance, so one that resumes it elsewhere can follow it.
   */
  streamId(name?: string): string {
    if (this.options.eventStore === undefined) return name ?? String(++streamCount);
    if (name === undefined && this.link !== undefined) {
      return `${this.tag}.${this.link.instance}.${globalThis.crypto.randomUUID()}`;
    }
    return `${this.tag}.${name ?? globalThis.crypto.randomUUID()}`;
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
    if (hasCallback(this.rare, "onmessage")) return this.rare?.callbacks?.onmessage;
    return (
      receiver &&
      ((message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => receiver.receive(message, extra))
    );
  }

  set onmessage(callback: Callbacks["onmessage"]) {
    this.more.setCallback("onmessage", callback);
  }

  get onerror(): Callbacks["onerror"] {
    const receiver = this.receiver;
    if (hasCallback(this.rare, "onerror")) return this.rare?.callbacks?.onerror;
    return receiver && ((error: Error) => receiver.transportFailed(error));
  }

  set onerror(callback: Callbacks["onerror"]) {
    this.more.setCallback("onerror", callback);
  }

  get onclose(): Callbacks["onclose"] {
    const receiver = this.receiver;
    if (hasCallback(this.rare, "onclose")) return this.rare?.callbacks?.onclose;
    return receiver && (() => receiver.transportClosed());
  }

  set onclose(callback: Callbacks["onclose"]) {
    this.more.setCallback("onclose", callback);
  }

  /** @internal Hands a failure to `onerror`, or else to the receiver. */
  fail(error: unknown): void {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (hasCallback(this.rare, "onerror")) this.rare?.callbacks?.onerror?.(failure);
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

  /** @internal Whether a client can resume this session's streams: events are stored and a GET can reach them. */
  get resumable(): boolean {
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
      if (message.id === null && isErrorResponse(message) && takeRefusal(this, message)) return;
      const stream = message.id === null ? deliveringStreamOf(this) : this.byRequest?.get(message.id);
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
      if (message.id !== null && stream.opening) {
        stream.opening = false;
        // A session whose initialize failed can never be used; it ends once the error is delivered.
        if ("error" in message) stream.chain = stream.chain.then(() => this.close());
      }
      return written;
    }
    const related = options.relatedRequestId === undefined ? undefined : this.byRequest?.get(options.relatedRequestId);
    // In a fleet what has no open request stream here goes to the shared GET stream.
    if (this.link !== undefined && !(related !== undefined && this.canCarry(related))) return share(this, message);
    const target = related !== undefined && this.canCarry(related) ? related : this.standalone;
    if (!this.canCarry(target)) {
      if (isRequest(message)) {
        throw new SdkError("TRANSPORT_ERROR", `No open stream can carry the ${message.method} request`);
      }
      // A client opens its GET stream a moment after initializing; what the server says meanwhile
      // (a completion, a list change) waits for it instead of being lost.
      if (target === this.standalone) this.more.keepUnsent(message);
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
    if (hasCallback(this.rare, "onclose")) this.rare?.callbacks?.onclose?.();
    else this.receiver?.transportClosed();
  }

  /** @internal Opens the standalone GET stream; a connection still attached to it is ended (the newest wins). */
  openStandalone(headers: Record<string, string>): HttpReply {
    return openStandalone(this, headers);
  }

  /**
   * @internal Replays a stream after `lastEventId` and, if the stream is still live, continues it.
   * A connection still attached to that stream is ended: the client that resumes has lost it.
   * 410 when the store cannot place the id in this session or dropped events after it.
   */
  resume(lastEventId: string, headers: Record<string, string>): Promise<HttpReply> {
    return resume(this, lastEventId, headers);
  }

  /** @internal A new SSE connection for `stream`, attached at once if `fresh` (see `attachSse`). */
  attachSse(stream: OutboundStream, fresh: boolean): SseSink {
    return attachSse(this, stream, fresh);
  }

  /** @internal Hands messages to the protocol layer, or queues them until `start`. */
  deliver(payload: JsonRpcMessage | JsonRpcMessage[], extra: MessageExtra, stream: OutboundStream | undefined): void {
    deliver(this, payload, extra, stream);
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
    rotate(this, key as OutboundStream, sink);
  }

  /** A stream can take a request or notification if it is connected, or resumable and stored. */
  private canCarry(stream: OutboundStream): boolean {
    if (stream.sink?.open) return stream.sink.streaming;
    return stream.sink === undefined && stream.resumable && this.options.eventStore !== undefined;
  }

  /** @internal Writes `message` to `stream` (stored first where events are), telling an instance that follows it. */
  write(stream: OutboundStream, message: JsonRpcMessage): Promise<void> {
    const written = writeToStream(stream, message, this.options.eventStore);
    if (this.replica?.followers?.has(stream.id) !== true) return written;
    // Resumed on another instance: that one writes it to the client.
    return written.then(() => void this.link?.announceStreamStored(stream.id));
  }

  /** @internal Ends `stream` once what is queued on it is written. */
  finish(stream: OutboundStream): void {
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

  /** @internal Forgets the stream of request `id`, and the map once it is empty. */
  untrack(id: RequestId): void {
    this.byRequest?.delete(id);
    if (this.byRequest?.size === 0) this.byRequest = undefined;
  }
}
