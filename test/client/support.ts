/**
 * A scripted MCP server for client tests: a bare JSON-RPC session (no MCP logic) on one end of
 * an in-memory pair, with a record of every message the client sent.
 */
import { McpClient } from "../../src/client/index.js";
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import type { ProtocolVersionTransport } from "../../src/transports/features.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";

export interface FakeServerOptions {
  /** The version the server answers with; by default it echoes the client's. */
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  instructions?: string;
}

export const SERVER_INFO = { name: "fake-server", version: "1.0.0", title: "Fake Server" };

export const ALL_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

export class FakeServer {
  readonly session = new JsonRpcSession();
  /** Everything the client sent, in order. */
  readonly received: JsonRpcMessage[] = [];
  /** The client's end of the pair, to hand to `McpClient.connect`. */
  readonly clientTransport: Transport;
  /** The server's raw end, for writing messages the session would not write. */
  readonly wire: Transport;
  /** Versions passed to the client transport's `setProtocolVersion`. */
  readonly protocolVersionsSet: string[] = [];

  constructor(readonly options: FakeServerOptions = {}) {
    const [clientSide, serverSide] = createMemoryTransportPair();
    this.wire = serverSide;
    const versioned: ProtocolVersionTransport = {
      setProtocolVersion: (version: string) => {
        this.protocolVersionsSet.push(version);
      },
    };
    this.clientTransport = Object.assign(clientSide, versioned);
    this.session.setRequestHandler("initialize", (params) => ({
      protocolVersion: options.protocolVersion ?? params.protocolVersion,
      capabilities: options.capabilities ?? ALL_CAPABILITIES,
      serverInfo: SERVER_INFO,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    }));
  }

  async start(): Promise<void> {
    await this.session.connect(this.wire);
    const deliver = this.wire.onmessage;
    this.wire.onmessage = (message, extra) => {
      if (Array.isArray(message)) this.received.push(...message);
      else this.received.push(message);
      deliver?.(message, extra);
    };
  }

  /** Requests and notifications the client sent with this method. */
  sent(method: string): { id?: RequestId; method: string; params?: Params }[] {
    return this.received.filter((m): m is JsonRpcRequest | JsonRpcNotification => "method" in m && m.method === method);
  }
}

/** A started fake server and a client connected to it. */
export async function connected(
  options: FakeServerOptions = {},
  setup: (client: McpClient) => void = () => {},
  clientOptions: ConstructorParameters<typeof McpClient>[1] = {},
): Promise<{ client: McpClient; server: FakeServer }> {
  const server = new FakeServer(options);
  await server.start();
  const client = new McpClient({ name: "test-client", version: "0.0.1" }, clientOptions);
  setup(client);
  await client.connect(server.clientTransport);
  return { client, server };
}

/** Lets queued microtasks and a macrotask turn run. */
export const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Waits (a bounded number of turns) until `read` returns something. */
export async function until<T>(read: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    await flush();
  }
  throw new Error("condition never held");
}
