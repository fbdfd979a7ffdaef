/**
 * Three instances of one MCP server (A, B, C) in one process, sharing one session directory, one
 * event store, one bus and one interaction store, behind ONE `node:http` front that hands each
 * request to the next living instance in turn (round robin, no stickiness) unless a test pins the
 * next one or steers them all to one. `kill` ends an instance abruptly: its connections are
 * destroyed, it leaves the rotation, and it hears and says nothing on the bus any more, with no
 * graceful hand-over. `holdGets` keeps the GETs that arrive at the front waiting, as a client
 * reconnecting its GET stream while no instance answers it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpClient, type McpClientOptions } from "../../src/client/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { AuthInfo } from "../../src/model/identity.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore, type MessageBus } from "../../src/stores/index.js";
import {
  type EventStore,
  MemoryEventStore,
  MemorySessionDirectory,
  StreamableHttpClientTransport,
  StreamableHttpServer,
  toNodeHandler,
} from "../../src/transports/http/index.js";
import { untilTurns } from "../support/turns.js";

export const PAGE = "https://mcp.example.com/connect/github";
export const MESSAGE = "Connect your GitHub account so the server can list your repositories.";
export const KEY_OLD = new Uint8Array(32).fill(1);
export const KEY_NEW = new Uint8Array(32).fill(2);

/** Waits (event loop turns, no clock) until `read` yields a value. */
export const until = <T>(read: () => T | undefined): Promise<T> => untilTurns(read, 400_000);

/** `Bearer <user>` is user `<user>` of one authorization server. */
export function authOf(req: IncomingMessage): AuthInfo | undefined {
  const user = /^Bearer (\w+)$/.exec(req.headers.authorization ?? "")?.[1];
  return user === undefined ? undefined : { token: `token-of-${user}`, issuer: "https://as.example", subject: user };
}

/** One instance's view of the shared bus, which goes deaf and dumb when the instance is killed. */
class InstanceBus implements MessageBus {
  dead = false;
  constructor(private readonly shared: MessageBus) {}
  async publish(channel: string, message: string): Promise<void> {
    if (this.dead) throw new SdkError("STORE_UNAVAILABLE", "This instance is dead");
    await this.shared.publish(channel, message);
  }
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    return this.shared.subscribe(channel, (message) => {
      if (!this.dead) handler(message);
    });
  }
  async close(): Promise<void> {}
}

export type Name = "A" | "B" | "C";

export interface Instance {
  name: Name;
  mcp: McpServer;
  http: StreamableHttpServer;
  manager: InteractionManager;
  alive: boolean;
  /** The HTTP method of every request this instance served, in order. */
  served: string[];
  /** The `Last-Event-ID` of every GET this instance served, in order (`undefined`: none). */
  lastEventIds: (string | undefined)[];
  responses: Set<ServerResponse>;
  bus: InstanceBus;
}

export interface FleetRig {
  url: URL;
  instances: Record<Name, Instance>;
  /** Alice's linked accounts (the vault every instance shares). */
  linked: Set<string>;
  /** Every message the shared event store has stored, in order. */
  stored: JsonRpcMessage[];
  /** The next request goes to this instance (then round robin again). */
  pin(name: Name): void;
  /** Every request goes to this instance (`undefined`: round robin again). */
  steer(name: Name | undefined): void;
  /** GETs arriving from now on wait at the front; `release` hands them on (pins and steering apply then). */
  holdGets(): { release(): void; readonly waiting: number };
  kill(name: Name): void;
  /** Ends `name`'s open answers to `method` requests abruptly, as a lost connection; the instance lives on. */
  drop(name: Name, method: string): void;
  /** A client of alice's (or `user`'s) through the front; `setup` runs before it connects. */
  client(options?: McpClientOptions, user?: string, setup?: (client: McpClient) => void): Promise<McpClient>;
  close(): Promise<void>;
}

