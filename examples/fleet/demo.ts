/**
 * `npm run demo -- --fleet`: the full demo's hand-off on three instances (A, B, C) behind HAProxy,
 * sharing Redis and PostgreSQL (see world.ts). HAProxy's round robin chooses who serves each
 * request, and each step says which instance served it as it happens: the tool call, the connect
 * pages, the callback, the stream that carried the completion, the retried call. Right after the
 * hand-off starts the demo SIGKILLs an instance and the browser goes on at once: on 2025-11-25
 * the one holding the client's GET stream, which the client resumes on another instance with
 * `Last-Event-ID` in the same session, the completion arriving there from the instance where the
 * page was done; on 2026-07-28 the one that started the hand-off, whose sealed `requestState`
 * another verifies. With `pinned` the steps are steered instead (`X-Fleet-Pin`): the call on A,
 * the browser on B, the retry on C. The browser is the scripted HTTP user agent.
 */
import { McpClient } from "../../src/client/index.js";
import { createConsentPolicy, HandoffClient, type UrlInteraction } from "../../src/interaction/client/index.js";
import type { InteractionStatus } from "../../src/model/interaction.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { Browser } from "../demo/full/browser.js";
import { signInForMcp } from "../demo/full/sign-in.js";
import { clip, interactionIdOf } from "../demo/full/story.js";
import { scriptedUserAgent, visibleText } from "../demo/full/user-agent.js";
import { ClientTrace, FleetBrowser } from "./served-by.js";
import { type FleetWorld, type InstanceName, startFleetWorld } from "./world.js";

export interface FleetDemoOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Default `2025-11-25` (a session with a GET stream); `2026-07-28` for the stateless era. */
  revision?: string;
  /** See `FleetWorldOptions.keysOfTheirOwn`; default none. */
  keysOfTheirOwn?: readonly InstanceName[];
  /**
   * Steer the steps with `X-Fleet-Pin` (the call and the GET stream on A, the browser on B, the
   * calls after the hand-off on C) instead of leaving every choice to the round robin. Default false.
   */
  pinned?: boolean;
}

export interface FleetDemoResult {
  text: string;
  isError: boolean;
  protocolVersion: string | undefined;
  /** The instance killed midway. */
  killed: InstanceName;
  /** Every response the client had from HAProxy, with the instance that served it. */
  client: ClientTrace;
  /** The browser's requests at HAProxy, with the instance that served each. */
  browser: FleetBrowser;
  /** The hand-off's statuses as the client saw them (`completed`: the server's notification came). */
  statuses: InteractionStatus[];
  storedSecret: string | undefined;
}

