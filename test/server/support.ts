/**
 * Drives an `McpServer` from a bare `JsonRpcSession` playing the client, over an in-memory pair,
 * and records every message the server sends so tests can also check what did not go out.
 */
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params, type RequestHandler } from "../../src/jsonrpc/session.js";
import type { MessageExtra, SendOptions, Transport } from "../../src/jsonrpc/transport.js";
import type { McpServer, ServerSession } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

/** Passes everything through and keeps a copy of what arrives from the server. */
class RecordingTransport implements Transport {
  readonly received: JsonRpcMessage[] = [];
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      this.received.push(...(Array.isArray(message) ? message : [message]));
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }
  start() {
    return this.inner.start();
  }
  send(message: JsonRpcMessage, options?: SendOptions) {
    return this.inner.send(message, options);
  }
  close() {
    return this.inner.close();
  }
}

/** Records calls of `setProtocolVersion`, as the Streamable HTTP transport would receive them. */
export class VersionAwareTransport extends RecordingTransport {
  readonly versions: string[] = [];
  setProtocolVersion(version: string): void {
    this.versions.push(version);
  }
}

export interface ConnectOptions {
  protocolVersion?: string;
  capabilities?: Params;
  /** Send `initialize` and `notifications/initialized` (default true). */
  initialize?: boolean;
  /** Handlers for server-to-client requests, installed before connecting. */
  handlers?: Record<string, RequestHandler>;
}

export interface TestClient {
  client: JsonRpcSession;
  session: ServerSession;
  /** The `initialize` result, when `initialize` was sent. */
  init: Params | undefined;
  /** Everything the server sent, in order. */
  received: JsonRpcMessage[];
  serverTransport: VersionAwareTransport;
  /** Notifications the server sent with this method. */
  notifications(method: string): Params[];
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits (without a clock) until `read` yields a value. */
export async function until<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = read();
    if (value !== undefined) return value;
    await flush();
  }
  throw new Error("condition never held");
}

export async function connectClient(server: McpServer, options: ConnectOptions = {}): Promise<TestClient> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const serverTransport = new VersionAwareTransport(serverEnd);
  const recording = new RecordingTransport(clientEnd);
  const session = await server.connect(serverTransport);
  const client = new JsonRpcSession();
  for (const [method, handler] of Object.entries(options.handlers ?? {})) client.setRequestHandler(method, handler);
  await client.connect(recording);
  let init: Params | undefined;
  if (options.initialize !== false) {
    init = await client.request("initialize", {
      protocolVersion: options.protocolVersion ?? "2025-11-25",
      capabilities: options.capabilities ?? {},
      clientInfo: { name: "test-client", version: "1.0.0" },
    });
    await client.notify("notifications/initialized");
    await flush();
  }
  const notifications = (method: string) =>
    recording.received.flatMap((m) => ("method" in m && !("id" in m) && m.method === method ? [m.params ?? {}] : []));
  return { client, session, init, received: recording.received, serverTransport, notifications };
}
