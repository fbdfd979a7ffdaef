/**
 * Client-side SSE: reading a body with the `eventsource-parser` package, and following one
 * logical stream across reconnections (spec: basic/transports § Resumability and Redelivery).
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { RequestId } from "../../jsonrpc/messages.js";
import { exceedsUtf8Bytes, MessageTooLargeError } from "./client-answers.js";
import type { HttpAnswer } from "./client-http.js";
import { SseEventTracker } from "./client-sse-skip.js";
import { StreamableHttpError } from "./errors.js";

export type { EventSourceMessage };

/** How the client resumes a broken SSE stream with `Last-Event-ID` (exponential back-off). */
export interface ReconnectOptions {
  /** Reconnection attempts in a row before giving up on a stream. Default 3. */
  maxRetries: number;
  /** ms before the first attempt; doubles each time. Default 1,000. */
  initialDelayMs: number;
  /** ms cap on the wait between attempts. Default 30,000. A server `retry` field wins. */
  maxDelayMs: number;
}

/** One logical stream: the answer to a POST, or the standalone GET stream. */
export interface StreamState {
  /** Requests whose responses the stream still owes; `undefined` for the standalone stream. */
  pending: Set<RequestId> | undefined;
  /** The first connection, when the stream began as a POST answer. */
  response: HttpAnswer | undefined;
  lastEventId: string | undefined;
  /** Set once a GET for the stream got one: a later refusal to reconnect is then news. */
  connected?: boolean;
}

export interface StreamHooks {
  reconnect: ReconnectOptions;
  /** Aborted when the transport closes: it ends the wait before a reconnection. */
  closeSignal(): AbortSignal;
  /** Largest event accepted, in bytes of its data. */
  maxEventBytes: number;
  isClosed(): boolean;
  /** One GET (with `Last-Event-ID` when known): the response, "retry" or "stop". */
  connect(): Promise<HttpAnswer | "retry" | "stop">;
  onEvent(event: EventSourceMessage): void;
  report(error: Error): void;
  /** A connection's body was read to its end or broke. */
  release(response: HttpAnswer): void;
}

/**
 * Reads the stream until every pending response arrived (or, for the standalone stream,
 * until the transport closes), reconnecting with exponential back-off after a drop. A POST
 * stream without any event id cannot be resumed, so its drop is reported instead. An event over
 * `maxEventBytes` is reported and ends a POST stream (resuming would only send it again); the
 * standalone stream skips it and reads on, its id kept as `lastEventId` so that a resumption
 * does not ask for it again.
 * @returns why the responses still owed will not come, when the stream ended for such a reason.
 */
export async function followStream(state: StreamState, hooks: StreamHooks): Promise<Error | undefined> {
  const { maxRetries, initialDelayMs, maxDelayMs } = hooks.reconnect;
  let attempt = 0;
  let retryMs: number | undefined;
  let response = state.response;
  for (;;) {
    if (response === undefined) {
      const connected = await hooks.connect();
      if (connected === "stop") return undefined;
      if (connected !== "retry") response = connected;
    }
    let tooLarge: MessageTooLargeError | undefined;
    if (response !== undefined) {
      let received = false;
      const onEvent = (event: EventSourceMessage) => {
        received = true;
        if (event.id !== undefined) state.lastEventId = event.id;
        hooks.onEvent(event);
      };
      const onRetry = (ms: number) => {
        retryMs = ms;
      };
      // The standalone stream owes no response: it skips an event over the limit and keeps its place.
      const onSkip = (id: string | undefined) => {
        received = true;
        if (id !== undefined) state.lastEventId = id;
        const what = `an SSE event${id === undefined ? "" : ` (id "${id}")`} on the GET stream`;
        hooks.report(new MessageTooLargeError(undefined, hooks.maxEventBytes, what));
      };
      const handlers = state.pending === undefined ? { onEvent, onRetry, onSkip } : { onEvent, onRetry };
      await readSse(response, handlers, hooks.maxEventBytes).catch((error: unknown) => {
        if (error instanceof MessageTooLargeError) tooLarge = error;
      });
      if (received) attempt = 0;
    }
    if (response !== undefined) hooks.release(response);
    response = undefined;
    if (hooks.isClosed() || state.pending?.size === 0) return undefined;
    if (tooLarge !== undefined) {
      hooks.report(tooLarge);
      if (state.pending !== undefined) return tooLarge;
    }
    if (state.pending !== undefined && state.lastEventId === undefined) {
      hooks.report(new StreamableHttpError(undefined, "The SSE stream ended before all responses arrived"));
      return undefined;
    }
    if (attempt >= maxRetries) {
      hooks.report(new StreamableHttpError(undefined, `Gave up reconnecting the SSE stream after ${attempt} attempts`));
      return undefined;
    }
    const delay = retryMs ?? Math.min(initialDelayMs * 2 ** attempt, maxDelayMs);
    attempt++;
    if (!(await sleep(delay, hooks.closeSignal()))) return undefined;
  }
}

