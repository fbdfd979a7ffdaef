/**
 * The Streamable HTTP server's unexpected failures (answered 500) are never dropped: without
 * `onerror` they go to `logger`, by default `console.error`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { StreamableHttpServer } from "../../src/transports/http/index.js";
import { recordingLogger } from "../support/recording-logger.js";

const initialize = () =>
  new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    }),
  });

const failing = () => {
  throw new Error("the session could not be set up");
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("StreamableHttpServer: a failure answered 500", () => {
  it("goes to console.error by default", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const server = new StreamableHttpServer({ onsession: failing });
    const response = await server.handle(initialize());
    expect(response.status).toBe(500);
    expect(error).toHaveBeenCalledWith(
      "The Streamable HTTP server failed; the request was answered 500",
      expect.objectContaining({ err: expect.objectContaining({ message: "the session could not be set up" }) }),
    );
    await server.close();
  });

  it("goes to the logger given, and to onerror alone when that is given", async () => {
    const logger = recordingLogger();
    const logged = new StreamableHttpServer({ onsession: failing, logger });
    expect((await logged.handle(initialize())).status).toBe(500);
    expect(logger.entries).toMatchObject([{ level: "error", error: { message: "the session could not be set up" } }]);
    await logged.close();

    const errors: Error[] = [];
    const told = new StreamableHttpServer({ onsession: failing, logger, onerror: (e) => errors.push(e) });
    expect((await told.handle(initialize())).status).toBe(500);
    expect(errors.map((e) => e.message)).toEqual(["the session could not be set up"]);
    expect(logger.entries).toHaveLength(1);
    await told.close();
  });
});
