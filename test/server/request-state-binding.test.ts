/**
 * Revision 2026-07-28 on `McpServer`: the `requestState` of an `InputRequiredResult` is sealed
 * and bound to the user, the original request and the exact question asked (spec 2026-07-28:
 * basic/patterns/mrtr § Server Requirements). Every attack is refused with -32602 and a message
 * that reveals nothing sealed, the connection goes on serving, and each has its control: the same
 * retry without the attack completes.
 */
import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import type { AuthInfo } from "../../src/model/identity.js";
import { META, type RequestStateKey } from "../../src/revisions/index.js";
import { McpServer, type McpServerOptions } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { AuthenticatedTransport, createManager } from "../interaction/server/support.js";

const OLD: RequestStateKey = { id: "old", key: new Uint8Array(32).fill(1) };
const NEW: RequestStateKey = { id: "new", key: new Uint8Array(32).fill(2) };
const ISSUER = "https://as.example.com";
const CONFIRM = {
  type: "object",
  properties: { confirm: { type: "boolean" } },
  required: ["confirm"],
} as const;

/** A shop whose `buy` asks to confirm the price, which the shop may change between rounds. */
function shop(options: McpServerOptions = {}) {
  const prices: Record<string, number> = { book: 5 };
  const server = new McpServer({ name: "shop", version: "1" }, { requestStateKeys: [OLD], ...options });
  server.registerTool(
    "buy",
    {
      description: "Buys an item",
      inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    },
    async (args, ctx) => {
      const item = String(args.item);
      const answer = await ctx.elicit(
        { message: `Pay ${prices[item]} EUR for the ${item}?`, requestedSchema: CONFIRM },
        { inputKey: "confirm" },
      );
      const paid = answer.action === "accept" && answer.content?.confirm === true;
      return {
        content: [{ type: "text", text: paid ? `Bought the ${item} for ${prices[item]} EUR.` : "Nothing bought." }],
      };
    },
  );
  server.registerTool("gift", { description: "Gives an item away" }, async () => ({
    content: [{ type: "text", text: "Given away." }],
  }));
  return { server, prices };
}

/** A stateless client whose messages reach the server as `subject`'s (or as no one's, without one). */
async function clientAs(server: McpServer, subject?: string) {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const authInfo: AuthInfo | undefined =
    subject === undefined ? undefined : { token: `token-${subject}`, issuer: ISSUER, subject };
  await server.connect(new AuthenticatedTransport(serverEnd, authInfo));
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: { elicitation: { form: {} } },
    [META.clientInfo]: { name: "t", version: "1" },
  };
  return (name: string, args: Params, retry: Params = {}) =>
    client.request("tools/call", { name, arguments: args, ...retry, _meta: meta });
}

const yes = (first: Params) => ({
  inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
  requestState: first.requestState,
});

function textOf(result: Params): unknown {
  return (result.content as { text?: string }[] | undefined)?.[0]?.text;
}

