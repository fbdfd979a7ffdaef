/**
 * The hand-off ladder, one test per rung, as a client meets it: URL-mode elicitation asked in-band
 * (`elicitation/create` mode url), error -32042 where the request cannot ask, `interaction/create`
 * for a client that declared `userInteraction`, and the server's opt-in inbox for a client that
 * declared neither (`elicitation: {}`, form only, and no elicitation at all): a tool error naming
 * the fixed inbox URL and nothing else. Then the inbox off (the error without any URL, as before),
 * and the server's choice of form by `clientInfo`.
 */
import { describe, expect, it } from "vitest";
import type { InteractionManager } from "../../src/interaction/server/index.js";
import { type ProtocolError, UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { type HandoffLadderOptions, InteractionRequired, McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import {
  CAPS,
  CONNECT_MESSAGE,
  CONNECT_URL,
  connectPeer,
  createManager,
  LOCAL_USER,
  type Peer,
  until,
} from "../interaction/server/support.js";

const INBOX = "https://mcp.example.com/connect/inbox";
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const FORM_ONLY = { elicitation: {} };
const FORM_MODE = { elicitation: { form: {} } };
const BOTH = { ...CAPS.urlElicitation, ...CAPS.userInteraction };

/** `connect` asks in-band (`ctx.interact`); `repos` throws `InteractionRequired` until linked. */
function ladderServer(manager: InteractionManager, handoffs?: HandoffLadderOptions) {
  const server = new McpServer(
    { name: "ladder", version: "1.0.0" },
    { interactions: manager, requestStateSecret: new Uint8Array(32).fill(7), ...(handoffs ? { handoffs } : {}) },
  );
  const state = { linked: false };
  server.registerTool("connect", { description: "Links a GitHub account" }, async (_args, ctx) => {
    const outcome = await ctx.interact({ url: CONNECT_URL, message: CONNECT_MESSAGE, purpose: { provider: "github" } });
    if (outcome.action !== "accept") return { content: [{ type: "text", text: outcome.action }], isError: true };
    await ctx.waitForInteraction(outcome.interaction.id);
    return { content: [{ type: "text", text: "linked" }] };
  });
  server.registerTool("repos", { description: "Lists GitHub repositories" }, () => {
    if (!state.linked) {
      throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE, purpose: { provider: "github" } });
    }
    return { content: [{ type: "text", text: "octo/hello-world" }] };
  });
  return { server, state };
}

const call = (peer: Peer, name: string) => peer.client.request("tools/call", { name, arguments: {} });
const textOf = (result: Params) => ((result.content as { text: string }[] | undefined) ?? [])[0]?.text ?? "";
const urlsIn = (text: string) => text.match(/https?:\/\/[^\s)]+/g)?.map((url) => url.replace(/[.,;]$/, "")) ?? [];
const sentMethods = (peer: Peer) =>
  peer.log.flatMap(({ from, message }) => (from === "server" && "method" in message ? [message.method] : []));

/** A 2026-07-28 client: no `initialize`; each call carries its revision, capabilities and `clientInfo`. */
async function statelessCall(server: McpServer, capabilities: Params, name: string): Promise<Params> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const _meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: capabilities,
    [META.clientInfo]: { name: "test-client", version: "1.0.0" },
  };
  try {
    return await client.request("tools/call", { name, arguments: {}, _meta });
  } finally {
    await client.close();
  }
}

/** The inbox answer: `isError`, naming exactly the inbox URL, and no id, token or connect URL. */
async function expectInboxAnswer(result: Params, manager: InteractionManager): Promise<void> {
  const text = textOf(result);
  expect(result.isError).toBe(true);
  expect(urlsIn(text)).toEqual([INBOX]);
  expect(text).toContain(CONNECT_MESSAGE);
  expect(text).toMatch(/sign in/);
  expect(text).toMatch(/ask again/);
  const open = await manager.openFor(LOCAL_USER);
  expect(open).toHaveLength(1);
  const [interaction] = open;
  // Kept for the user, pending, and nothing of it on the wire.
  expect(interaction).toMatchObject({ status: "pending", user: LOCAL_USER, clientName: "test-client" });
  expect(text).not.toContain(interaction?.id);
  expect(text).not.toContain(CONNECT_URL);
  expect(JSON.stringify(result)).not.toContain(interaction?.id);
}

