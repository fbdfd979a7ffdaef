/**
 * Golden transcripts of the hand-off mapping of revision 2026-07-28
 * (test/interaction/server/transcripts/2026-*.txt), written like the 2025 ones: a paragraph, then
 * every JSON-RPC message between `McpServer` and a bare stateless client (no `initialize`; each
 * request carries its `_meta`). Interaction ids and `requestState` values are normalised; every
 * message is checked against the 2026-07-28 schema. `UPDATE_TRANSCRIPTS=1` rewrites the files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InteractionManager } from "../../../src/interaction/server/index.js";
import { JsonRpcSession, type Params } from "../../../src/jsonrpc/session.js";
import { isInputRequired, META, STATELESS_REVISIONS } from "../../../src/revisions/index.js";
import { InteractionRequired, McpServer } from "../../../src/server/index.js";
import { createMemoryTransportPair } from "../../../src/transports/memory.js";
import { recordCreated } from "./record-created.js";
import {
  CAPS,
  CONNECT_MESSAGE,
  CONNECT_URL,
  createManager,
  LOCAL_USER,
  type Logged,
  LoggingTransport,
  until,
} from "./support.js";
import { renderTranscript } from "./transcript-format.js";

const DIR = join(import.meta.dirname, "transcripts");

function server2026(manager: InteractionManager, now: () => number) {
  const server = new McpServer(
    { name: "handoff-server", version: "1.0.0" },
    { interactions: manager, requestStateSecret: new Uint8Array(32).fill(1), now },
  );
  const linked = new Set<string>();
  server.registerTool("connect", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: CONNECT_MESSAGE, purpose: { provider: "github" } });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: `The user chose ${outcome.action}.` }] };
    const done = await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: `GitHub is ${done.status === "completed" ? "linked" : done.status}.` }] };
  });
  server.registerTool("repos", { description: "Lists GitHub repositories" }, async () => {
    if (!linked.has("local alice")) throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  return { server, linked };
}

/** A stateless client: every call names the revision and its capabilities in `_meta`. */
async function statelessPeer(server: McpServer, capabilities: Params) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const log: Logged[] = [];
  await server.connect(serverEnd);
  const client = new JsonRpcSession();
  await client.connect(new LoggingTransport(clientEnd, log));
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: { name: "test-client", version: "1.0.0" },
  };
  const call = (name: string, retry: Params = {}) =>
    client.request("tools/call", { name, arguments: {}, ...retry, _meta: meta });
  return { client, log, call };
}

interface Scenario {
  name: string;
  about: string;
  capabilities: Params;
  run(c: {
    call(name: string, retry?: Params): Promise<Params>;
    complete(id: string): Promise<void>;
    interaction(): Promise<string>;
    /** Resolves once the server holds a retry, waiting for the interaction to complete. */
    held(): Promise<void>;
    link(): void;
  }): Promise<void>;
}

/** The retry of an `InputRequiredResult`: the user's answers, and the state echoed byte for byte. */
function retryOf(result: Params, answer: Params = { action: "accept" }): Params {
  const keys = Object.keys((result.inputRequests as Params | undefined) ?? {});
  return {
    inputResponses: Object.fromEntries(keys.map((key) => [key, answer])),
    requestState: result.requestState,
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: "2026-url-elicitation-request",
    about:
      "URL-mode elicitation inside an InputRequiredResult, request path (2026-07-28; the request declared " +
      "elicitation.url). The tool calls ctx.interact: the call ends with an InputRequiredResult whose one input " +
      "request is a URL-mode elicitation/create (no elicitationId) and whose signed requestState carries the " +
      "interaction. The client retries with accept at once, before the user finished: the server holds that " +
      "retry until the web side completes the interaction, then the tool goes on and its result is the answer.",
    capabilities: CAPS.urlElicitation,
    async run(c) {
      const first = await c.call("connect");
      const held = c.call("connect", retryOf(first));
      await c.held();
      await c.complete(await c.interaction());
      const done = await held;
      expect(isInputRequired(done)).toBe(false);
    },
  },
  {
    name: "2026-url-elicitation-error",
    about:
      "The hand-off as an error would have been (2026-07-28; the request declared elicitation.url). The tool " +
      "throws InteractionRequired: the server stores the interaction and answers an InputRequiredResult with " +
      "its page as a URL-mode elicitation; requestState names the interaction. The client retries with accept " +
      "at once: the server holds that retry until the web side completes the interaction, then runs the tool, " +
      "which now succeeds.",
    capabilities: CAPS.urlElicitation,
    async run(c) {
      const first = await c.call("repos");
      const held = c.call("repos", retryOf(first));
      await c.held();
      c.link();
      await c.complete(await c.interaction());
      const done = await held;
      expect(done.content).toEqual([{ type: "text", text: "octo/hello-world" }]);
    },
  },
  {
    name: "2026-none",
    about:
      "A request that declared no URL-mode elicitation (2026-07-28, form elicitation only). The tool throws " +
      "InteractionRequired: no interaction is stored, and the tool result has isError true and says that the " +
      "client cannot open the page. No URL appears anywhere.",
    capabilities: { elicitation: {} },
    async run(c) {
      await c.call("repos");
    },
  },
];

async function converse(scenario: Scenario): Promise<Logged[]> {
  const { manager, clock } = createManager();
  const { server, linked } = server2026(manager, clock.now);
  const peer = await statelessPeer(server, scenario.capabilities);
  // In this revision no message names the interaction (it rides inside requestState), so the
  // test learns its id from the manager.
  const created = recordCreated(manager);
  const known = () => created[0];
  let holds = 0;
  const wait = manager.waitForCompletion.bind(manager);
  manager.waitForCompletion = (id, signal) => {
    holds++;
    return wait(id, signal);
  };
  await scenario.run({
    held: async () => void (await until(() => (holds > 0 ? true : undefined))),
    call: (name, retry) => peer.call(name, retry),
    interaction: () => until(known),
    complete: async (id) => void (await manager.complete(id, { user: LOCAL_USER })),
    link: () => linked.add("local alice"),
  });
  return peer.log;
}

function wireProblems(log: Logged[]): string[] {
  const revision = STATELESS_REVISIONS["2026-07-28"];
  const asked = new Map<string, { method: string; params?: Record<string, unknown> }>();
  const problems: string[] = [];
  for (const { from, message } of log) {
    if ("method" in message && "id" in message) asked.set(String(message.id), message);
    const request = "method" in message ? undefined : asked.get(String(message.id));
    const problem = revision.validateOutbound(message, request ? { role: from, request } : { role: from });
    if (problem) problems.push(`${from}: ${problem.message}`);
  }
  return problems;
}

describe("hand-off transcripts, 2026-07-28", () => {
  it.each(SCENARIOS)("$name", async (scenario) => {
    const log = await converse(scenario);
    expect(wireProblems(log)).toEqual([]);
    const transcript = renderTranscript(scenario.about, log);
    const path = join(DIR, `${scenario.name}.txt`);
    if (process.env.UPDATE_TRANSCRIPTS === "1") writeFileSync(path, transcript);
    expect(transcript).toBe(readFileSync(path, "utf8"));
  });
});
