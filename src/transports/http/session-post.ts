/**
 * A POST to a session transport: its answer stream (SSE or one JSON body) opened for its
 * requests, and the delivery of its messages to the protocol layer, which may refuse the POST as
 * a whole, or release a stream by cancelling the requests it waits for. Module functions of the
 * transport: a session holds no object or closure of its own for them.
 */
import { ErrorCode } from "../../jsonrpc/errors.js";
import {
  isNotification,
  isRequest,
  isRequestId,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type RequestId,
} from "../../jsonrpc/messages.js";
import type { MessageExtra, TransportReceiver } from "../../jsonrpc/transport.js";
import type { HttpReply } from "./exchange.js";
import type { FleetLink } from "./fleet-link.js";
import { disconnectStream, newStream, type OutboundStream } from "./outbound-stream.js";
import { httpError, refusalReply } from "./responses.js";
import type { RareState } from "./session-rare.js";
import { JsonSink, type SseSink } from "./sinks.js";

/** @internal How the server wants one POST answered. */
export interface PostOptions {
  /** One JSON body for its requests instead of an SSE stream. */
  json: boolean;
  /** The id of the `initialize` request that creates this session: an error answer to it ends the session. */
  opening?: RequestId | undefined;
  /** Registers what to do if the POST's client goes away before its answer (`RequestView.onAbort`). */
  onAbort?: (listener: () => void) => void;
}

/** @internal What the POST part reads, changes and calls of its session transport. */
export interface PostHost {
  readonly sessionId: string | undefined;
  readonly options: { readonly closeWhenIdle: boolean };
  readonly link: FleetLink | undefined;
  readonly resumable: boolean;
  readonly started: boolean;
  readonly rare: RareState | undefined;
  readonly more: RareState;
  readonly receiver: TransportReceiver | undefined;
  /** The stream of each request still waiting for its response. */
  byRequest: Map<RequestId, OutboundStream> | undefined;
  /** Deliveries waiting for `start`. */
  queue: Array<() => void> | undefined;
  streamId(): string;
  attachSse(stream: OutboundStream, fresh: boolean): SseSink;
  fail(error: unknown): void;
  finish(stream: OutboundStream): void;
  untrack(id: RequestId): void;
  close(): Promise<void>;
}

/**
 * The delivery under way, kept here rather than in two fields of every transport: a delivery runs
 * synchronously, and one inside another (a handler that posts to a second transport) saves and
 * restores it. `delivering` is the transport whose POST is being delivered and `deliveringStream`
 * that POST's stream, for an answer without an id; while `refusing`'s POST is delivered at once,
 * `refusal` is `null`, or the error without an id that then refuses the POST.
 */
let delivering: PostHost | undefined;
let deliveringStream: OutboundStream | undefined;
let refusing: PostHost | undefined;
let refusal: JsonRpcErrorResponse | null | undefined;

/** The stream of `host`'s POST being delivered right now, for an answer without an id. */
export function deliveringStreamOf(host: PostHost): OutboundStream | undefined {
  return delivering === host ? deliveringStream : undefined;
}

/**
 * Takes `error`, an error without an id, as the refusal of `host`'s POST if one is being
 * delivered at once (the first such error counts); `false` if none is.
 */
export function takeRefusal(host: PostHost, error: JsonRpcErrorResponse): boolean {
  if (refusing !== host) return false;
  refusal ??= error;
  return true;
}

/**
 * Takes the messages of one POST to `host`'s session and answers it (202, SSE or JSON). An error
 * without an id that the protocol layer sends at once, while the POST is delivered, refuses the
 * POST as a whole (a batch the revision does not allow): it is the HTTP answer, 400 (500 for
 * -32603), not an event of a 200 stream (spec 2025-11-25: basic/transports § Sending Messages to
 * the Server).
 */
