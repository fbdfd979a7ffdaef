import { describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { Params } from "../../src/jsonrpc/session.js";
import { McpServer, type RequestContext } from "../../src/server/index.js";
import { connectClient, flush, until } from "./support.js";

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/** A server with one tool whose body the test supplies. */
function serverWith(body: (ctx: RequestContext) => Promise<string> | string) {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("run", {}, async (_args, ctx) => text(await body(ctx)));
  return server;
}

const call = (client: { request: (m: string, p?: Params) => Promise<Params> }) =>
  client.request("tools/call", { name: "run", arguments: {} });

const requestsSent = (received: { method?: string; id?: unknown }[], method: string) =>
  received.filter((m) => m.method === method && "id" in m);

describe("logging", () => {
  it("sends every level until the client sets one, then only that level and above", async () => {
    const server = serverWith(async (ctx) => {
      await ctx.log("debug", "d");
      await ctx.log("info", { step: 1 }, "db");
      await ctx.log("error", "e");
      return "done";
    });
    const { client, notifications } = await connectClient(server);
    await call(client);
    expect(notifications("notifications/message")).toEqual([
      { level: "debug", data: "d" },
      { level: "info", logger: "db", data: { step: 1 } },
      { level: "error", data: "e" },
    ]);
    await client.request("logging/setLevel", { level: "warning" });
    await call(client);
    expect(notifications("notifications/message").slice(3)).toEqual([{ level: "error", data: "e" }]);
  });

  it("answers -32602 to an unknown level", async () => {
    const { client } = await connectClient(serverWith(() => ""));
    await expect(client.request("logging/setLevel", { level: "verbose" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("progress", () => {
  it("reaches the caller that asked for it, and nothing is sent otherwise", async () => {
    const server = serverWith(async (ctx) => {
      await ctx.progress(1, 2, "half");
      await ctx.progress(2, 2);
      return "done";
    });
    const { client, notifications } = await connectClient(server);
    const seen: unknown[] = [];
    await client.request("tools/call", { name: "run", arguments: {} }, { onprogress: (p) => seen.push(p) });
    expect(seen).toEqual([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2 },
    ]);
    const before = notifications("notifications/progress").length;
    await call(client);
    expect(notifications("notifications/progress")).toHaveLength(before);
  });
});

describe("cancellation", () => {
  it("aborts the tool's signal when the client cancels", async () => {
    let aborted: unknown;
    const server = serverWith(
      (ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = ctx.signal.reason;
            resolve("stopped");
          });
        }),
    );
    const { client } = await connectClient(server);
    const controller = new AbortController();
    const pending = client.request("tools/call", { name: "run", arguments: {} }, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "REQUEST_CANCELLED" });
    await until(() => aborted);
    expect(aborted).toBeInstanceOf(SdkError);
  });
});

const contactSchema = {
  type: "object" as const,
  properties: {
    name: { type: "string" as const, minLength: 1 },
    email: { type: "string" as const, format: "email" as const },
    newsletter: { type: "boolean" as const, default: false },
  },
  required: ["name", "email"],
};

describe("form elicitation", () => {
  it("sends the request, applies defaults to accepted content and returns it", async () => {
    let result: unknown;
    const server = serverWith(async (ctx) => {
      result = await ctx.elicit({ message: "Who are you?", requestedSchema: contactSchema });
      return "ok";
    });
    let asked: Params | undefined;
    const { client } = await connectClient(server, {
      capabilities: { elicitation: {} },
      handlers: {
        "elicitation/create": (params) => {
          asked = params;
          return { action: "accept", content: { name: "Ada", email: "ada@example.com" } };
        },
      },
    });
    await call(client);
    expect(asked).toEqual({ message: "Who are you?", requestedSchema: contactSchema });
    expect(result).toEqual({
      action: "accept",
      content: { name: "Ada", email: "ada@example.com", newsletter: false },
    });
  });

  it("rejects accepted content that does not match the schema", async () => {
    const server = serverWith(async (ctx) => {
      await ctx.elicit({ message: "Who are you?", requestedSchema: contactSchema });
      return "ok";
    });
    const { client } = await connectClient(server, {
      capabilities: { elicitation: { form: {} } },
      handlers: { "elicitation/create": () => ({ action: "accept", content: { name: "Ada", email: "nope" } }) },
    });
    const result = await call(client);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/elicitation content is invalid: content\.email/);
  });

  it("returns decline and cancel as they are", async () => {
    const actions: unknown[] = [];
    const server = serverWith(async (ctx) => {
      actions.push(await ctx.elicit({ message: "Again?", requestedSchema: contactSchema }));
      return "ok";
    });
    const answers = [{ action: "decline" }, { action: "cancel" }];
    const { client } = await connectClient(server, {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => answers.shift() ?? {} },
    });
    await call(client);
    await call(client);
    expect(actions).toEqual([{ action: "decline" }, { action: "cancel" }]);
  });

  it("hands the handler no content with a decline or a cancel, whatever the client sent with it", async () => {
    const seen: unknown[] = [];
    const server = serverWith(async (ctx) => {
      const answer = await ctx.elicit({ message: "Who are you?", requestedSchema: contactSchema });
      seen.push(answer);
      return answer.action === "accept" ? `Hello, ${answer.content?.name}` : "Hello, stranger";
    });
    const mallory = { name: "Mallory", email: "mallory@example.com" };
    const answers = [
      { action: "decline", content: mallory },
      { action: "cancel", content: mallory },
      { action: "accept", content: mallory },
    ];
    const { client } = await connectClient(server, {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => answers.shift() ?? {} },
    });
    await expect(call(client)).resolves.toEqual(text("Hello, stranger"));
    await expect(call(client)).resolves.toEqual(text("Hello, stranger"));
    // The control: the same content with accept is handed over.
    await expect(call(client)).resolves.toEqual(text("Hello, Mallory"));
    expect(seen).toEqual([
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { ...mallory, newsletter: false } },
    ]);
  });

  it("refuses a nested schema and a URL in the message or the schema's texts locally", async () => {
    const errors: string[] = [];
    const server = serverWith(async (ctx) => {
      const attempts = [
        () =>
          ctx.elicit({
            message: "Address?",
            requestedSchema: { type: "object", properties: { address: { type: "object" } as never } },
          }),
        () => ctx.elicit({ message: "Log in at https://evil.example/login", requestedSchema: contactSchema }),
        () =>
          ctx.elicit({
            message: "Your key?",
            requestedSchema: {
              type: "object",
              properties: { key: { type: "string", description: "Create one at evil.com/keys" } },
            },
          }),
      ];
      for (const attempt of attempts) {
        await attempt().catch((e: SdkError) => errors.push(`${e.code}: ${e.message}`));
      }
      return "ok";
    });
    const { client, received } = await connectClient(server, {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => ({ action: "cancel" }) },
    });
    await call(client);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^INVALID_ARGUMENT: Invalid requestedSchema/);
    expect(errors[1]).toMatch(/^INVALID_ARGUMENT: .*must not contain a URL/);
    expect(errors[2]).toMatch(/^INVALID_ARGUMENT: The titles and descriptions .* must not contain a URL/);
    expect(requestsSent(received, "elicitation/create")).toEqual([]);
  });

  it("fails locally, sending nothing, when the client declared no elicitation; the call is answered -32021", async () => {
    const server = serverWith(async (ctx) => {
      await ctx.elicit({ message: "Name?", requestedSchema: contactSchema });
      return "ok";
    });
    const { client, received } = await connectClient(server);
    await expect(call(client)).rejects.toMatchObject({
      code: -32021,
      message: expect.stringMatching(/did not declare the elicitation/),
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(requestsSent(received, "elicitation/create")).toEqual([]);
  });
});