export async function fleetRig(): Promise<FleetRig> {
  const sessions = new MemorySessionDirectory();
  const memory = new MemoryEventStore();
  const stored: JsonRpcMessage[] = [];
  const eventStore: EventStore = {
    async storeEvent(streamId, message) {
      const eventId = await memory.storeEvent(streamId, message);
      stored.push(message);
      return eventId;
    },
    primingEventId: (streamId) => memory.primingEventId(streamId),
    replayEventsAfter: (lastEventId, send) => memory.replayEventsAfter(lastEventId, send),
  };
  const shared = new InProcessMessageBus();
  const store = new MemoryInteractionStore();
  const linked = new Set<string>();
  const make = (name: Name): Instance => {
    const bus = new InstanceBus(shared);
    const manager = new InteractionManager({ store, bus, sweepIntervalMs: 0 });
    const mcp = new McpServer(
      { name: "fleet-test", version: "1.0.0" },
      { interactions: manager, requestStateKeys: [KEY_NEW, KEY_OLD], handoffHoldMs: 0 },
    );
    mcp.registerTool("repos", { description: "Lists alice's repositories" }, (_args, ctx) => {
      const user = ctx.authInfo?.subject ?? "";
      if (!linked.has(user)) throw new InteractionRequired({ url: PAGE, message: MESSAGE });
      return { content: [{ type: "text", text: `${user}'s items, served by ${name}` }] };
    });
    mcp.registerTool("where", { description: "Names the instance" }, () => ({
      content: [{ type: "text", text: name }],
    }));
    mcp.registerTool("ask", { description: "Asks the user for a colour" }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: "Which colour?",
        requestedSchema: { type: "object", properties: { colour: { type: "string" } }, required: ["colour"] },
      });
      const colour = answer.action === "accept" ? String(answer.content?.colour) : answer.action;
      return { content: [{ type: "text", text: `${colour}, asked by ${name}` }] };
    });
    mcp.registerResource("notes", "file:///notes", { mimeType: "text/plain" }, () => ({
      contents: [{ uri: "file:///notes", text: "notes" }],
    }));
    const http = new StreamableHttpServer({
      onsession: (transport) => mcp.connect(transport),
      onrequest: (transport) => mcp.connect(transport),
      eventStore,
      fleet: { sessions, bus },
      keepAliveIntervalMs: 0,
      retryIntervalMs: 5,
    });
    return { name, mcp, http, manager, alive: true, served: [], lastEventIds: [], responses: new Set(), bus };
  };
  const instances = { A: make("A"), B: make("B"), C: make("C") };
  const handlers = new Map(
    Object.values(instances).map((instance) => [instance, toNodeHandler(instance.http, { authInfo: authOf })]),
  );
  const order = Object.values(instances);
  let turn = 0;
  let pinned: Instance | undefined;
  let steered: Instance | undefined;
  let held: (() => void)[] | undefined;
  const front = createServer((req, res) => {
    if (held !== undefined && req.method === "GET") {
      held.push(() => dispatch(req, res));
      return;
    }
    dispatch(req, res);
  });
  const dispatch = (req: IncomingMessage, res: ServerResponse) => {
    let instance = steered?.alive === true ? steered : pinned;
    pinned = undefined;
    for (let i = 0; instance === undefined && i < order.length; i++) {
      const candidate = order[turn++ % order.length] as Instance;
      if (candidate.alive) instance = candidate;
    }
    if (instance === undefined) {
      res.writeHead(502).end();
      return;
    }
    instance.served.push(req.method ?? "");
    const lastEventId = req.headers["last-event-id"];
    if (req.method === "GET") instance.lastEventIds.push(typeof lastEventId === "string" ? lastEventId : undefined);
    instance.responses.add(res);
    res.on("close", () => instance.responses.delete(res));
    void handlers.get(instance)?.(req, res);
  };
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(front.address() as AddressInfo).port}/mcp`);
  const clients: McpClient[] = [];
  return {
    url,
    instances,
    linked,
    stored,
    pin(name) {
      pinned = instances[name];
    },
    steer(name) {
      steered = name === undefined ? undefined : instances[name];
    },
    holdGets() {
      const waiting: (() => void)[] = [];
      held = waiting;
      return {
        release() {
          if (held === waiting) held = undefined;
          for (const go of waiting.splice(0)) go();
        },
        get waiting() {
          return waiting.length;
        },
      };
    },
    drop(name, method) {
      for (const res of instances[name].responses) if (res.req.method === method) res.destroy();
    },
    kill(name) {
      const instance = instances[name];
      instance.alive = false;
      instance.bus.dead = true;
      for (const res of instance.responses) res.destroy();
    },
    async client(options = {}, user = "alice", setup = () => {}) {
      const client = new McpClient({ name: "agent", version: "1.0.0" }, options);
      setup(client);
      const transport = new StreamableHttpClientTransport(url, {
        headers: { authorization: `Bearer ${user}` },
        reconnect: { initialDelayMs: 1, maxDelayMs: 5, maxRetries: 20 },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((client) => client.close()));
      for (const instance of order) {
        instance.bus.dead = false;
        await instance.http.close();
        await instance.mcp.close();
        await instance.manager.close?.();
      }
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    },
  };
}

/** The text of a tool result's first block. */
export function textOf(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { text?: string }[];
  return first?.text ?? "";
}
