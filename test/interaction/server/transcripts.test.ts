/**
 * Golden transcripts of each hand-off mapping (test/interaction/server/transcripts/*.txt): a
 * paragraph, then every JSON-RPC message of a real conversation between `McpServer` and a bare
 * client, `client:` for what the client sent and `server:` for what it received, with interaction
 * ids normalised. Every message is also checked against the negotiated revision (with the
 * extension the client declared). `UPDATE_TRANSCRIPTS=1` rewrites the files; otherwise they must match.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Params } from "../../../src/jsonrpc/session.js";
import { revisionFor } from "../../../src/revisions/index.js";
import { CAPS, connectPeer, createManager, LOCAL_USER, type Logged, type PeerOptions, until } from "./support.js";
import { callTool, handoffServer } from "./tools.js";
import { renderTranscript } from "./transcript-format.js";

const DIR = join(import.meta.dirname, "transcripts");
/** An interaction id: 128 random bits in base64url. */
const ID = /"([A-Za-z0-9_-]{22})"/;

interface Scenario {
  name: string;
  about: string;
  peer: PeerOptions;
  /** Runs the conversation; `complete` plays the web side finishing the interaction. */
  run(peer: Conversation): Promise<void>;
}

interface Conversation {
  call(name: string): Promise<Params>;
  request(method: string, params: Params, onprogress?: () => void): Promise<Params>;
  /** The id of the one interaction created so far, once it has reached `status`. */
  interaction(status?: string): Promise<string>;
  complete(id: string): Promise<void>;
  link(): void;
}

const SCENARIOS: Scenario[] = [
  {
    name: "url-elicitation-request",
    about:
      "URL-mode elicitation, request path (2025-11-25; the client declared elicitation.url). The tool calls " +
      "ctx.interact: the server sends elicitation/create in URL mode with the interaction id as elicitationId, " +
      "the client answers accept once the user agreed to open the page, the web side completes the " +
      "interaction, and notifications/elicitation/complete reaches the client on the asking request, before " +
      "the tool's result.",
    peer: { capabilities: CAPS.urlElicitation, handlers: { "elicitation/create": () => ({ action: "accept" }) } },
    async run(c) {
      const call = c.call("connect");
      await c.complete(await c.interaction("accepted"));
      await call;
    },
  },
  {
    name: "url-elicitation-error",
    about:
      "URL-mode elicitation, error path (2025-11-25; the client declared elicitation.url). The tool throws " +
      "InteractionRequired: the server stores the interaction and answers -32042 with it as the one URL-mode " +
      "elicitation. The web side completes it, notifications/elicitation/complete goes to this session, and " +
      "the client's retry succeeds.",
    peer: { capabilities: CAPS.urlElicitation },
    async run(c) {
      await c.call("repos").catch(() => undefined);
      await c.complete(await c.interaction());
      c.link();
      await c.call("repos");
    },
  },
  {
    name: "user-interaction-request",
    about:
      "The user-interaction proposal, request path (2025-06-18; the client declared userInteraction with type " +
      "ua). The tool calls ctx.interact: the server sends interaction/create of type ua, the client's empty " +
      "result means the page was opened (error -32099 would mean the user declined), the web side completes " +
      "the interaction and the tool's result follows. Without an interaction/track request open, nothing " +
      "else announces the completion.",
    peer: {
      protocolVersion: "2025-06-18",
      capabilities: CAPS.userInteraction,
      handlers: { "interaction/create": () => ({}) },
    },
    async run(c) {
      const call = c.call("connect");
      await c.complete(await c.interaction("accepted"));
      await call;
    },
  },
  {
    name: "user-interaction-error-track",
    about:
      "The user-interaction proposal, error path with tracking (2025-06-18; the client declared " +
      "userInteraction with type ua). The tool throws InteractionRequired: the server answers -32003 " +
      "interaction_required with the ua interaction. The client sends interaction/track with a progress " +
      "token and at once gets progress 0 of 2; when the web side completes the interaction, progress 2 of 2 " +
      "(progress equals total only on completion), then the empty result. The client's retry succeeds.",
    peer: { protocolVersion: "2025-06-18", capabilities: CAPS.userInteraction },
    async run(c) {
      await c.call("repos").catch(() => undefined);
      const id = await c.interaction();
      let progressed = false;
      const tracked = c.request("interaction/track", { id }, () => {
        progressed = true;
      });
      await until(() => (progressed ? true : undefined));
      await c.complete(id);
      await tracked;
      c.link();
      await c.call("repos");
    },
  },
  {
    name: "none",
    about:
      "A client that declared neither URL-mode elicitation nor user interaction (2025-11-25, form elicitation " +
      "only). The tool throws InteractionRequired: no interaction is stored, and the tool result has " +
      "isError true and says that the client cannot open the page. No URL appears anywhere.",
    peer: { capabilities: { elicitation: {} } },
    async run(c) {
      await c.call("repos");
    },
  },
];

async function converse(scenario: Scenario): Promise<Logged[]> {
  const { manager, store } = createManager();
  const { server, linked } = handoffServer(manager);
  const peer = await connectPeer(server, scenario.peer);
  /** The first interaction id the client has seen. */
  const known = () => peer.log.map(({ message }) => ID.exec(JSON.stringify(message))?.[1]).find(Boolean);
  await scenario.run({
    call: (name) => callTool(peer.client, name),
    request: (method, params, onprogress) => peer.client.request(method, params, onprogress ? { onprogress } : {}),
    async interaction(status) {
      const id = await until(known);
      if (status !== undefined) await until(async () => ((await store.get(id))?.status === status ? true : undefined));
      return id;
    },
    complete: async (id) => void (await manager.complete(id, { user: LOCAL_USER })),
    link: () => linked.add("local alice"),
  });
  await until(() => (peer.log.length > 0 ? true : undefined));
  return peer.log;
}

/** Checks every message against the negotiated revision as the client declared it. */
function wireProblems(log: Logged[], scenario: Scenario): string[] {
  const revision = revisionFor(scenario.peer.protocolVersion ?? "2025-11-25")?.forClient(scenario.peer.capabilities);
  const asked = new Map<string, { method: string; params?: Record<string, unknown> }>();
  const problems: string[] = [];
  for (const { from, message } of log) {
    if (!revision || ("method" in message && message.method === "initialize")) continue;
    if ("method" in message && "id" in message) asked.set(`${from} ${message.id}`, message);
    const requester = from === "client" ? "server" : "client";
    const request = "method" in message ? undefined : asked.get(`${requester} ${message.id}`);
    if (request?.method === "initialize") continue;
    const problem = revision.validateOutbound(message, request ? { role: from, request } : { role: from });
    if (problem) problems.push(`${from}: ${problem.message}`);
  }
  return problems;
}

describe("hand-off transcripts", () => {
  it.each(SCENARIOS)("$name", async (scenario) => {
    const log = await converse(scenario);
    expect(wireProblems(log, scenario)).toEqual([]);
    const transcript = renderTranscript(scenario.about, log);
    const path = join(DIR, `${scenario.name}.txt`);
    if (process.env.UPDATE_TRANSCRIPTS === "1") writeFileSync(path, transcript);
    expect(transcript).toBe(readFileSync(path, "utf8"));
  });
});