/**
 * Characters the parser may hold beyond an event's data: the field name of the line being read
 * (`data: `) and its line break. Data of N bytes is at most N characters, so an event within the
 * limit never trips the parser's own bound, which keeps memory bounded before the exact count.
 */
const PARSER_SLACK_CHARS = 64;

/**
 * Reads the answer's body to its end. Rejects when the connection breaks or the exchange is
 * aborted, and, without `onSkip`, with `MessageTooLargeError` (the body given up) at an event
 * whose data passes `maxEventBytes`; with `onSkip`, such an event is skipped, unread past the
 * limit, and the body read on. The parser keeps an unfinished line as a list of pieces, so a
 * long event costs time linear in its size whatever the chunking.
 */
export async function readSse(
  answer: HttpAnswer,
  handlers: {
    onEvent(event: EventSourceMessage): void;
    onRetry(ms: number): void;
    /** Given: an event over the limit is skipped (with its id, when it had one) and the body read on. */
    onSkip?(id: string | undefined): void;
  },
  maxEventBytes: number,
): Promise<void> {
  const { onSkip } = handlers;
  let tooLarge = false;
  // Set once the parser overflowed in the event being read: the rest of that event is skipped.
  let skipping = false;
  const tracker = onSkip === undefined ? undefined : new SseEventTracker();
  // Bytes read since the start of the piece in which the last event ended: no fewer than the
  // data of the event being read, so while it is within the limit no event needs its UTF-8
  // length counted (a pass over its whole data, the largest cost of a long event after parsing).
  let bytesSinceEvent = 0;
  let pieceBytes = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (tooLarge) return;
      const within = bytesSinceEvent <= maxEventBytes || !exceedsUtf8Bytes(event.data, maxEventBytes);
      bytesSinceEvent = pieceBytes;
      if (within) handlers.onEvent(event);
      else if (onSkip !== undefined) onSkip(event.id);
      else tooLarge = true;
    },
    onRetry: handlers.onRetry,
    onError: (error) => {
      if (error.type !== "max-buffer-size-exceeded") return;
      if (onSkip === undefined) tooLarge = true;
      else skipping = true;
    },
    maxBufferSize: maxEventBytes + PARSER_SLACK_CHARS,
  });
  const feed = (text: string) => {
    if (skipping && tracker !== undefined && onSkip !== undefined) {
      const ended = tracker.feed(text, true);
      if (ended === undefined) return;
      skipping = false;
      onSkip(ended.id);
      parser.reset();
      text = text.slice(ended.rest);
    }
    // The parser checks its buffer at the end of each piece, so an overflow is of the event the tracker is in.
    tracker?.feed(text, false);
    parser.feed(text);
  };
  // Chunks within an event's line wait (up to the limit) to be decoded as one piece.
  const holdBytes = maxEventBytes + PARSER_SLACK_CHARS;
  await answer.readText((text, bytes) => {
    if (tooLarge) return;
    pieceBytes = bytes;
    bytesSinceEvent += bytes;
    feed(text);
    if (tooLarge) void answer.cancel();
  }, holdBytes);
  if (tooLarge) throw new MessageTooLargeError(undefined, maxEventBytes, "an SSE event");
}

/** Waits `ms`; resolves false instead if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