export function acceptPost(
  host: PostHost,
  messages: JsonRpcMessage[],
  batch: boolean,
  extra: MessageExtra,
  headers: Record<string, string>,
  post: PostOptions,
): HttpReply | Promise<HttpReply> {
  if (host.link !== undefined) {
    // The client's answers to another instance's requests go there.
    const local = host.link.route(messages);
    if (local.length === 0) return { status: 202, headers };
    messages = local;
  }
  const payload = batch ? messages : (messages[0] as JsonRpcMessage);
  const ids: RequestId[] = [];
  for (const message of messages) if (isRequest(message)) ids.push(message.id);
  if (ids.length === 0) {
    const refusal = deliverRefusable(host, payload, extra, undefined);
    if (host.options.closeWhenIdle) queueMicrotask(() => void host.close());
    return refusal === undefined ? { status: 202, headers } : refusalReply(refusal, headers);
  }
  const pending = new Set<RequestId>();
  for (const id of ids) {
    if (pending.has(id) || host.byRequest?.has(id)) {
      return httpError(400, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in use`, headers);
    }
    pending.add(id);
  }
  const stream = newStream(host.streamId(), pending);
  // `initialize` comes alone in its POST: its stream carries its answer and nothing else.
  if (post.opening !== undefined && host.sessionId !== undefined) stream.opening = true;
  if (host.resumable) {
    const rare = host.more;
    rare.streams ??= new Map();
    rare.streams.set(stream.id, stream);
  }
  host.byRequest ??= new Map();
  for (const id of ids) host.byRequest.set(id, stream);
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
    const sink = host.attachSse(stream, true);
    response = sink.reply(headers);
  }
  // The extra is made for this POST alone, so the stream's closer can be set on it.
  if (host.resumable && !post.json) extra.closeSseStream = () => disconnectStream(stream);
  const refusal = deliverRefusable(host, payload, extra, stream);
  if (refusal === undefined) return response;
  for (const id of ids) host.untrack(id);
  stream.pending.clear();
  host.finish(stream);
  return refusalReply(refusal, headers);
}

/**
 * Delivers a POST's messages and returns the error without an id the protocol layer answered
 * them with at once, if it did. Before `start` the delivery waits, and such an error is then
 * written to the POST's stream as any answer.
 */
function deliverRefusable(
  host: PostHost,
  payload: JsonRpcMessage | JsonRpcMessage[],
  extra: MessageExtra,
  stream: OutboundStream | undefined,
): JsonRpcErrorResponse | undefined {
  if (!host.started) {
    deliver(host, payload, extra, stream);
    return undefined;
  }
  const outerHost = refusing;
  const outerRefusal = refusal;
  refusing = host;
  refusal = null;
  try {
    deliver(host, payload, extra, stream);
    return refusal ?? undefined;
  } finally {
    refusing = outerHost;
    refusal = outerRefusal;
  }
}

/** Hands messages to the protocol layer, or queues them until `start`. */
export function deliver(
  host: PostHost,
  payload: JsonRpcMessage | JsonRpcMessage[],
  extra: MessageExtra,
  stream: OutboundStream | undefined,
): void {
  if (host.started) run(host, payload, extra, stream);
  else {
    host.queue ??= [];
    host.queue.push(() => run(host, payload, extra, stream));
  }
}

function run(
  host: PostHost,
  payload: JsonRpcMessage | JsonRpcMessage[],
  extra: MessageExtra,
  stream: OutboundStream | undefined,
): void {
  const outerHost = delivering;
  const outerStream = deliveringStream;
  delivering = host;
  deliveringStream = stream;
  try {
    const callbacks = host.rare?.callbacks;
    if (callbacks !== undefined && "onmessage" in callbacks) callbacks.onmessage?.(payload, extra);
    else host.receiver?.receive(payload, extra);
  } catch (error) {
    host.fail(error);
  } finally {
    delivering = outerHost;
    deliveringStream = outerStream;
  }
  if (Array.isArray(payload)) releaseCancelled(host, payload);
  else if (isNotification(payload)) releaseCancelled(host, [payload]);
}

/**
 * A cancelled request gets no response (spec: basic/utilities/cancellation), so it stops holding
 * its stream open: the stream ends once nothing else on it is pending, and the session can expire.
 */
function releaseCancelled(host: PostHost, messages: readonly JsonRpcMessage[]): void {
  for (const message of messages) {
    if (!isNotification(message) || message.method !== "notifications/cancelled") continue;
    const id = message.params?.requestId;
    if (!isRequestId(id)) continue;
    const stream = host.byRequest?.get(id);
    if (stream === undefined) continue;
    host.untrack(id);
    stream.pending.delete(id);
    host.more.rememberCancelled(id);
    if (stream.pending.size === 0) host.finish(stream);
  }
}
