/**
 * The server every bad-input case runs against: a real `McpServer` with one `echo` tool. A call
 * with `hold: true` waits until the test releases it or the client cancels it, so tests can
 * keep a request in flight and watch its signal.
 */
import * as z from "zod";
import type { JsonRpcMessage, RequestId } from "../../src/jsonrpc/messages.js";
import type { MessageExtra, SendOptions, Transport } from "../../src/jsonrpc/transport.js";
import { McpServer } from "../../src/server/index.js";
import { hasSessionId, takesProtocolVersion } from "../../src/transports/features.js";
import { recordingLogger } from "../support/recording-logger.js";

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** What the test can see of and do with the `echo` calls in progress, by their `text`. */
export class EchoProbe {
  readonly #entered = new Map<string, Deferred<AbortSignal>>();
  readonly #released = new Map<string, Deferred<void>>();

  #slot<T>(map: Map<string, Deferred<T>>, text: string): Deferred<T> {
    let slot = map.get(text);
    if (slot === undefined) {
      slot = deferred<T>();
      map.set(text, slot);
    }
    return slot;
  }

  /** Resolves with the handler's signal once `echo` runs with this text. */
  entered(text: string): Promise<AbortSignal> {
    return this.#slot(this.#entered, text).promise;
  }

  /** Lets a held call with this text return. */
  release(text: string): void {
    this.#slot(this.#released, text).resolve();
  }

  /** @internal Called by the tool. */
  async run(text: string, hold: boolean, signal: AbortSignal): Promise<void> {
    this.#slot(this.#entered, text).resolve(signal);
    if (!hold) return;
    await Promise.race([this.#slot(this.#released, text).promise, aborted(signal)]);
  }
}

/** Resolves once `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

export interface EchoServer {
  server: McpServer;
  probe: EchoProbe;
  /** What the server reported to its logger, kept so a test can show there was nothing. */
  problems: unknown[];
}

export function createEchoServer(): EchoServer {
  const probe = new EchoProbe();
  const problems: unknown[] = [];
  const server = new McpServer(
    { name: "echo-server", version: "1.0.0" },
    { logger: recordingLogger((entry) => void problems.push(entry)) },
  );
  server.registerTool(
    "echo",
    {
      description: "Returns its text; with hold, only once released or cancelled",
      inputSchema: { text: z.string(), hold: z.boolean().optional() },
    },
    async ({ text, hold }, ctx) => {
      await probe.run(text, hold === true, ctx.signal);
      return { content: [{ type: "text", text }] };
    },
  );
  return { server, probe, problems };
}

export const CLIENT_INFO = { name: "bad-input-client", version: "1.0.0" };

/** `initialize` params as a raw peer sends them. */
export function initializeParams(): Record<string, unknown> {
  return { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO };
}

/** A `tools/call` of `echo` as a raw message. */
export function echoCall(id: RequestId, text: string, hold = false): JsonRpcMessage {
  const args: Record<string, unknown> = hold ? { text, hold } : { text };
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args } };
}

/**
 * A client transport that aborts the call whose text is `text` at the moment that call's answer
 * arrives, before handing the answer on: the cancellation and the response cross on the wire.
 */
export class CrossingTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The id the client gave the call, once sent. */
  crossedId: RequestId | undefined;
  /** Whether the answer was handed to the client after it had cancelled the call. */
  lateAnswerDelivered = false;
  /** Cancellations the client sent. */
  readonly cancellations: unknown[] = [];

  constructor(
    private readonly inner: Transport,
    private readonly text: string,
    private readonly cancel: AbortController,
  ) {
    inner.onmessage = (message, extra) => {
      const isCrossed =
        !Array.isArray(message) &&
        !("method" in message) &&
        this.crossedId !== undefined &&
        message.id === this.crossedId;
      if (isCrossed) {
        this.cancel.abort();
        this.lateAnswerDelivered = true;
      }
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }

  get sessionId(): string | undefined {
    return hasSessionId(this.inner) ? this.inner.sessionId : undefined;
  }

  setProtocolVersion(version: string): void {
    if (takesProtocolVersion(this.inner)) this.inner.setProtocolVersion(version);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if ("method" in message && "id" in message && message.method === "tools/call") {
      const args = (message.params?.arguments ?? {}) as Record<string, unknown>;
      if (args.text === this.text) this.crossedId = message.id;
    }
    if ("method" in message && message.method === "notifications/cancelled") this.cancellations.push(message.params);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
