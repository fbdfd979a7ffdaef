/**
 * A Decline on the page after error -32042 (2025-11-25) stands in for the hand-off its retry
 * would start again, and for nothing else: a call of the same session for the same provider that
 * finds the account connected (its own page was saved) gets the credential, not the other page's
 * decline; and a call made after the declined page's deadline is a new request, handed off again.
 * Control: the retry that follows the decline, before the deadline, ends declined.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { CAPS, connectPeer, type Peer, until } from "../interaction/server/support.js";
import { recordingLogger } from "../support/recording-logger.js";

const USER = { issuer: "local", subject: "ada" };
const TTL_MS = 600_000;
let clock = 1_800_000_000_000;
let local: LocalConnect;
let server: McpServer;

beforeEach(async () => {
  local = await startLocalConnect({ user: USER, ttlMs: TTL_MS, now: () => clock, logger: recordingLogger() });
  server = new McpServer({ name: "weather", version: "1.0.0" }, { interactions: local.interactions });
  server.registerTool("forecast", { inputSchema: {} }, async (_args, ctx) => {
    const key = await ctx.credentials.unsafeRevealSecret("weather", { kind: "secret", label: "Weather API key" });
    return { content: [{ type: "text", text: `key of length ${key.secret.length}` }] };
  });
});
afterEach(async () => {
  await local?.close();
});

interface ToolResult {
  content: { text: string }[];
  isError?: boolean;
}

/** A tools/call of `forecast`: its result, or the link of the -32042 it was answered with. */
async function call(peer: Peer): Promise<ToolResult | { link: string }> {
  try {
    return (await peer.client.request("tools/call", { name: "forecast", arguments: {} })) as unknown as ToolResult;
  } catch (error) {
    if (!(error instanceof ProtocolError) || error.code !== -32042) throw error;
    const data = error.data as { elicitations: { url: string }[] };
    return { link: data.elicitations[0]?.url ?? "" };
  }
}

async function linkOf(peer: Peer): Promise<string> {
  const answer = await call(peer);
  if (!("link" in answer)) throw new Error(`expected -32042, got ${JSON.stringify(answer)}`);
  return answer.link;
}

/** Opens `link` as a browser of its own and presses Decline, or saves `secret`. */
async function answerPage(link: string, action: { decline: true } | { secret: string }): Promise<void> {
  const opened = await fetch(link, { redirect: "manual" });
  const cookie = (opened.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const page = new URL(opened.headers.get("location") ?? "", link).href;
  const form = (await (await fetch(page, { headers: { cookie } })).text()).split("<form");
  const csrf = (part: string | undefined) => /name="csrf" value="([^"]+)"/.exec(part ?? "")?.[1] ?? "";
  const fields: Record<string, string> =
    "decline" in action
      ? { action: "decline", csrf: csrf(form.find((part) => part.includes('name="action" value="decline"'))) }
      : { secret: action.secret, csrf: csrf(form.find((part) => part.includes('id="save"'))) };
  const posted = await fetch(page, {
    method: "POST",
    headers: { cookie, origin: local.origin, "sec-fetch-site": "same-origin" },
    body: new URLSearchParams(fields),
  });
  expect(posted.status).toBe(200);
}

async function completions(peer: Peer, count: number): Promise<void> {
  await until(() => (peer.notifications("notifications/elicitation/complete").length >= count ? true : undefined));
}

describe("a Decline on the page after -32042 is taken only by the retry it answers", () => {
  it("control: the retry that follows the decline ends declined, and the next call asks again", async () => {
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    await answerPage(await linkOf(peer), { decline: true });
    await completions(peer, 1);
    const retry = await call(peer);
    expect(retry).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/declined to connect weather/) }],
    });
    expect(await call(peer)).toHaveProperty("link");
  });

  it("attack: two pages for one provider, one declined and one saved: every retry gets the saved key", async () => {
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    const first = await linkOf(peer);
    const second = await linkOf(peer);
    await answerPage(first, { decline: true });
    await answerPage(second, { secret: "wk-local-51c" });
    await completions(peer, 2);
    // The account is connected: neither retry is asked again, and neither is refused for the other page.
    expect(await call(peer)).toEqual({ content: [{ type: "text", text: "key of length 12" }] });
    expect(await call(peer)).toEqual({ content: [{ type: "text", text: "key of length 12" }] });
  });

  it("attack: a call after the declined page's deadline is handed off again, not ended declined", async () => {
    const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
    await answerPage(await linkOf(peer), { decline: true });
    await completions(peer, 1);
    // The client never retried; the user comes back later and calls again.
    clock += TTL_MS + 1;
    const later = await call(peer);
    expect(later).toHaveProperty("link");
  });
});
