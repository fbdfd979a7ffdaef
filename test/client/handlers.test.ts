import { describe, expect, it } from "vitest";
import { type CreateMessageResult, ErrorCode, type McpClient } from "../../src/client/index.js";
import { connected, until } from "./support.js";

const SAMPLING_PARAMS = {
  messages: [{ role: "user", content: { type: "text", text: "What is 2 + 2?" } }],
  maxTokens: 50,
};

const ANSWER: CreateMessageResult = {
  role: "assistant",
  content: { type: "text", text: "4" },
  model: "test-model",
  stopReason: "endTurn",
};

async function ready(setup: (client: McpClient) => void) {
  const errors: Error[] = [];
  const pair = await connected({}, (client) => {
    client.onerror = (error) => errors.push(error);
    setup(client);
  });
  await until(() => pair.server.sent("notifications/initialized").length === 1);
  return { ...pair, errors };
}

describe("sampling handler", () => {
  it("answers sampling/createMessage with the handler's result", async () => {
    const { server } = await ready((client) => {
      client.setSamplingHandler((params, ctx) => {
        expect(params.maxTokens).toBe(50);
        expect(ctx.serverInfo.name).toBe("fake-server");
        return ANSWER;
      });
    });
    expect(server.sent("initialize")[0]?.params?.capabilities).toEqual({ sampling: {} });
    await expect(server.session.request("sampling/createMessage", SAMPLING_PARAMS)).resolves.toEqual(ANSWER);
  });

  it("answers -32602 when tools are offered but sampling.tools was not declared", async () => {
    const { server } = await ready((client) => {
      client.setSamplingHandler(() => ANSWER);
    });
    await expect(
      server.session.request("sampling/createMessage", {
        ...SAMPLING_PARAMS,
        tools: [{ name: "calc", inputSchema: { type: "object" } }],
      }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it("answers -32603 when the handler's result breaks the schema", async () => {
    const { server, errors } = await ready((client) => {
      client.setSamplingHandler(() => ({ role: "assistant" }) as unknown as CreateMessageResult);
    });
    await expect(server.session.request("sampling/createMessage", SAMPLING_PARAMS)).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
    expect(errors).toEqual([expect.objectContaining({ code: "INVALID_RESULT" })]);
  });

  it("answers -32601 when no handler is set", async () => {
    const { server } = await ready(() => {});
    await expect(server.session.request("sampling/createMessage", SAMPLING_PARAMS)).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
  });
});

describe("roots", () => {
  const ROOTS = [{ uri: "file:///home/ada/project", name: "project" }];

  it("answers roots/list with the roots that were set", async () => {
    const { client, server } = await ready((c) => {
      void c.setRoots(ROOTS);
    });
    expect(server.sent("initialize")[0]?.params?.capabilities).toEqual({ roots: { listChanged: true } });
    await expect(server.session.request("roots/list")).resolves.toEqual({ roots: ROOTS });
    expect(client.isConnected).toBe(true);
    expect(server.sent("notifications/roots/list_changed")).toEqual([]);
  });

  it("tells the server when the roots change after connecting", async () => {
    const { client, server } = await ready((c) => {
      void c.setRoots(ROOTS);
    });
    const next = [...ROOTS, { uri: "file:///tmp/scratch" }];
    await client.setRoots(next);
    await until(() => server.sent("notifications/roots/list_changed").length === 1);
    await expect(server.session.request("roots/list")).resolves.toEqual({ roots: next });
  });

  it("answers roots/list from a handler", async () => {
    const { server } = await ready((c) => {
      c.setRootsHandler((ctx) => ({ roots: [{ uri: "file:///srv", name: ctx.serverInfo.name }] }));
    });
    await expect(server.session.request("roots/list")).resolves.toEqual({
      roots: [{ uri: "file:///srv", name: "fake-server" }],
    });
  });

  it("refuses to announce a roots change the client did not declare", async () => {
    const { client } = await ready(() => {});
    await expect(client.sendRootsListChanged()).rejects.toMatchObject({ code: "CAPABILITY_NOT_SUPPORTED" });
  });

  it("answers a server request with id 0", async () => {
    const { server } = await ready((c) => {
      void c.setRoots(ROOTS);
    });
    server.wire.onmessage = undefined;
    const answers: unknown[] = [];
    server.wire.onmessage = (message) => answers.push(message);
    await server.wire.send({ jsonrpc: "2.0", id: 0, method: "roots/list" });
    await until(() => answers.length === 1);
    expect(answers[0]).toEqual({ jsonrpc: "2.0", id: 0, result: { roots: ROOTS } });
  });
});