describe("the hand-off ladder, one rung each", () => {
  it("rung 1: a client that declared URL elicitation is asked in-band with elicitation/create of mode url", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX } });
    let asked: Params | undefined;
    const peer = await connectPeer(server, {
      capabilities: CAPS.urlElicitation,
      handlers: {
        "elicitation/create": async (params) => {
          asked = params;
          return { action: "accept" };
        },
      },
    });
    const result = call(peer, "connect");
    const id = await until(() => asked?.elicitationId as string | undefined);
    expect(asked).toMatchObject({ mode: "url", url: CONNECT_URL, message: CONNECT_MESSAGE });
    await until(async () => ((await manager.get(id))?.status === "accepted" ? true : undefined));
    await manager.complete(id, { user: LOCAL_USER });
    expect(textOf(await result)).toBe("linked");
  });

  it("rung 2: where the request cannot ask in-band, the same client gets -32042 naming the page", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX } });
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const error = (await call(peer, "repos").catch((e: unknown) => e)) as UrlElicitationRequiredError;
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    expect(error.code).toBe(-32042);
    expect(error.elicitations[0]).toMatchObject({ mode: "url", url: CONNECT_URL });
  });

  it("rung 3: a client that declared userInteraction gets interaction/create, and -32003 where it cannot be asked", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX } });
    let asked: Params | undefined;
    const peer = await connectPeer(server, {
      capabilities: CAPS.userInteraction,
      handlers: {
        "interaction/create": async (params) => {
          asked = params;
          return {};
        },
      },
    });
    const result = call(peer, "connect");
    const id = await until(() => asked?.id as string | undefined);
    expect(asked).toMatchObject({ type: "ua", interaction: { url: CONNECT_URL } });
    await until(async () => ((await manager.get(id))?.status === "accepted" ? true : undefined));
    await manager.complete(id, { user: LOCAL_USER });
    expect(textOf(await result)).toBe("linked");
    const refused = (await call(peer, "repos").catch((e: unknown) => e)) as ProtocolError;
    expect(refused.code).toBe(-32003);
    expect(sentMethods(peer)).not.toContain("elicitation/create");
  });

  for (const [declared, capabilities] of [
    ["elicitation: {} (form only)", FORM_ONLY],
    ["elicitation: { form: {} }", FORM_MODE],
    ["no elicitation at all", CAPS.none],
  ] as const) {
    it(`rung 4, inbox on: a client declaring ${declared} gets a tool error naming only the inbox URL`, async () => {
      const { manager } = createManager();
      const { server } = ladderServer(manager, { inbox: { url: INBOX } });
      const peer = await connectPeer(server, { capabilities });
      await expectInboxAnswer(await call(peer, "repos"), manager);
      // Nothing was asked of the client, and no message carried the connect page.
      expect(sentMethods(peer).filter((method) => method !== "notifications/message")).toEqual([]);
      expect(JSON.stringify(peer.log)).not.toContain(CONNECT_URL);
    });
  }

  it("rung 4, inbox on: ctx.interact with such a client ends in the same inbox answer", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX } });
    const peer = await connectPeer(server, { capabilities: CAPS.none });
    await expectInboxAnswer(await call(peer, "connect"), manager);
  });

  it("rung 4, inbox on: a 2026-07-28 request without URL elicitation gets the inbox answer too", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX } });
    await expectInboxAnswer(await statelessCall(server, FORM_ONLY, "repos"), manager);
  });

  it("rung 4, then the retry: once the user completed it from the inbox, the same call succeeds", async () => {
    const { manager } = createManager();
    const { server, state } = ladderServer(manager, { inbox: { url: INBOX } });
    const peer = await connectPeer(server, { capabilities: CAPS.none });
    await expectInboxAnswer(await call(peer, "repos"), manager);
    const [waiting] = await manager.openFor(LOCAL_USER);
    // What the connect page does once the user finished it.
    await manager.complete(waiting?.id ?? "", { user: LOCAL_USER });
    state.linked = true;
    expect(await manager.openFor(LOCAL_USER)).toEqual([]);
    const retried = await call(peer, "repos");
    expect(retried.isError).toBeUndefined();
    expect(textOf(retried)).toBe("octo/hello-world");
  });

  for (const [declared, capabilities] of [
    ["elicitation: {}", FORM_ONLY],
    ["no elicitation", CAPS.none],
  ] as const) {
    it(`inbox off: a client declaring ${declared} gets today's error, without any URL, and nothing is kept`, async () => {
      const { manager } = createManager();
      const { server } = ladderServer(manager);
      const peer = await connectPeer(server, { capabilities });
      for (const tool of ["repos", "connect"]) {
        const result = await call(peer, tool);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/cannot open the page/);
        expect(urlsIn(textOf(result))).toEqual([]);
      }
      expect(await manager.openFor(LOCAL_USER)).toEqual([]);
    });
  }
});

