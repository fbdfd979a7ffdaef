/**
 * One server API, every wire form: a real `McpServer` with an `InteractionManager`, and a bare
 * client that declared URL-mode elicitation, the user-interaction proposal, or neither.
 */
import { describe, expect, it } from "vitest";
import { ProtocolError, UrlElicitationRequiredError } from "../../../src/jsonrpc/errors.js";
import type { Params } from "../../../src/jsonrpc/session.js";
import { messageContainsUrl } from "../../../src/revisions/index.js";
import { CAPS, CONNECT_MESSAGE, CONNECT_URL, connectPeer, createManager, LOCAL_USER, until } from "./support.js";
import { callTool, handoffServer } from "./tools.js";

/** Keeps what the client was asked and answers with `result`. */
function record(asked: Params[], params: Params, result: Params): Params {
  asked.push(params);
  return result;
}

const text = (result: Params) => (result.content as { text: string }[]).map((c) => c.text).join("\n");

describe("URL-mode elicitation (2025-11-25, client declared elicitation.url)", () => {
  it("ctx.interact sends elicitation/create in URL mode and completion reaches the asking request first", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const asked: Params[] = [];
    const peer = await connectPeer(server, {
      capabilities: CAPS.urlElicitation,
      handlers: { "elicitation/create": (params) => record(asked, params, { action: "accept" }) },
    });
    const call = callTool(peer.client, "connect");
    const id = await until(() => asked[0]?.elicitationId as string | undefined);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(asked[0]).toEqual({ mode: "url", elicitationId: id, url: CONNECT_URL, message: CONNECT_MESSAGE });
    await until(async () => ((await manager.get(id))?.status === "accepted" ? true : undefined));
    await manager.complete(id, { user: LOCAL_USER });
    expect(text(await call)).toBe("GitHub is linked.");
    const order = peer.log.filter(({ from }) => from === "server").map(({ message }) => message);
    const notice = order.findIndex((m) => "method" in m && m.method === "notifications/elicitation/complete");
    const result = order.findIndex((m) => "result" in m && "content" in (m.result as object));
    expect(peer.notifications("notifications/elicitation/complete")).toEqual([{ elicitationId: id }]);
    expect(notice).toBeLessThan(result);
  });

  it("InteractionRequired becomes -32042 with the interaction as elicitation; completion goes to that session only", async () => {
    const { manager } = createManager();
    const { server, linked } = handoffServer(manager);
    const alice = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const other = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const error = await callTool(alice.client, "repos").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (error as UrlElicitationRequiredError).elicitations;
    expect(elicitation).toEqual({
      mode: "url",
      elicitationId: expect.any(String),
      url: CONNECT_URL,
      message: CONNECT_MESSAGE,
    });
    const id = elicitation?.elicitationId ?? "";
    expect((await manager.get(id))?.sessionId).toBe(alice.session.id);
    await manager.complete(id, { user: LOCAL_USER });
    await until(() => alice.notifications("notifications/elicitation/complete")[0]);
    expect(other.notifications("notifications/elicitation/complete")).toEqual([]);
    linked.add("local alice");
    expect(text(await callTool(alice.client, "repos"))).toBe("octo/hello-world");
  });
});

describe("the user-interaction proposal (client declared userInteraction.types ua)", () => {
  it("ctx.interact sends interaction/create of type ua; an empty result is accept", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const asked: Params[] = [];
    const peer = await connectPeer(server, {
      protocolVersion: "2025-06-18",
      capabilities: CAPS.userInteraction,
      handlers: { "interaction/create": (params) => record(asked, params, {}) },
    });
    const call = callTool(peer.client, "connect");
    const id = await until(() => asked[0]?.id as string | undefined);
    expect(asked[0]).toEqual({
      id,
      type: "ua",
      interaction: { url: CONNECT_URL, message: { type: "text", text: CONNECT_MESSAGE } },
    });
    await until(async () => ((await manager.get(id))?.status === "accepted" ? true : undefined));
    await manager.complete(id, { user: LOCAL_USER });
    expect(text(await call)).toBe("GitHub is linked.");
  });

  it("error -32099 from the client is decline, and the interaction is stored as declined", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const ids: string[] = [];
    const peer = await connectPeer(server, {
      capabilities: CAPS.userInteraction,
      handlers: {
        "interaction/create": (params) => {
          ids.push(params.id as string);
          throw new ProtocolError(-32099, "User did not consent to the interaction.");
        },
      },
    });
    expect(text(await callTool(peer.client, "connect"))).toBe("The user chose decline.");
    expect((await manager.get(ids[0] ?? ""))?.status).toBe("declined");
  });

  it("InteractionRequired becomes -32003 interaction_required; interaction/track reports progress to completion", async () => {
    const { manager } = createManager();
    const { server, linked } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.userInteraction });
    const error = (await callTool(peer.client, "repos").catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32003);
    expect(error.message).toBe("interaction_required");
    const data = error.data as { id: string };
    expect(data).toEqual({
      id: data.id,
      type: "ua",
      url: CONNECT_URL,
      message: { type: "text", text: CONNECT_MESSAGE },
    });
    const progress: { progress: number; total?: number }[] = [];
    const tracked = peer.client.request("interaction/track", { id: data.id }, { onprogress: (p) => progress.push(p) });
    await until(() => progress[0]);
    expect(progress).toEqual([{ progress: 0, total: 2, message: "Waiting for the user to open the page." }]);
    await manager.complete(data.id, { user: LOCAL_USER });
    expect(await tracked).toEqual({});
    expect(progress.at(-1)).toEqual({ progress: 2, total: 2, message: "Completed." });
    linked.add("local alice");
    expect(text(await callTool(peer.client, "repos"))).toBe("octo/hello-world");
  });
});

describe("a client that declared neither", () => {
  it("gets a tool error that says the client cannot open the page, with no URL anywhere", async () => {
    const { manager, bus, store } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.none });
    const result = await callTool(peer.client, "repos");
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/cannot open the page/);
    const everything = JSON.stringify(peer.log);
    expect(everything).not.toContain("mcp.example.com");
    expect(messageContainsUrl(JSON.stringify(result))).toBe(false);
    expect(bus.published).toEqual([]);
    expect(await store.purgeExpired(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("ctx.interact fails locally and sends nothing", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: { elicitation: {} } });
    const result = await callTool(peer.client, "connect");
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/cannot open the page/);
    expect(peer.log.some(({ from, message }) => from === "server" && "method" in message && "id" in message)).toBe(
      false,
    );
  });
});
