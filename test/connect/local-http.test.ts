/**
 * The local mode behind an MCP server on HTTP at 127.0.0.1 rather than stdio: the same tool, the
 * same `startLocalConnect`, over Streamable HTTP with both eras on one endpoint (sessions for
 * 2025-11-25, stateless requests for 2026-07-28). Our client hands the link to a scripted browser
 * that keeps its cookie and posts the form as a browser does; the call returns the stored key's
 * forecast.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";
import { createConsentPolicy, HandoffClient } from "../../src/interaction/client/index.js";
import { McpServer } from "../../src/server/index.js";
import { StreamableHttpClientTransport, StreamableHttpServer, toNodeHandler } from "../../src/transports/http/index.js";
import { recordingLogger } from "../support/recording-logger.js";

const KEY = "wk-7f3a9c2e5b";
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function startServer(): Promise<{ url: URL; local: LocalConnect }> {
  const local = await startLocalConnect({ logger: recordingLogger() });
  const mcp = new McpServer({ name: "weather", version: "1.0.0" }, { interactions: local.interactions });
  mcp.registerTool("forecast", { description: "Tomorrow's weather" }, async (_args, ctx) => {
    const key = await ctx.credentials.unsafeRevealSecret("weather", { kind: "secret", label: "Weather API key" });
    return { content: [{ type: "text", text: `sunny, with key of ${key.secret.length} characters` }] };
  });
  const endpoint = new StreamableHttpServer({
    onsession: (transport) => void mcp.connect(transport),
    onrequest: (transport) => mcp.connect(transport),
  });
  const http: Server = createServer(toNodeHandler(endpoint));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(
    () => local.close(),
    async () => {
      await endpoint.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  );
  return { url: new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), local };
}

/** A user's browser, scripted: opens the link, keeps the claim cookie, posts the form from the page. */
async function typeKey(link: string): Promise<string> {
  const claimed = await fetch(link, { redirect: "manual" });
  expect(claimed.status).toBe(303);
  const cookie = (claimed.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const page = new URL(claimed.headers.get("location") ?? "", link).href;
  const form = await (await fetch(page, { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
  const saved = await fetch(page, {
    method: "POST",
    headers: { cookie, origin: new URL(link).origin, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ csrf, secret: KEY }),
  });
  return saved.text();
}

describe.each([["2025-11-25"], ["2026-07-28"]])("local mode behind an MCP server on HTTP at 127.0.0.1, %s", (era) => {
  it("the key given at the local page serves the call; the link the client got is on 127.0.0.1", async () => {
    const { url, local } = await startServer();
    const links: string[] = [];
    const pages: Promise<string>[] = [];
    const client = new McpClient(
      { name: "local-http", version: "1.0.0" },
      era === "2025-11-25" ? { protocolVersion: era } : {},
    );
    const handoff = new HandoffClient(client, {
      serverUrl: url,
      timeoutMs: 30_000,
      onInteraction: createConsentPolicy({
        print: () => {},
        confirm: async () => true,
        open: async (link) => {
          links.push(link);
          pages.push(typeKey(link));
        },
      }),
    });
    await client.connect(new StreamableHttpClientTransport(url));
    closers.push(() => client.close());
    expect(client.protocolVersion).toBe(era);
    const result = await handoff.callTool({ name: "forecast", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `sunny, with key of ${KEY.length} characters` }]);
    expect(links).toHaveLength(1);
    expect(new URL(links[0] ?? "").origin).toBe(local.origin);
    expect(await pages[0]).toContain("return to your app");
  });
});
