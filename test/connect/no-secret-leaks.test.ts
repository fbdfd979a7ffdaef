/**
 * A whole hand-off (OAuth grant and secret form) with every MCP message, both ways at both ends,
 * and every log line kept as text: no secret of the flow appears in any of it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PendingGrant } from "../../src/connect/index.js";
import { MemoryGrantStateStore } from "../../src/connect/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { JsonRpcSession } from "../../src/jsonrpc/session.js";
import type { MessageExtra, SendOptions, Transport } from "../../src/jsonrpc/transport.js";
import type { AuthInfo } from "../../src/model/identity.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { CAPS, type Peer } from "../interaction/server/support.js";
import { recordingLogger } from "../support/recording-logger.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, type World } from "./calls.js";
import { startWorld } from "./world.js";

/** Everything said or logged, as text. */
const captured: string[] = [];

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return JSON.stringify(error) ?? String(error);
  return `${error.name}: ${error.message}\n${error.stack ?? ""}\n${JSON.stringify(error)}\n${String(error.cause)}`;
}

/** Keeps every message `inner` sends or delivers; adds `authInfo` to what it delivers. */
class CapturingTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  constructor(
    private readonly inner: Transport,
    private readonly end: string,
    authInfo?: AuthInfo,
  ) {
    inner.onmessage = (message, extra) => {
      captured.push(`${end} received ${JSON.stringify(message)}`);
      this.onmessage?.(message, authInfo ? { ...extra, authInfo } : extra);
    };
    inner.onerror = (error) => {
      captured.push(`${end} error ${describeError(error)}`);
      this.onerror?.(error);
    };
    inner.onclose = () => this.onclose?.();
  }
  start = () => this.inner.start();
  send = (message: JsonRpcMessage, options?: SendOptions) => {
    captured.push(`${this.end} sent ${JSON.stringify(message)}`);
    return this.inner.send(message, options);
  };
  close = () => this.inner.close();
}

/** A client for `subject` whose traffic, and its server end's, is captured. */
async function capturedPeer(world: World, subject: string): Promise<Peer> {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  const authInfo = { token: `token-of-${subject}`, issuer: world.mcpIssuer, subject };
  const session = await world.server.connect(new CapturingTransport(serverEnd, "server", authInfo));
  const client = new JsonRpcSession();
  await client.connect(new CapturingTransport(clientEnd, "client"));
  await client.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: CAPS.urlElicitation,
    clientInfo: { name: "capture", version: "1.0.0" },
  });
  await client.notify("notifications/initialized");
  return { client, session, log: [], notifications: () => [] };
}

/** Keeps every PKCE verifier the connect handler stores. */
class WatchedStates extends MemoryGrantStateStore {
  readonly verifiers: string[] = [];
  override async put(state: string, grant: PendingGrant): Promise<void> {
    this.verifiers.push(grant.verifier);
    return super.put(state, grant);
  }
}

const states = new WatchedStates();
let world: World;
beforeAll(async () => {
  world = await startWorld({
    states,
    report: (message, error) => captured.push(`report ${message} ${describeError(error)}`),
    logger: recordingLogger((entry) =>
      captured.push(`logger ${entry.level} ${entry.message} ${describeError(entry.error)}`),
    ),
  });
});
afterAll(async () => {
  await world?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function spyOnConsole(): void {
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      captured.push(`console.${method} ${args.map(describeError).join(" ")}`);
    });
  }
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

describe("connect: no secret reaches MCP traffic or logs", () => {
  it("an OAuth grant and a secret form, start to finish, leave no token, code, verifier, key or secret in any message or log line", async () => {
    spyOnConsole();
    const alice = { issuer: world.mcpIssuer, subject: "alice" };
    const peer = await capturedPeer(world, "alice");

    // OAuth: hand-off, sign in, consent at the third party, retried call.
    const oauthUrl = await handOffUrl(world, peer, "repos");
    const browser = new Browser();
    const page = await browser.goSigningIn(oauthUrl, "alice");
    expect(page.text).toContain("Done — return to your app");
    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);

    // Secret form: hand-off, the API key typed in, retried call.
    const apiKey = "fc-live-9d2e7a41c05b";
    const formUrl = await handOffUrl(world, peer, "forecast");
    const form = await browser.goSigningIn(formUrl, "alice");
    const done = await browser.go(formUrl, { form: { csrf: csrfOf(form.text), secret: apiKey } });
    expect(done.text).toContain("Done — return to your app");
    expect(await callText(peer, "forecast")).toBe(`key of length ${apiKey.length}`);

    // A failing step, so the report path has something to say too.
    const stale = await browser.go(`${world.connectOrigin}/connect/callback/github?state=unknown&code=whatever`);
    expect(stale.response.status).toBe(403);

    const stored = await world.vault.get(alice, "github");
    const callback = browser.hops
      .map((hop) => new URL(hop.url))
      .find((url) => url.pathname === "/connect/callback/github");
    const secrets: Record<string, string | undefined> = {
      "access token": stored?.secret,
      "refresh token": stored?.refreshToken,
      "authorization code": callback?.searchParams.get("code") ?? undefined,
      "PKCE verifier": states.verifiers[0],
      "cookie secret": world.cookieSecret,
      "vault key (hex)": world.vaultKey.toString("hex"),
      "vault key (base64)": world.vaultKey.toString("base64"),
      "vault key (base64url)": world.vaultKey.toString("base64url"),
      "API key": apiKey,
    };

    // The capture works: it holds the traffic, including the hand-off URLs.
    const text = captured.join("\n");
    expect(captured.length).toBeGreaterThan(10);
    expect(text).toContain(oauthUrl);
    expect(text).toContain(formUrl);
    expect(text).toContain("alice-repo-1");

    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret, name).toBeTruthy();
      expect(secret?.length, name).toBeGreaterThanOrEqual(8);
      expect(text.includes(secret ?? ""), `${name} appears in MCP traffic or logs`).toBe(false);
      expect(text.includes(encodeURIComponent(secret ?? "")), `${name} (URL-encoded) appears`).toBe(false);
    }
  });
});