/** The first `T` `read` gives, checked every 20 ms for at most 20 s. */
async function eventually<T>(what: string, read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1_000; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting: ${what}`);
}

export async function runFleetDemo(say: (line: string) => void, options: FleetDemoOptions): Promise<FleetDemoResult> {
  const world = await startFleetWorld({
    redisUrl: options.redisUrl,
    databaseUrl: options.databaseUrl,
    say,
    ...(options.keysOfTheirOwn === undefined ? {} : { keysOfTheirOwn: options.keysOfTheirOwn }),
  });
  const client = new McpClient(
    { name: "items-demo-client", version: "1.0.0" },
    { protocolVersion: options.revision ?? "2025-11-25" },
  );
  try {
    return await tell(world, client, say, options.pinned === true);
  } finally {
    await client.close().catch(() => {});
    await world.close();
    say("cleanup  HAProxy and the instances stopped, the run's Redis keys and PostgreSQL schema deleted");
  }
}

const COMPLETE = "notifications/elicitation/complete";

async function tell(
  world: FleetWorld,
  client: McpClient,
  say: (line: string) => void,
  pinned: boolean,
): Promise<FleetDemoResult> {
  const trace = new ClientTrace();
  const browser = new FleetBrowser(new URL(world.origin).host, world.labels, say);
  const statuses: InteractionStatus[] = [];
  say("setup    the browser steps run in the scripted HTTP user agent");
  const token = await signInForMcp(scriptedUserAgent(new Browser()), {
    issuer: world.mcpIssuer,
    resource: world.resource,
    login: "alice",
    say,
  });
  let stateful = false;
  let killed: InstanceName = "A";
  let shown: UrlInteraction | undefined;
  let browsing: Promise<void> = Promise.resolve();
  // Every GET stream after the first, as it opens.
  trace.onserved = (served) => {
    const streams = trace.of("GET");
    if (served.method !== "GET" || streams.length < 2) return;
    const session = served.sessionId === streams[0]?.sessionId ? "same session" : `session ${served.sessionId}`;
    say(
      served.status === 200
        ? `client   GET stream resumed on instance ${served.servedBy} with Last-Event-ID ${served.lastEventId}, ${session}`
        : `client   GET stream refused by instance ${served.servedBy}: HTTP ${served.status}`,
    );
  };
  const handOff = async (url: string) => {
    if (stateful) {
      killed = trace.of("GET").find((s) => s.status === 200)?.servedBy as InstanceName;
      await world.kill(killed);
      say(`fleet    SIGKILL instance ${killed}, which holds the client's GET stream; the browser goes on at once`);
    } else {
      killed = trace.of("POST", "tools/call")[0]?.servedBy as InstanceName;
      await world.kill(killed);
      say(`fleet    SIGKILL instance ${killed}, which started the hand-off; the browser goes on at once`);
    }
    if (pinned) browser.pin = "B";
    const page = await browser.goSigningIn(url, "alice");
    say(`browser  the last page says: ${clip(visibleText(page.text))}`);
    if (!stateful && shown !== undefined) handoff.userDone(shown.id);
  };
  const consent = createConsentPolicy({
    print: () => {},
    confirm: async () => true,
    open: async (url) => {
      browsing = handOff(url);
      browsing.catch(() => {});
    },
  });
  const handoff = new HandoffClient(client, {
    serverUrl: world.resource,
    timeoutMs: 60_000,
    pollIntervalMs: 60_000,
    onInteraction: (interaction, ctx) => {
      shown = interaction;
      const call = trace.of("POST", "tools/call")[0];
      say(`client   tools/call list_items served by instance ${call?.servedBy}: a hand-off to ${interaction.url}`);
      if (pinned) trace.pins.set("POST", "C");
      return consent(interaction, ctx);
    },
  });
  handoff.onstatus = (interaction, status) => {
    statuses.push(status);
    const id = interactionIdOf(interaction);
    if (status !== "completed" || !stateful) {
      say(`client   hand-off ${id}: ${status}`);
      return;
    }
    // The client has read the notification; the trace's copy of the stream is parsed alongside.
    void eventually("the completion in the trace", () =>
      trace.of("GET").find((s) => s.events.some((e) => e.method === COMPLETE)),
    ).then(
      (stream) => say(`client   hand-off ${id}: completed (on the GET stream from instance ${stream.servedBy})`),
      () => say(`client   hand-off ${id}: completed`),
    );
  };
  if (pinned) {
    trace.pins.set("POST", "A");
    trace.pins.set("GET", "A");
  }
  await client.connect(
    new StreamableHttpClientTransport(new URL(world.resource), {
      headers: { authorization: `Bearer ${token}` },
      fetch: trace.fetch,
    }),
  );
  stateful = !client.isStateless;
  const first = trace.served[0];
  say(`client   ${first?.rpc ?? "connect"} served by instance ${first?.servedBy}; revision ${client.protocolVersion}`);
  if (stateful) {
    const stream = await eventually("the GET stream", () => trace.of("GET").find((s) => s.status === 200));
    trace.pins.delete("GET");
    say(`client   GET stream (server-to-client messages) held by instance ${stream.servedBy}`);
  }

  say("client   calling list_items {}");
  const result = await handoff.callTool({ name: "list_items", arguments: {} });
  await browsing;
  for (const step of browser.steps.filter((s) => s.path.startsWith("/connect/"))) {
    say(
      `fleet    ${step.method} ${step.path.replace(/\/connect\/[^/]{16,}$/, "/connect/<id>")} served by instance ${step.servedBy}`,
    );
  }
  const retry = trace.of("POST", "tools/call").at(-1);
  const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  say(`client   the retried tools/call served by instance ${retry?.servedBy} returned: ${text}`);
  return {
    text,
    isError: result.isError === true,
    protocolVersion: client.protocolVersion,
    killed,
    client: trace,
    browser,
    statuses,
    storedSecret: await world.storedSecret("alice"),
  };
}