describe("URL elicitation", () => {
  it("generates an elicitationId, returns it, and completes it on that session only", async () => {
    let id: string | undefined;
    const server = serverWith(async (ctx) => {
      const result = await ctx.elicit({ mode: "url", url: "https://example.com/connect", message: "Connect GitHub." });
      id = result.elicitationId;
      await ctx.session.notifyElicitationComplete(result.elicitationId);
      return result.action;
    });
    let asked: Params | undefined;
    const handlers = {
      "elicitation/create": (params: Params) => {
        asked = params;
        return { action: "accept" };
      },
    };
    const capabilities = { elicitation: { url: {} } };
    const alice = await connectClient(server, { capabilities, handlers });
    const bob = await connectClient(server, { capabilities, handlers });
    await expect(call(alice.client)).resolves.toEqual(text("accept"));
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(asked).toEqual({
      mode: "url",
      url: "https://example.com/connect",
      message: "Connect GitHub.",
      elicitationId: id,
    });
    await until(() => alice.notifications("notifications/elicitation/complete")[0]);
    expect(alice.notifications("notifications/elicitation/complete")).toEqual([{ elicitationId: id }]);
    expect(bob.notifications("notifications/elicitation/complete")).toEqual([]);
  });

  it("keeps a given elicitationId", async () => {
    const server = serverWith(async (ctx) => {
      const r = await ctx.elicit({ mode: "url", elicitationId: "mine", url: "https://a.example/", message: "Go." });
      return r.elicitationId;
    });
    const { client } = await connectClient(server, {
      capabilities: { elicitation: { form: {}, url: {} } },
      handlers: { "elicitation/create": () => ({ action: "decline" }) },
    });
    await expect(call(client)).resolves.toEqual(text("mine"));
  });

  it("returns no content with a URL-mode answer, which has none (only a form's accept does)", async () => {
    const seen: unknown[] = [];
    const server = serverWith(async (ctx) => {
      seen.push(await ctx.elicit({ mode: "url", elicitationId: "e1", url: "https://a.example/", message: "Go." }));
      return "ok";
    });
    const answers = [
      { action: "decline", content: { name: "Mallory" } },
      { action: "accept", content: { name: "Mallory" } },
    ];
    const { client } = await connectClient(server, {
      capabilities: { elicitation: { url: {} } },
      handlers: { "elicitation/create": () => answers.shift() ?? {} },
    });
    await call(client);
    await call(client);
    expect(seen).toEqual([
      { action: "decline", elicitationId: "e1" },
      { action: "accept", elicitationId: "e1" },
    ]);
  });

  it("fails locally with CAPABILITY_NOT_SUPPORTED when the client declared form mode only", async () => {
    let error: unknown;
    const server = serverWith(async (ctx) => {
      error = await ctx
        .elicit({ mode: "url", url: "https://example.com/connect", message: "Connect." })
        .catch((e: unknown) => e);
      return "ok";
    });
    const { client, received } = await connectClient(server, {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => ({ action: "accept" }) },
    });
    await call(client);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
    expect(requestsSent(received, "elicitation/create")).toEqual([]);
  });

  it("refuses a URL in the message", async () => {
    let error: unknown;
    const server = serverWith(async (ctx) => {
      error = await ctx
        .elicit({ mode: "url", url: "https://example.com/connect", message: "Open example.com/connect" })
        .catch((e: unknown) => e);
      return "ok";
    });
    const { client, received } = await connectClient(server, { capabilities: { elicitation: { url: {} } } });
    await call(client);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(requestsSent(received, "elicitation/create")).toEqual([]);
  });
});

