/**
 * An `McpServer` with an `InteractionManager` (injected clock), driven by bare `JsonRpcSession`
 * clients over in-memory pairs. Each client can carry a verified user (as an auth layer in front
 * of the transport would set it), and every message in both directions is kept in order.
 */
import { InteractionManager, type InteractionManagerOptions } from "../../../src/interaction/server/index.js";
import type { JsonRpcMessage } from "../../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params, type RequestHandler } from "../../../src/jsonrpc/session.js";
import type { MessageExtra, SendOptions, Transport } from "../../../src/jsonrpc/transport.js";
import type { AuthInfo } from "../../../src/model/identity.js";
import { McpServer, type ServerSession } from "../../../src/server/index.js";
import { MemoryInteractionStore } from "../../../src/stores/index.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";
import { RecordingMessageBus } from "./recording-bus.js";

export const LOCAL_USER = { issuer: "local", subject: "alice" };

export class Clock {
  constructor(public time = Date.UTC(2025, 0, 1)) {}
  readonly now = () => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export function createManager(options: Partial<InteractionManagerOptions> = {}) {
  const clock = new Clock();
  const store = new MemoryInteractionStore({ now: clock.now });
  const bus = new RecordingMessageBus();
  const manager = new InteractionManager({ store, bus, now: clock.now, unsafeLocalUser: LOCAL_USER, ...options });
  return { manager, store, bus, clock };
}

export interface Logged {
  from: "client" | "server";
  message: JsonRpcMessage;
}

/** The server's end, with `authInfo` on every message it receives. */
export class AuthenticatedTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  constructor(
    private readonly inner: Transport,
    authInfo: AuthInfo | undefined,
  ) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, authInfo ? { ...extra, authInfo } : extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }
  start = () => this.inner.start();
  send = (message: JsonRpcMessage, options?: SendOptions) => this.inner.send(message, options);
  close = () => this.inner.close();
}

/** The client's end, logging what it sends and what it receives. */
export class LoggingTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  constructor(
    private readonly inner: Transport,
    private readonly log: Logged[],
  ) {
    inner.onmessage = (message, extra) => {
      for (const m of Array.isArray(message) ? message : [message]) log.push({ from: "server", message: m });
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
  }
  start = () => this.inner.start();
  send = (message: JsonRpcMessage, options?: SendOptions) => {
    this.log.push({ from: "client", message: structuredClone(message) });
    return this.inner.send(message, options);
  };
  close = () => this.inner.close();
}

export interface PeerOptions {
  protocolVersion?: string;
  capabilities?: Params;
  handlers?: Record<string, RequestHandler>;
  authInfo?: AuthInfo;
}

export interface Peer {
  client: JsonRpcSession;
  session: ServerSession;
  log: Logged[];
  /** Notifications the server sent with this method. */
  notifications(method: string): Params[];
}

export async function connectPeer(server: McpServer, options: PeerOptions = {}): Promise<Peer> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const log: Logged[] = [];
  const session = await server.connect(new AuthenticatedTransport(serverEnd, options.authInfo));
  const client = new JsonRpcSession();
  for (const [method, handler] of Object.entries(options.handlers ?? {})) client.setRequestHandler(method, handler);
  await client.connect(new LoggingTransport(clientEnd, log));
  await client.request("initialize", {
    protocolVersion: options.protocolVersion ?? "2025-11-25",
    capabilities: options.capabilities ?? {},
    clientInfo: { name: "test-client", version: "1.0.0" },
  });
  await client.notify("notifications/initialized");
  await flush();
  const notifications = (method: string) =>
    log.flatMap(({ from, message }) =>
      from === "server" && "method" in message && !("id" in message) && message.method === method
        ? [message.params ?? {}]
        : [],
    );
  return { client, session, log, notifications };
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits (without a clock) until `read` yields a value. */
export async function until<T>(read: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await flush();
  }
  throw new Error("condition never held");
}

export const CAPS = {
  urlElicitation: { elicitation: { url: {} } },
  userInteraction: { userInteraction: { types: ["ua"] } },
  none: {},
} as const;

export const CONNECT_URL = "https://mcp.example.com/connect/github";
export const CONNECT_MESSAGE = "Connect your GitHub account so the server can list your repositories.";

export function newServer(manager: InteractionManager | undefined): McpServer {
  return new McpServer({ name: "handoff-server", version: "1.0.0" }, manager ? { interactions: manager } : {});
}