describe("the server's choice of form, by clientInfo", () => {
  it("forces the inbox for a client named so, though it declared URL elicitation; other clients keep their rung", async () => {
    const { manager } = createManager();
    const seen: unknown[] = [];
    const { server } = ladderServer(manager, {
      inbox: { url: INBOX },
      formFor: (client, capabilities) => {
        seen.push({ client, capabilities });
        return client?.name === "test-client" ? "inbox" : undefined;
      },
    });
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    await expectInboxAnswer(await call(peer, "repos"), manager);
    expect(seen).toContainEqual({
      client: { name: "test-client", version: "1.0.0" },
      capabilities: CAPS.urlElicitation,
    });
    // Positive control: with the choice left to the ladder, the same client gets -32042.
    const { server: plain } = ladderServer(createManager().manager, { inbox: { url: INBOX } });
    const other = await connectPeer(plain, { capabilities: CAPS.urlElicitation });
    expect(await call(other, "repos").catch((e: unknown) => e)).toBeInstanceOf(UrlElicitationRequiredError);
  });

  it("prefers user interaction for a client that declared both, and ignores a form the client did not declare", async () => {
    const handoffs: HandoffLadderOptions = {
      inbox: { url: INBOX },
      formFor: (_client, capabilities) =>
        (capabilities as Params).userInteraction ? "user-interaction" : "url-elicitation",
    };
    const both = await connectPeer(ladderServer(createManager().manager, handoffs).server, { capabilities: BOTH });
    expect(((await call(both, "repos").catch((e: unknown) => e)) as ProtocolError).code).toBe(-32003);
    // Positive control: left to the ladder, URL elicitation wins for that client.
    const plain = await connectPeer(ladderServer(createManager().manager).server, { capabilities: BOTH });
    expect(await call(plain, "repos").catch((e: unknown) => e)).toBeInstanceOf(UrlElicitationRequiredError);
    // "url-elicitation" for a client that declared none of it: the ladder stands, down to the inbox.
    const { manager } = createManager();
    const none = await connectPeer(ladderServer(manager, handoffs).server, { capabilities: CAPS.none });
    await expectInboxAnswer(await call(none, "repos"), manager);
  });

  it("turns hand-offs off for a client with none, and counts inbox without an inbox URL as none", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, { inbox: { url: INBOX }, formFor: () => "none" });
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const result = await call(peer, "repos");
    expect(textOf(result)).toMatch(/cannot open the page/);
    expect(urlsIn(textOf(result))).toEqual([]);
    const { server: noInbox } = ladderServer(manager, { formFor: () => "inbox" });
    const other = await connectPeer(noInbox, { capabilities: CAPS.urlElicitation });
    expect(textOf(await call(other, "repos"))).toMatch(/cannot open the page/);
    expect(await manager.openFor(LOCAL_USER)).toEqual([]);
  });

  it("reports a formFor that throws, and lets the ladder choose", async () => {
    const { manager } = createManager();
    const reported: string[] = [];
    const server = new McpServer(
      { name: "ladder", version: "1.0.0" },
      {
        interactions: manager,
        handoffs: {
          inbox: { url: INBOX },
          formFor: () => {
            throw new Error("no table today");
          },
        },
        logger: { ...silent, error: (_fields: object, message?: string) => void reported.push(message ?? "") },
      },
    );
    server.registerTool("repos", {}, () => {
      throw new InteractionRequired({ url: CONNECT_URL, message: CONNECT_MESSAGE });
    });
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    expect(await call(peer, "repos").catch((e: unknown) => e)).toBeInstanceOf(UrlElicitationRequiredError);
    expect(reported).toEqual([expect.stringContaining("handoffs.formFor threw")]);
  });

  it("applies to a 2026-07-28 request by the clientInfo in its _meta", async () => {
    const { manager } = createManager();
    const { server } = ladderServer(manager, {
      inbox: { url: INBOX },
      formFor: (client) => (client?.name === "test-client" ? "inbox" : undefined),
    });
    await expectInboxAnswer(await statelessCall(server, CAPS.urlElicitation, "repos"), manager);
  });

  it("applies on an instance that did not answer the session's initialize, by the clientInfo recorded", async () => {
    const { manager } = createManager();
    const seen: unknown[] = [];
    const { server } = ladderServer(manager, {
      inbox: { url: INBOX },
      formFor: (client) => {
        seen.push(client);
        return client?.name === "test-client" ? "inbox" : undefined;
      },
    });
    // A fleet's replica: the session was opened by `initialize` on another instance, as recorded.
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    const replica = Object.assign(serverEnd, {
      presumedHandshake: {
        protocolVersion: "2025-11-25",
        session: {
          clientCapabilities: CAPS.userInteraction,
          clientInfo: { name: "test-client", version: "1.0.0" },
          subscriptions: [],
        },
      },
    });
    await server.connect(replica);
    const client = new JsonRpcSession();
    await client.connect(clientEnd);
    try {
      await expectInboxAnswer(await call({ client } as Peer, "repos"), manager);
      expect(seen).not.toContain(undefined);
    } finally {
      await client.close();
    }
  });
});

describe("the inbox URL", () => {
  it("must be absolute http(s) without a query or fragment, where an id or a token could hide", () => {
    const { manager } = createManager();
    for (const url of ["/connect/inbox", "javascript:alert(1)", `${INBOX}?id=abc`, `${INBOX}#token`, `${INBOX}?`]) {
      expect(() => ladderServer(manager, { inbox: { url } }), url).toThrow(TypeError);
    }
    expect(() => ladderServer(manager, { inbox: { url: INBOX } })).not.toThrow();
  });
});