describe("a requestState bound to its user, request and question", () => {
  it("control: alice's retry with her state completes", async () => {
    const { server } = shop();
    const alice = await clientAs(server, "alice");
    const first = await alice("buy", { item: "book" });
    expect(first.resultType).toBe("input_required");
    expect(textOf(await alice("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
  });

  it("attack: another user replaying alice's state is refused; both connections go on serving", async () => {
    const { server } = shop();
    const alice = await clientAs(server, "alice");
    const mallory = await clientAs(server, "mallory");
    const first = await alice("buy", { item: "book" });
    await expect(mallory("buy", { item: "book" }, yes(first))).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: requestState was issued to another user",
    });
    expect((await mallory("buy", { item: "book" })).resultType).toBe("input_required");
    expect(textOf(await alice("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
  });

  it("attack: the state on another tool or with other arguments is refused", async () => {
    const { server, prices } = shop();
    prices.car = 5;
    const alice = await clientAs(server, "alice");
    const first = await alice("buy", { item: "book" });
    for (const [name, args] of [
      ["gift", {}],
      ["buy", { item: "car" }],
    ] as const) {
      await expect(alice(name, args, yes(first))).rejects.toMatchObject({
        code: -32602,
        message: "Invalid params: requestState was issued for another request",
      });
    }
    expect(textOf(await alice("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
  });

  it("attack: an answer to the question as first asked is refused once the question changed", async () => {
    const { server, prices } = shop();
    const alice = await clientAs(server, "alice");
    const first = await alice("buy", { item: "book" });
    prices.book = 500;
    await expect(alice("buy", { item: "book" }, yes(first))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("requestState was issued for another question under inputResponses.confirm"),
    });
    // Control: the question as asked now, answered, completes.
    const again = await alice("buy", { item: "book" });
    expect(again.inputRequests).toMatchObject({ confirm: { params: { message: "Pay 500 EUR for the book?" } } });
    expect(textOf(await alice("buy", { item: "book" }, yes(again)))).toBe("Bought the book for 500 EUR.");
  });

  it("attack: a handler that catches the refusal of a swapped answer still ends with it", async () => {
    const { server } = shop();
    let price = 5;
    server.registerTool("careless", { description: "Swallows errors" }, async (_args, ctx) => {
      try {
        await ctx.elicit({ message: `Pay ${price} EUR?`, requestedSchema: CONFIRM }, { inputKey: "confirm" });
        return { content: [{ type: "text", text: `Paid ${price} EUR.` }] };
      } catch (error) {
        if (!(error instanceof Error) || !/another question/.test(error.message)) throw error;
        return { content: [{ type: "text", text: `Paid ${price} EUR anyway.` }] };
      }
    });
    const alice = await clientAs(server, "alice");
    const first = await alice("careless", {});
    expect(textOf(await alice("careless", {}, yes(first)))).toBe("Paid 5 EUR.");
    price = 500;
    await expect(alice("careless", {}, yes(first))).rejects.toMatchObject({ code: -32602 });
  });

  it("expires: the retry opens until requestStateTtlMs has passed, then is refused", async () => {
    let now = 1_000;
    const { server } = shop({ requestStateTtlMs: 60_000, now: () => now });
    const alice = await clientAs(server, "alice");
    const first = await alice("buy", { item: "book" });
    now += 59_999;
    expect(textOf(await alice("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
    now += 1;
    await expect(alice("buy", { item: "book" }, yes(first))).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: requestState has expired; call again without it",
    });
  });

  it("binds a request without authorization to the local user of the instance", async () => {
    const localOf = async (subject: string) => {
      const { manager } = createManager({ unsafeLocalUser: { issuer: "local", subject } });
      return clientAs(shop({ interactions: manager }).server);
    };
    const alicesLaptop = await localOf("alice");
    const alicesDesktop = await localOf("alice");
    const bobsLaptop = await localOf("bob");
    const first = await alicesLaptop("buy", { item: "book" });
    await expect(bobsLaptop("buy", { item: "book" }, yes(first))).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: requestState was issued to another user",
    });
    expect(textOf(await alicesDesktop("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
  });
});

describe("requestState keys across instances", () => {
  it("rotates: a state sealed under the old key opens where the new key is first, not where the old one is gone", async () => {
    const before = await clientAs(shop({ requestStateKeys: [OLD] }).server, "alice");
    const rotated = await clientAs(shop({ requestStateKeys: [NEW, OLD] }).server, "alice");
    const retired = await clientAs(shop({ requestStateKeys: [NEW] }).server, "alice");
    const first = await before("buy", { item: "book" });
    expect(textOf(await rotated("buy", { item: "book" }, yes(first)))).toBe("Bought the book for 5 EUR.");
    await expect(retired("buy", { item: "book" }, yes(first))).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: requestState was not issued by this server or was altered",
    });
    // Sealed after the rotation, under the new key: every rotated instance opens it.
    const next = await rotated("buy", { item: "book" });
    expect(textOf(await retired("buy", { item: "book" }, yes(next)))).toBe("Bought the book for 5 EUR.");
  });

  it("refuses at startup a key that is not 32 bytes, a repeated id, or both options at once", () => {
    const bad: McpServerOptions[] = [
      { requestStateKeys: [{ id: "a", key: new Uint8Array(16) }] },
      { requestStateKeys: [OLD, { id: OLD.id, key: NEW.key }] },
      { requestStateSecret: new Uint8Array(64) },
      { requestStateKeys: [OLD], requestStateSecret: NEW.key },
    ];
    for (const options of bad) {
      expect(() => new McpServer({ name: "s", version: "1" }, options)).toThrow(SdkError);
    }
    expect(() => new McpServer({ name: "s", version: "1" }, { requestStateKeys: [OLD, NEW.key] })).not.toThrow();
  });
});
