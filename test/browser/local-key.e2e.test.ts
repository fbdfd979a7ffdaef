/**
 * The README's local API-key server (`examples/handoff/local-api-key.ts`), run as it is over stdio, with
 * each client a user would put in front of it: ours (`McpClient` in a `HandoffClient`), the
 * official SDK v1 and SDK v2, on revision 2025-11-25 (error -32042, then
 * `notifications/elicitation/complete` and a retry) and 2026-07-28 (a URL-mode elicitation in an
 * `InputRequiredResult`, completed by the retry); SDK v1 speaks 2025-11-25 only. The user's browser
 * is headless Chromium: it opens the link the client was given, types the key into the page at
 * 127.0.0.1 and saves it. The tool then calls a weather API that answers only to that key, and the
 * forecast comes back; the key never reaches the client.
 *
 * Needs Chromium (`/usr/bin/chromium` or `CHROMIUM_PATH`), as the other browser tests
 * (`chromium-rule.ts`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client as V2Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chromium } from "../../examples/demo/full/chromium.js";
import { McpClient } from "../../src/client/index.js";
import { createConsentPolicy, HandoffClient } from "../../src/interaction/client/index.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";
import { requireChromium, SKIP_BROWSER } from "./support.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const SERVER = ["--import", "tsx", "examples/handoff/local-api-key.ts"];
const KEY = "wk-7f3a9c2e5b";
const CITY = "Lisbon";
const FORECAST = `Tomorrow in ${CITY}: sunny, 21 °C`;
const TIMEOUT = 120_000;

let chromium: Chromium;
let weather: Server;
let api: string;

beforeAll(async () => {
  if (SKIP_BROWSER !== undefined) return;
  requireChromium();
  chromium = await Chromium.launch();
  // The weather service: a forecast for the right key, 401 for anything else.
  weather = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401).end("wrong key");
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end(`Tomorrow in ${url.searchParams.get("city")}: sunny, 21 °C`);
  });
  await new Promise<void>((resolve) => weather.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(weather.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await chromium?.close();
  weather?.closeAllConnections();
  await new Promise((resolve) => weather?.close(resolve));
});

/** What the user's browser did: the page it ended on and the requests it made. */
interface Browsed {
  text: string;
  status: number;
  urls: string[];
}

/** The user, in a browser of their own: opens `url`, types the key into the page, saves it. */
async function typeKey(url: string): Promise<Browsed> {
  const window = await chromium.newWindow();
  const page = await window.context.newPage();
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest()) urls.push(request.url());
  });
  try {
    await page.goto(url);
    expect(await page.locator("h1").textContent()).toBe("Save your Weather API key");
    await page.getByLabel("Weather API key").fill(KEY);
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole("button", { name: "Save" }).click(),
    ]);
    return { text: (await page.locator("body").textContent()) ?? "", status: response?.status() ?? 0, urls };
  } finally {
    await window.close();
  }
}

/** Each time a link was handed to the client, and the browser's visit to it. */
interface Run {
  links: string[];
  visits: Promise<Browsed>[];
  /** Every message the client received, as JSON. */
  received: string[];
  version: string | undefined;
  text: string;
}

type Transportish = { onmessage?: ((message: never, extra?: never) => void) | undefined };

/** Keeps, as JSON, every message the client receives on `transport` from now on. */
function watch(transport: Transportish, received: string[]): void {
  const onmessage = transport.onmessage;
  transport.onmessage = ((message: unknown, extra: unknown) => {
    received.push(JSON.stringify(message));
    (onmessage as (m: unknown, e: unknown) => void)?.(message, extra);
  }) as never;
}

const env = () => ({ WEATHER_API: api });

async function withOurClient(era: "2025-11-25" | "2026-07-28"): Promise<Run> {
  const run: Run = { links: [], visits: [], received: [], version: undefined, text: "" };
  const client = new McpClient(
    { name: "local-key-test", version: "1.0.0" },
    era === "2025-11-25" ? { protocolVersion: era } : {},
  );
  const handoff = new HandoffClient(client, {
    timeoutMs: 60_000,
    onInteraction: createConsentPolicy({
      print: () => {},
      confirm: async () => true,
      open: async (url) => {
        run.links.push(url);
        run.visits.push(typeKey(url));
      },
    }),
  });
  const transport = new StdioClientTransport({ command: process.execPath, args: SERVER, cwd: ROOT, env: env() });
  try {
    await client.connect(transport);
    watch(transport as Transportish, run.received);
    run.version = client.protocolVersion;
    const result = await handoff.callTool({ name: "forecast", arguments: { city: CITY } });
    run.text = JSON.stringify(result.content);
  } finally {
    await client.close();
  }
  return run;
}

/** An -32042 error's first URL, else `undefined`. */
function requiredUrl(error: unknown): string | undefined {
  const e = error as { code?: unknown; data?: { elicitations?: { url?: unknown }[] } };
  const url = e?.code === -32042 ? e.data?.elicitations?.[0]?.url : undefined;
  return typeof url === "string" ? url : undefined;
}

