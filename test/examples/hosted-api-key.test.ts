/**
 * The README's hosted API-key example (examples/handoff/hosted-api-key.ts), run as it is on each
 * era: its web-standard app served on 127.0.0.1 behind bearer tokens of a real MCP authorization
 * server, our client logged in as alice (`handoff login`) calling `forecast` through
 * `HandoffClient`, and a scripted browser as the user: it logs in at the authorization server
 * from the connect page, and types the key into the form that names her account. The retried
 * call returns the weather service's answer for that key; the next call needs no hand-off. And
 * why every instance needs the same `REQUEST_STATE_SECRET`: a 2026-07-28 retry that reaches
 * another instance completes when the two share it, and is refused with -32602 when they do not.
 */
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Browser } from "../../examples/demo/full/browser.js";
import { McpClient } from "../../src/client/index.js";
import { ProtocolError } from "../../src/index.js";
import { HandoffClient } from "../../src/interaction/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { close, listen } from "../connect/authorization-servers.js";
import { startHostedExample } from "./hosted-world.js";

const KEY = "wx-live-4f1c2a9e7b";
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const closer of closers.splice(0).reverse()) await closer();
});

/** The weather service: answers only its one key. */
async function startWeatherApi() {
  const api = await listen("127.0.0.1");
  api.handle((req, res) => {
    const city = new URL(req.url ?? "/", api.origin).searchParams.get("city");
    if (req.headers["x-api-key"] !== KEY) res.writeHead(401).end("unknown key");
    else res.writeHead(200, { "content-type": "text/plain" }).end(`${city}: sunny, 21 °C`);
  });
  closers.push(() => close(api.server));
  return api.origin;
}

/** The user at the browser: logs in as alice, checks the form names her, types the key and saves. */
async function typeKey(url: string, seen: string[]): Promise<void> {
  const browser = new Browser();
  const form = await browser.goSigningIn(url, "alice");
  seen.push(/<h1>([^<]*)<\/h1>/.exec(form.text)?.[1] ?? form.text);
  const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? "";
  const done = await browser.go(form.url, { form: { csrf, secret: KEY } });
  expect(done.response.status).toBe(200);
}

describe("the README's hosted API-key example", () => {
  it("keeps /mcp behind bearer tokens: without one, 401 names the metadata, which names the authorization server", async () => {
    const world = await startHostedExample("../../examples/handoff/hosted-api-key.js");
    closers.push(world.close);
    const refused = await fetch(world.resource, { method: "POST", body: "{}" });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    expect(metadataUrl.startsWith(world.origin)).toBe(true);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: world.resource.href, scopes_supported: ["mcp:tools"] });
    expect(metadata.authorization_servers).toHaveLength(1);
  });

  it.each([["2026-07-28"], ["2025-11-25"]])(
    "on %s: the call is handed off, the key typed on the page, the call retried; the next needs no hand-off",
    async (revision) => {
      const world = await startHostedExample("../../examples/handoff/hosted-api-key.js", async () => ({
        WEATHER_API: await startWeatherApi(),
      }));
      closers.push(world.close);
      const shown: string[] = [];
      const headings: string[] = [];
      let browsing: Promise<void> = Promise.resolve();
      const client = new McpClient({ name: "agent", version: "1.0.0" }, { protocolVersion: revision });
      const handoff = new HandoffClient(client, {
        serverUrl: world.resource,
        onInteraction: async (interaction) => {
          shown.push(interaction.url);
          browsing = typeKey(interaction.url, headings);
          return "accept";
        },
      });
      await client.connect(new StreamableHttpClientTransport(world.resource, { headers: world.headers }));
      closers.push(() => client.close());
      expect(client.protocolVersion).toBe(revision);

      const result = await handoff.callTool({ name: "forecast", arguments: { city: "Lyon" } });
      await browsing;
      expect(result.content).toEqual([{ type: "text", text: "Lyon: sunny, 21 °C" }]);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toMatch(new RegExp(`^${world.origin}/connect/`));
      // The form names what it asks for and the account the key is kept for.
      expect(headings).toHaveLength(1);
      expect(headings[0]).toContain("Weather API key");
      expect(headings[0]).toMatch(/\balice\b/);

      const again = await handoff.callTool({ name: "forecast", arguments: { city: "Oslo" } });
      expect(again.content).toEqual([{ type: "text", text: "Oslo: sunny, 21 °C" }]);
      expect(shown).toHaveLength(1);
    },
  );

  it.each([
    ["the same", undefined],
    ["another", randomBytes(32).toString("base64")],
  ])("a retry that reaches a second instance with %s REQUEST_STATE_SECRET", async (_same, secret) => {
    const world = await startHostedExample("../../examples/handoff/hosted-api-key.js", async () => ({
      WEATHER_API: await startWeatherApi(),
    }));
    closers.push(world.close);
    const first = world.app;
    const second = await world.another(secret === undefined ? {} : { REQUEST_STATE_SECRET: secret });
    const retries: string[] = [];
    // A balancer: a call that echoes a requestState goes to the second instance, all else to the first.
    world.serve(async (request) => {
      const body = request.method === "POST" ? await request.clone().text() : "";
      if (!body.includes('"requestState"')) return first.fetch(request);
      retries.push(new URL(request.url).pathname);
      return second.fetch(request);
    });
    const client = new McpClient({ name: "agent", version: "1.0.0" });
    const headings: string[] = [];
    // The user finishes the page before the client answers, so the retry needs no hold.
    client.setElicitationHandler(
      async (params) => {
        await typeKey(String((params as { url?: string }).url), headings);
        return { action: "accept" };
      },
      { modes: ["url"] },
    );
    await client.connect(new StreamableHttpClientTransport(world.resource, { headers: world.headers }));
    closers.push(() => client.close());
    expect(client.protocolVersion).toBe("2026-07-28");
    const call = client.callTool({ name: "forecast", arguments: { city: "Lyon" } });
    if (secret === undefined) {
      expect((await call).content).toEqual([{ type: "text", text: "Lyon: sunny, 21 °C" }]);
    } else {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32602 });
      expect((error as Error).message).toContain("requestState was not issued by this server or was altered");
    }
    expect(retries).toEqual(["/mcp"]);
    expect(headings).toHaveLength(1);
  });
});
