/**
 * Hand-offs stay with the user and the session they were created for: completion reaches only
 * the owning session, only the owning user may complete, tracking someone else's interaction
 * reveals nothing, and nothing is started without a verified user or with a URL in the message.
 * (Form-mode elicitation with a URL in its message or schema is refused locally too:
 * test/server/context.test.ts, "refuses a nested schema and a URL in the message or the schema's
 * texts locally".)
 */
import { describe, expect, it } from "vitest";
import { InteractionError } from "../../../src/interaction/server/index.js";
import { ProtocolError, type UrlElicitationRequiredError } from "../../../src/jsonrpc/errors.js";
import type { Params } from "../../../src/jsonrpc/session.js";
import { InteractionRequired } from "../../../src/server/index.js";
import { CAPS, connectPeer, createManager, flush, newServer, type Peer, until } from "./support.js";
import { callTool, handoffServer } from "./tools.js";

const ISSUER = "https://auth.example.com";
const auth = (subject: string) => ({ token: `token-${subject}`, issuer: ISSUER, subject });
const text = (result: Params) => (result.content as { text: string }[]).map((c) => c.text).join("\n");

async function requiredId(peer: Peer): Promise<string> {
  const error = (await callTool(peer.client, "repos").catch((e: unknown) => e)) as ProtocolError;
  if ("elicitations" in error) return (error as UrlElicitationRequiredError).elicitations[0]?.elicitationId ?? "";
  return (error.data as { id: string }).id;
}

describe("completion", () => {
  it("reaches only the owning session, even when the bus names its id on another session's channel", async () => {
    const { manager, bus } = createManager();
    const { server } = handoffServer(manager);
    const alice = await connectPeer(server, { capabilities: CAPS.urlElicitation, authInfo: auth("alice") });
    const bob = await connectPeer(server, { capabilities: CAPS.urlElicitation, authInfo: auth("bob") });
    const aliceId = await requiredId(alice);
    await requiredId(bob);
    await bus.publish(
      `mcp-handoff:interactions:${bob.session.id}`,
      JSON.stringify({ id: aliceId, status: "completed" }),
    );
    await manager.complete(aliceId, { user: { issuer: ISSUER, subject: "alice" } });
    await until(() => alice.notifications("notifications/elicitation/complete")[0]);
    await bus.publish(
      `mcp-handoff:interactions:${bob.session.id}`,
      JSON.stringify({ id: aliceId, status: "completed" }),
    );
    await flush();
    expect(alice.notifications("notifications/elicitation/complete")).toEqual([{ elicitationId: aliceId }]);
    expect(bob.notifications("notifications/elicitation/complete")).toEqual([]);
  });

  it("by another user is refused: nothing changes and nothing is sent", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const alice = await connectPeer(server, { capabilities: CAPS.urlElicitation, authInfo: auth("alice") });
    const id = await requiredId(alice);
    const error = await manager.complete(id, { user: { issuer: ISSUER, subject: "bob" } }).catch((e: unknown) => e);
    expect((error as InteractionError).code).toBe("NOT_FOUND");
    expect((await manager.get(id))?.status).toBe("pending");
    await flush();
    expect(alice.notifications("notifications/elicitation/complete")).toEqual([]);
  });

  it("is refused once the interaction expired", async () => {
    const { manager, clock } = createManager();
    const { server } = handoffServer(manager);
    const alice = await connectPeer(server, { capabilities: CAPS.urlElicitation, authInfo: auth("alice") });
    const id = await requiredId(alice);
    clock.advance(10 * 60_000);
    const error = await manager.complete(id, { user: { issuer: ISSUER, subject: "alice" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InteractionError);
    expect((error as InteractionError).code).toBe("EXPIRED");
    await flush();
    expect(alice.notifications("notifications/elicitation/complete")).toEqual([]);
  });
});

describe("interaction/track", () => {
  it("refuses an id of another user or another session like an unknown one, and sends no progress", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const alice = await connectPeer(server, { capabilities: CAPS.userInteraction, authInfo: auth("alice") });
    const id = await requiredId(alice);
    const bob = await connectPeer(server, { capabilities: CAPS.userInteraction, authInfo: auth("bob") });
    const aliceElsewhere = await connectPeer(server, { capabilities: CAPS.userInteraction, authInfo: auth("alice") });
    const refusals: unknown[] = [];
    for (const [peer, tracked] of [
      [bob, id],
      [aliceElsewhere, id],
      [bob, "unknown-id"],
    ] as const) {
      const progress: unknown[] = [];
      const error = await peer.client
        .request("interaction/track", { id: tracked }, { onprogress: (p) => progress.push(p) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      refusals.push({ code: (error as ProtocolError).code, message: (error as ProtocolError).message });
      expect(progress).toEqual([]);
      expect(peer.notifications("notifications/progress")).toEqual([]);
    }
    expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(refusals[0]).toMatchObject({ code: -32602 });
    expect(JSON.stringify(refusals)).not.toContain(id);
  });

  it("does not exist for a client that did not declare userInteraction (-32601)", async () => {
    const { manager } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const error = await peer.client
      .request("interaction/track", { id: "x", _meta: { progressToken: 1 } })
      .catch((e: unknown) => e);
    expect((error as ProtocolError).code).toBe(-32601);
  });

  it("reports an expired interaction without full progress and ends", async () => {
    const { manager, clock } = createManager();
    const { server } = handoffServer(manager);
    const peer = await connectPeer(server, { capabilities: CAPS.userInteraction });
    const id = await requiredId(peer);
    clock.advance(10 * 60_000);
    const progress: { progress: number; total?: number }[] = [];
    await expect(
      peer.client.request("interaction/track", { id }, { onprogress: (p) => progress.push(p) }),
    ).resolves.toEqual({});
    expect(progress).toEqual([{ progress: 0, total: 2, message: "The interaction expired before it was completed." }]);
  });
});

describe("starting a hand-off", () => {
  it("needs a verified user: no authorization and no local user, or authorization without a subject", async () => {
    const { manager, store } = createManager({ unsafeLocalUser: undefined });
    const { server } = handoffServer(manager);
    const anonymous = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const noSubject = await connectPeer(server, {
      capabilities: CAPS.urlElicitation,
      authInfo: { token: "t", issuer: ISSUER },
    });
    for (const peer of [anonymous, noSubject]) {
      const result = await callTool(peer.client, "repos");
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/no verified user/);
    }
    expect(await store.purgeExpired(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("refuses a URL in the message locally, whether asked or thrown", async () => {
    const { manager, store } = createManager();
    const server = newServer(manager);
    const message = "Sign in at https://evil.example/login first.";
    server.registerTool("ask", {}, async (_args, ctx) => {
      await ctx.interact({ url: "https://mcp.example.com/connect", message });
      return { content: [] };
    });
    server.registerTool("throw", {}, () => {
      throw new InteractionRequired({ url: "https://mcp.example.com/connect", message });
    });
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation, handlers: {} });
    for (const name of ["ask", "throw"]) {
      const result = await callTool(peer.client, name);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/must not contain a URL/);
      expect(text(result)).not.toContain("evil.example");
    }
    expect(peer.log.some(({ message: m }) => "method" in m && m.method === "elicitation/create")).toBe(false);
    expect(await store.purgeExpired(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it("without the interactions option fails locally with a tool error", async () => {
    const { server } = handoffServer(undefined);
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const result = await callTool(peer.client, "repos");
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/interactions/);
  });
});