/**
 * An official SDK client as an application drives it: on 2025-11-25 the call fails with -32042,
 * the app opens the URL, waits for `notifications/elicitation/complete` and calls again; on
 * 2026-07-28 the SDK hands the URL to its `elicitation/create` handler, which opens it and
 * answers `accept`, and the SDK retries.
 */
async function withSdkClient(sdk: "v1" | "v2", era: "2025-11-25" | "2026-07-28"): Promise<Run> {
  const run: Run = { links: [], visits: [], received: [], version: undefined, text: "" };
  let completed: () => void = () => {};
  const completion = new Promise<void>((resolve) => {
    completed = resolve;
  });
  const open = (url: string) => {
    run.links.push(url);
    const visit = typeKey(url);
    run.visits.push(visit);
    return visit;
  };
  const capabilities = { elicitation: { url: {} } };
  const params = {
    command: process.execPath,
    args: SERVER,
    cwd: ROOT,
    env: { ...env(), PATH: process.env.PATH ?? "" },
  };
  let client: V1Client | V2Client;
  if (sdk === "v1") {
    const v1 = new V1Client({ name: "local-key-v1", version: "1.0.0" }, { capabilities });
    v1.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (request.params.mode === "url") await open(request.params.url);
      return { action: "accept" };
    });
    v1.setNotificationHandler(ElicitationCompleteNotificationSchema, () => completed());
    await v1.connect(new V1StdioTransport({ ...params, stderr: "inherit" }));
    client = v1;
  } else {
    const v2 = new V2Client(
      { name: "local-key-v2", version: "1.0.0" },
      era === "2026-07-28" ? { capabilities, versionNegotiation: { mode: "auto" } } : { capabilities },
    );
    v2.setRequestHandler("elicitation/create", async (request) => {
      if (request.params.mode === "url") await open(request.params.url);
      return { action: "accept" };
    });
    v2.setNotificationHandler("notifications/elicitation/complete", () => completed());
    await v2.connect(new V2StdioTransport({ ...params, stderr: "inherit" }));
    client = v2;
  }
  try {
    if (client.transport) watch(client.transport as Transportish, run.received);
    // SDK v1 speaks 2025-11-25 at most; the wire form checked below shows which era ran.
    run.version = client instanceof V2Client ? client.getNegotiatedProtocolVersion() : era;
    const call = () => client.callTool({ name: "forecast", arguments: { city: CITY } });
    const result = await call().catch(async (error: unknown) => {
      const url = requiredUrl(error);
      if (url === undefined) throw error;
      await open(url);
      await completion;
      return call();
    });
    run.text = JSON.stringify(result.content);
  } finally {
    await client.close();
  }
  return run;
}

const RUNS = [
  ["our client", "2025-11-25", () => withOurClient("2025-11-25")],
  ["our client", "2026-07-28", () => withOurClient("2026-07-28")],
  ["SDK v1", "2025-11-25", () => withSdkClient("v1", "2025-11-25")],
  ["SDK v2", "2025-11-25", () => withSdkClient("v2", "2025-11-25")],
  ["SDK v2", "2026-07-28", () => withSdkClient("v2", "2026-07-28")],
] as const;

describe.skipIf(SKIP_BROWSER !== undefined)("the README's local API-key server in headless Chromium", () => {
  it.each(RUNS)(
    "%s on %s: the key typed at 127.0.0.1 reaches the weather API, the forecast comes back, the client never sees the key",
    async (_client, era, start) => {
      const run = await start();
      expect(run.version).toBe(era);
      expect(run.text).toContain(FORECAST);
      expect(run.links).toHaveLength(1);
      const link = new URL(run.links[0] ?? "");
      expect(link.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(link.pathname).toMatch(/^\/connect\/[A-Za-z0-9_-]{22}$/);
      expect(link.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const visit = await run.visits[0];
      expect(visit?.status).toBe(200);
      expect(visit?.text).toContain("return to your app");
      // The token opened the page once; the browser then went on without it.
      const [opened, landed, posted, ...more] = visit?.urls ?? [];
      expect(opened).toBe(link.href);
      expect(landed).toMatch(new RegExp(`^${link.origin}${link.pathname}/[A-Za-z0-9_-]{22}$`));
      expect([posted, more]).toEqual([landed, []]);
      const wire = run.received.join("\n");
      expect(wire).not.toContain(KEY);
      // The wire form of the era: -32042 and the completion notification, or an InputRequiredResult.
      if (era === "2025-11-25") {
        expect(wire).toContain('"code":-32042');
        expect(wire).toContain('"method":"notifications/elicitation/complete"');
      } else {
        expect(wire).toContain('"inputRequests"');
        expect(wire).not.toContain("-32042");
      }
    },
    TIMEOUT,
  );
});
