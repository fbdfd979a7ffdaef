/**
 * The command against both eras over Streamable HTTP on 127.0.0.1: one McpServer behind an
 * endpoint that serves 2026-07-28 POSTs (`onrequest`) and behind one that serves sessions only.
 * The client probes with `server/discover`; the second endpoint makes it fall back to
 * `initialize`. Forms and hand-offs reach the same prompts on both.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { InteractionRequired, McpServer } from "../../src/server/index.js";
import { StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { recordingManager } from "./hand-off-manager.js";
import { fakeIo } from "./support.js";

// The connect page's part, played by the test: the interactions made, to complete them.
const { manager, completeAll } = recordingManager();
let linked = false;
let toolRuns = 0;

const server = new McpServer({ name: "web", version: "1.0.0", title: "Web" }, { interactions: manager });
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
server.registerTool("repos", { description: "Needs a connected account." }, async () => {
  toolRuns++;
  if (!linked) {
    throw new InteractionRequired({ url: "https://mcp.example.com/connect/github", message: "Connect GitHub." });
  }
  return { content: [{ type: "text", text: "octo/hello-world" }] };
});

interface Endpoint {
  url: string;
  seen: IncomingHttpHeaders[];
  listener: Server;
  http: StreamableHttpServer;
}

async function serve(both: boolean): Promise<Endpoint> {
  const http = new StreamableHttpServer({
    onsession: (transport) => void server.connect(transport),
    ...(both ? { onrequest: (transport) => server.connect(transport) } : {}),
  });
  const handle = toNodeHandler(http);
  const seen: IncomingHttpHeaders[] = [];
  const listener = createServer((req, res) => {
    seen.push(req.headers);
    void handle(req, res);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`, seen, listener, http };
}

const endpoints: Record<"2026-07-28" | "2025-11-25", Endpoint> = {} as never;

beforeAll(async () => {
  endpoints["2026-07-28"] = await serve(true);
  endpoints["2025-11-25"] = await serve(false);
});

afterAll(async () => {
  await server.close();
  for (const { http, listener } of Object.values(endpoints)) {
    await http.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  }
});

/** The era the command spoke, read from the requests the endpoint got since `from`. */
function eraOf(endpoint: Endpoint, from: number): string {
  const headers = endpoint.seen.slice(from);
  if (headers.some((h) => h["mcp-session-id"] !== undefined)) return "session";
  return headers.every((h) => h["mcp-protocol-version"] === "2026-07-28") ? "stateless" : "mixed";
}

describe.each([
  ["2026-07-28", "stateless"],
  ["2025-11-25", "session"],
] as const)("handoff against a server serving %s", (revision, era) => {
  it("lists tools and calls one", async () => {
    const endpoint = endpoints[revision];
    const from = endpoint.seen.length;
    const listed = fakeIo();
    expect(await run(["tools", endpoint.url], listed)).toBe(ExitCode.Success);
    expect(listed.out()).toContain("shout");
    expect(listed.out()).toContain("repos");
    const called = fakeIo();
    expect(await run(["call", endpoint.url, "shout", '{"text":"hi"}'], called)).toBe(ExitCode.Success);
    expect([called.out(), called.err()]).toEqual(["HI\n", ""]);
    expect(eraOf(endpoint, from)).toBe(era);
  });

  it("answers a form the tool asks for", async () => {
    const endpoint = endpoints[revision];
    const from = endpoint.seen.length;
    const io = fakeIo(["accept", "pro"]);
    expect(await run(["call", endpoint.url, "pick"], io)).toBe(ExitCode.Success);
    expect(io.out()).toBe("accept pro\n");
    expect(eraOf(endpoint, from)).toBe(era);
  });

  it("takes the user through a hand-off: consent, the page, the retry returns the result", async () => {
    const endpoint = endpoints[revision];
    const from = endpoint.seen.length;
    linked = false;
    toolRuns = 0;
    const io = fakeIo([true, true]);
    const open = io.open;
    io.open = async (url) => {
      await open(url);
      // The user finishes on the page: it links the account and completes the interaction.
      linked = true;
      await completeAll();
    };
    expect(await run(["call", endpoint.url, "repos"], io)).toBe(ExitCode.Success);
    expect(io.out()).toBe("octo/hello-world\n");
    expect(io.opened).toEqual(["https://mcp.example.com/connect/github"]);
    expect(io.err()).toContain("  Server: Web (web)\n");
    // One consent, then "done?" (yes retries at once), and the tool ran twice: once asking, once with the account linked.
    expect(io.prompter.asked.map((a) => a.prompt.message)).toEqual([
      "Open the page on mcp.example.com in your browser?",
      expect.stringMatching(/^Done in the browser\? Yes retries now/),
    ]);
    expect(toolRuns).toBe(2);
    expect(eraOf(endpoint, from)).toBe(era);
  });

  it("exits 5 when the user gives up waiting for the page, without running the tool again", async () => {
    const endpoint = endpoints[revision];
    linked = false;
    toolRuns = 0;
    const io = fakeIo([true, false]);
    expect(await run(["call", endpoint.url, "repos"], io)).toBe(ExitCode.Declined);
    expect(io.out()).toBe("");
    expect(io.err()).toContain("Gave up waiting for the page.");
    expect(toolRuns).toBe(1);
  });
});
