/**
 * `ctx.waitForInteraction` keeps to the request's user, as `interaction/track` and the manager's
 * `complete` and `decline` do: an id of another user's interaction (a handler that waits on an id
 * its arguments name, say) is refused, and nothing of it reaches the client. Without the check, a
 * 2026-07-28 round put the other user's page, its URL and message, into this client's
 * `inputRequests`, and the stateful era handed the handler the other user's interaction.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import type { AuthInfo } from "../../src/model/identity.js";
import { isInputRequired, META } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { AuthenticatedTransport, CAPS, connectPeer, createManager } from "../interaction/server/support.js";

const ISSUER = "https://auth.example.com";
const alice = { issuer: ISSUER, subject: "alice" };
const bob = { issuer: ISSUER, subject: "bob" };
const authOf = (subject: string): AuthInfo => ({
  token: `t-${subject}`,
  clientId: "c",
  scopes: [],
  issuer: ISSUER,
  subject,
});
const ALICE_URL = "https://shop.example.com/pay/alice-order-1";

/** A tool that waits on the interaction its arguments name. */
function waitingServer() {
  const { manager } = createManager({ unsafeLocalUser: undefined });
  const server = new McpServer(
    { name: "waiter", version: "1.0.0" },
    { interactions: manager, requestStateSecret: new Uint8Array(32).fill(3) },
  );
  server.registerTool(
    "wait",
    {
      description: "Waits for an interaction",
      inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } as const,
    },
    async ({ id }, ctx) => {
      const done = await ctx.waitForInteraction(id as string);
      return { content: [{ type: "text", text: `${done.status} ${done.url} ${done.user.subject}` }] };
    },
  );
  const alicesPage = () =>
    manager.create({ url: ALICE_URL, message: "Pay for order 1.", user: alice, sessionId: "alice-session" });
  return { server, manager, alicesPage };
}

/** A stateless (2026-07-28) client of `subject`, declaring URL elicitation. */
async function statelessCall(server: McpServer, subject: string, args: Params) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(new AuthenticatedTransport(serverEnd, authOf(subject)));
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const _meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: CAPS.urlElicitation,
    [META.clientInfo]: { name: "t", version: "1" },
  };
  return client.request("tools/call", { name: "wait", arguments: args, _meta }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
}

describe("ctx.waitForInteraction on another user's interaction", () => {
  it("2026-07-28: bob's round never carries alice's page", async () => {
    const { server, alicesPage } = waitingServer();
    const page = await alicesPage();
    const { result, error } = await statelessCall(server, "bob", { id: page.id });
    const answer = JSON.stringify(result ?? (error as Error).message);
    expect(answer).not.toContain(ALICE_URL);
    expect(answer).not.toContain("Pay for order 1.");
    expect(result === undefined || !isInputRequired(result)).toBe(true);
  });

  it("2026-07-28 positive control: alice's own round asks for her page again", async () => {
    const { server, alicesPage } = waitingServer();
    const page = await alicesPage();
    const { result } = await statelessCall(server, "alice", { id: page.id });
    expect(result !== undefined && isInputRequired(result)).toBe(true);
    expect(JSON.stringify(result)).toContain(ALICE_URL);
  });

  it("stateful: bob's handler is refused alice's interaction, and alice's gets hers once completed", async () => {
    const { server, manager, alicesPage } = waitingServer();
    const page = await alicesPage();
    const bobPeer = await connectPeer(server, { authInfo: authOf("bob"), capabilities: CAPS.urlElicitation });
    const refused = (await bobPeer.client.request("tools/call", { name: "wait", arguments: { id: page.id } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(JSON.stringify(refused)).not.toContain(ALICE_URL);
    expect(refused.isError).toBe(true);

    const alicePeer = await connectPeer(server, { authInfo: authOf("alice"), capabilities: CAPS.urlElicitation });
    const waiting = alicePeer.client.request("tools/call", { name: "wait", arguments: { id: page.id } });
    await manager.complete(page.id, { user: alice });
    const done = (await waiting) as { content: { text: string }[] };
    expect(done.content[0]?.text).toBe(`completed ${ALICE_URL} alice`);
    // bob is not alice.
    expect(bob.subject).not.toBe(alice.subject);
  });
});
