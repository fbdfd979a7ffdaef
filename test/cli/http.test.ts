/** The command against McpServer over Streamable HTTP on 127.0.0.1, with a header from --header. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { fakeIo } from "./support.js";

const server = new McpServer({ name: "web", version: "1.0.0" });
server.registerTool("shout", { inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: "text", text: text.toUpperCase() }],
}));
server.registerTool("pick", { description: "Asks for a plan." }, async (_args, ctx) => {
  const answer = await ctx.elicit({
    message: "Which plan?",
    requestedSchema: { type: "object", properties: { plan: { type: "string", enum: ["free", "pro"] } } },
  });
  return { content: [{ type: "text", text: `${answer.action} ${String(answer.content?.plan)}` }] };
});

const http = new StreamableHttpServer({ onsession: (transport) => void server.connect(transport) });
const handle = toNodeHandler(http);
const seenHeaders: IncomingHttpHeaders[] = [];
const listener = createServer((req, res) => {
  seenHeaders.push(req.headers);
  void handle(req, res);
});
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await server.close();
  await http.close();
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
});

describe("handoff over Streamable HTTP", () => {
  it("calls a tool and sends every --header with each request", async () => {
    const io = fakeIo();
    const code = await run(["call", url, "shout", '{"text":"hi"}', "--header", "X-Team: blue"], io);
    expect([code, io.out()]).toEqual([ExitCode.Success, "HI\n"]);
    expect(seenHeaders.length).toBeGreaterThan(0);
    expect(seenHeaders.every((headers) => headers["x-team"] === "blue")).toBe(true);
  });

  it("answers a form elicitation that arrives on the request's stream", async () => {
    const io = fakeIo(["accept", "pro"]);
    expect(await run(["call", url, "pick"], io)).toBe(ExitCode.Success);
    expect(io.out()).toBe("accept pro\n");
  });

  it("exits 3 when nothing listens at the URL", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const io = fakeIo();
    expect(await run(["tools", `http://127.0.0.1:${port}/mcp`, "--timeout", "5000"], io)).toBe(ExitCode.Connection);
    expect(io.err()).toContain(`Could not connect to http://127.0.0.1:${port}/mcp`);
  });
});