describe("sampling and roots", () => {
  it("sends them when declared", async () => {
    const server = serverWith(async (ctx) => {
      const roots = await ctx.listRoots();
      const sample = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
        maxTokens: 10,
      });
      return JSON.stringify({ roots, sample });
    });
    const { client } = await connectClient(server, {
      capabilities: { sampling: {}, roots: {} },
      handlers: {
        "roots/list": () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
        "sampling/createMessage": () => ({ role: "assistant", content: { type: "text", text: "Hello" }, model: "m" }),
      },
    });
    const result = await call(client);
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "")).toEqual({
      roots: { roots: [{ uri: "file:///work", name: "work" }] },
      sample: { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" },
    });
  });

  it("fails locally when the client did not declare them", async () => {
    const codes: string[] = [];
    const server = serverWith(async (ctx) => {
      await ctx.listRoots().catch((e: SdkError) => codes.push(e.code));
      await ctx
        .sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 10 })
        .catch((e: SdkError) => codes.push(e.code));
      return "ok";
    });
    const { client, received } = await connectClient(server);
    await call(client);
    expect(codes).toEqual(["CAPABILITY_NOT_SUPPORTED", "CAPABILITY_NOT_SUPPORTED"]);
    expect(received.filter((m) => "method" in m && "id" in m)).toEqual([]);
  });
});

describe("the request context", () => {
  it("carries the request id, the session and the _meta of the request", async () => {
    let seen: { requestId: unknown; sessionId: string; meta: unknown } | undefined;
    const server = serverWith((ctx) => {
      seen = { requestId: ctx.requestId, sessionId: ctx.session.id, meta: ctx.meta };
      return "ok";
    });
    const { client, session } = await connectClient(server);
    await client.request("tools/call", { name: "run", arguments: {}, _meta: { trace: "t-1" } });
    expect(seen).toMatchObject({ sessionId: session.id, meta: { trace: "t-1" } });
    expect(typeof seen?.requestId).toBe("number");
  });

  it("refuses server requests before the client sent notifications/initialized", async () => {
    let error: unknown;
    const server = serverWith(async (ctx) => {
      error = await ctx.listRoots().catch((e: unknown) => e);
      return "ok";
    });
    const { client } = await connectClient(server, { initialize: false });
    await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { roots: {} },
      clientInfo: { name: "c", version: "1" },
    });
    await call(client);
    expect(error).toMatchObject({ code: "NOT_CONNECTED" });
  });
});
