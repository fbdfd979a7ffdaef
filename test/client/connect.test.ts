import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient, ProtocolError, SdkError } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { LATEST_VERSION } from "../../src/revisions/negotiate.js";
import { connected, FakeServer, SERVER_INFO, until } from "./support.js";

describe("McpClient.connect", () => {
  it("runs the handshake and exposes what the server said", async () => {
    const { client, server } = await connected({ instructions: "Use the tools wisely" });
    // An older server answers the server/discover probe -32601, so the client falls back.
    expect(server.sent("server/discover")).toHaveLength(1);
    const [initialize] = server.sent("initialize");
    expect(initialize).toMatchObject({
      id: 1,
      params: {
        protocolVersion: LATEST_VERSION,
        capabilities: {},
        clientInfo: { name: "test-client", version: "0.0.1" },
      },
    });
    await until(() => server.sent("notifications/initialized").length === 1);
    expect(client.isConnected).toBe(true);
    expect(client.protocolVersion).toBe(LATEST_VERSION);
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.serverCapabilities).toHaveProperty("tools");
    expect(client.instructions).toBe("Use the tools wisely");
    expect(server.protocolVersionsSet).toEqual([LATEST_VERSION]);
  });

  it("declares capabilities from the handlers that are set", async () => {
    const { server } = await connected({}, (client) => {
      client.setElicitationHandler(() => ({ action: "cancel" }), { modes: ["form", "url"] });
      client.setSamplingHandler(() => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }), {
        tools: true,
      });
      client.setRootsHandler(() => ({ roots: [] }));
    });
    expect(server.sent("initialize")[0]?.params?.capabilities).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: { tools: {} },
      roots: { listChanged: true },
    });
  });

  it("sends the capabilities given in the options as they are", async () => {
    const capabilities = { experimental: { x: {} } };
    const { server } = await connected({}, () => {}, { capabilities });
    expect(server.sent("initialize")[0]?.params?.capabilities).toEqual(capabilities);
  });

  it("accepts an older revision the server picks when it is supported", async () => {
    const { client, server } = await connected({ protocolVersion: "2025-06-18" });
    server.session.setRequestHandler("tools/list", () => ({ tools: [] }));
    expect(client.protocolVersion).toBe("2025-06-18");
    expect(server.protocolVersionsSet).toEqual(["2025-06-18"]);
    await expect(client.listTools()).resolves.toEqual({ tools: [] });
  });

  it("proposes the revision given in the options", async () => {
    const { client, server } = await connected({}, () => {}, { protocolVersion: "2025-03-26" });
    expect(server.sent("initialize")[0]?.params?.protocolVersion).toBe("2025-03-26");
    expect(client.protocolVersion).toBe("2025-03-26");
  });

  it("refuses a revision it does not speak, and disconnects", async () => {
    const server = new FakeServer({ protocolVersion: "1999-01-01" });
    await server.start();
    let serverClosed = false;
    server.session.onclose = () => {
      serverClosed = true;
    };
    const client = new McpClient({ name: "c", version: "1" });
    const failure = await client.connect(server.clientTransport).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect(failure).toMatchObject({ code: "INVALID_RESULT" });
    expect((failure as Error).message).toContain('"1999-01-01"');
    expect(server.sent("notifications/initialized")).toEqual([]);
    await until(() => serverClosed);
    expect(client.isConnected).toBe(false);
    await expect(client.ping()).rejects.toMatchObject({ code: "NOT_CONNECTED" });
  });

  it("surfaces the server's refusal of initialize and disconnects", async () => {
    const server = new FakeServer();
    server.session.setRequestHandler("initialize", () => {
      throw new ProtocolError(ErrorCode.InvalidParams, "Unsupported protocol version", { supported: ["1.0"] });
    });
    await server.start();
    const client = new McpClient({ name: "c", version: "1" });
    await expect(client.connect(server.clientTransport)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { supported: ["1.0"] },
    });
    expect(client.isConnected).toBe(false);
  });

  it("rejects a malformed initialize result", async () => {
    const server = new FakeServer();
    server.session.setRequestHandler("initialize", () => ({ protocolVersion: LATEST_VERSION }));
    await server.start();
    const client = new McpClient({ name: "c", version: "1" });
    await expect(client.connect(server.clientTransport)).rejects.toMatchObject({ code: "INVALID_RESULT" });
  });

  it("will not propose a revision it does not speak", () => {
    expect(() => new McpClient({ name: "c", version: "1" }, { protocolVersion: "2099-01-01" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("refuses a second connect while connected", async () => {
    const { client } = await connected();
    const other = new FakeServer();
    await expect(client.connect(other.clientTransport)).rejects.toMatchObject({ code: "ALREADY_CONNECTED" });
  });

  it("reports the close", async () => {
    const { client } = await connected();
    let closed = 0;
    client.onclose = () => {
      closed++;
    };
    await client.close();
    expect(closed).toBe(1);
    expect(client.isConnected).toBe(false);
  });
});

describe("giving up on initialize", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function silentServer() {
    const server = new FakeServer();
    server.session.setRequestHandler("initialize", () => new Promise(() => {}));
    await server.start();
    let closed = false;
    server.session.onclose = () => {
      closed = true;
    };
    return { server, isClosed: () => closed };
  }

  it("times out by closing the connection, never by cancelling initialize", async () => {
    const { server, isClosed } = await silentServer();
    const client = new McpClient({ name: "c", version: "1" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const failure = client.connect(server.clientTransport, { timeoutMs: 3_000 }).catch((e: unknown) => e);
    await until(() => server.sent("initialize").length === 1);
    vi.advanceTimersByTime(3_000);
    expect(await failure).toMatchObject({ code: "REQUEST_TIMEOUT" });
    await until(() => isClosed());
    expect(server.sent("notifications/cancelled")).toEqual([]);
  });

  it("stops on abort the same way", async () => {
    const { server, isClosed } = await silentServer();
    const client = new McpClient({ name: "c", version: "1" });
    const controller = new AbortController();
    const failure = client.connect(server.clientTransport, { signal: controller.signal }).catch((e: unknown) => e);
    await until(() => server.sent("initialize").length === 1);
    controller.abort();
    expect(await failure).toMatchObject({ code: "REQUEST_CANCELLED" });
    await until(() => isClosed());
    expect(server.sent("notifications/cancelled")).toEqual([]);
  });
});
