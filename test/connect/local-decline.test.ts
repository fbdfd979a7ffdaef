/**
 * Decline on the local connect pages: a same-origin post from the claimed page, with its own CSRF
 * token, ends the interaction as declined, and the tool call waiting for it ends declined on both
 * eras (the request waiting in `ctx.credentials.require` on 2025-11-25, the retried request on
 * 2026-07-28, which is not asked for the page again; on 2025-11-25 after error -32042, the retry
 * that follows notifications/elicitation/complete, with Save as the control). A decline with the
 * save form's token, none, a forged one, from another site or from a browser that did not claim
 * the link changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalConnect, startLocalConnect } from "../../src/connect/index.js";
import { ProtocolError } from "../../src/jsonrpc/errors.js";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { CAPS, connectPeer, until } from "../interaction/server/support.js";
import { recordingLogger } from "../support/recording-logger.js";

const USER = { issuer: "local", subject: "ada" };
let local: LocalConnect;
let server: McpServer;

beforeAll(async () => {
  local = await startLocalConnect({
    user: USER,
    serverInfo: { name: "weather", title: "Weather <Local>" },
    logger: recordingLogger(),
  });
  server = new McpServer({ name: "weather", version: "1.0.0" }, { interactions: local.interactions });
  for (const [tool, wait] of [
    ["forecast", false],
    ["forecast-wait", true],
  ] as const) {
    server.registerTool(tool, { inputSchema: {} }, async (_args, ctx) => {
      const key = await ctx.credentials.unsafeRevealSecret("weather", {
        kind: "secret",
        label: "Weather API key",
        wait,
      });
      return { content: [{ type: "text", text: `key of length ${key.secret.length}` }] };
    });
  }
});
afterAll(async () => {
  await local?.close();
});

/** A browser of its own: claims the link (keeps its cookie) and posts from the page's origin. */
async function claimed(link: string) {
  const opened = await fetch(link, { redirect: "manual" });
  expect(opened.status).toBe(303);
  const cookie = (opened.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  const page = new URL(opened.headers.get("location") ?? "", link).href;
  const form = await (await fetch(page, { headers: { cookie } })).text();
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(page, {
      method: "POST",
      headers: { cookie, origin: local.origin, "sec-fetch-site": "same-origin", ...headers },
      body: new URLSearchParams(fields),
    });
  return { page, cookie, form, post };
}

/** The CSRF token of the form whose button has `action=decline`, and of the save form. */
function tokens(html: string): { decline: string; save: string } {
  const csrf = (part: string | undefined) => /name="csrf" value="([^"]+)"/.exec(part ?? "")?.[1] ?? "";
  const forms = html.split("<form");
  return {
    decline: csrf(forms.find((part) => part.includes('name="action" value="decline"'))),
    save: csrf(forms.find((part) => part.includes('id="save"'))),
  };
}

const idOf = (link: string) => new URL(link).pathname.split("/")[2] ?? "";

interface ToolResult {
  content: { text: string }[];
  isError?: boolean;
  resultType?: string;
  inputRequests?: Record<string, { params: { url: string } }>;
  requestState?: string;
}

describe("local connect pages: Decline", () => {
  it("2025-11-25: the call waiting in credentials.require ends declined; the page names the server, the ask and the client", async () => {
    let link: string | undefined;
    const peer = await connectPeer(server, {
      capabilities: CAPS.urlElicitation,
      handlers: {
        "elicitation/create": async (params) => {
          link = String(params?.url);
          return { action: "accept" };
        },
      },
    });
    const call = peer.client.request("tools/call", {
      name: "forecast-wait",
      arguments: {},
    }) as unknown as Promise<ToolResult>;
    const browser = await claimed(await until(() => link));
    expect(browser.form).toContain('value="decline"');
    expect(browser.form).toContain(
      "Weather &#60;Local&#62; asks:</span></p><p>Enter your Weather API key to continue.",
    );
    expect(browser.form).toContain('“test-client” <span class="note">(as the client names itself)</span>');
    expect(browser.form).toContain("The server running on this computer");
    expect(browser.form).toContain("Kept by the server running on this computer, and never shown to your app");

    const page = await browser.post({ action: "decline", csrf: tokens(browser.form).decline });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You declined. Nothing was stored");
    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/declined/);
    expect((await local.manager.get(idOf(link ?? "")))?.status).toBe("declined");
    expect(await local.vault.get(USER, "weather")).toBeUndefined();

    // The claimed page, opened again, says it was declined rather than asking again.
    const again = await (await fetch(browser.page, { headers: { cookie: browser.cookie } })).text();
    expect(again).toContain("You declined");
    expect(again).not.toContain('type="password"');
  });

  it("a decline with no token, a forged one, the save form's, from another site or from a browser without the claim changes nothing; the page's own decline works", async () => {
    let link: string | undefined;
    const peer = await connectPeer(server, {
      capabilities: CAPS.urlElicitation,
      handlers: {
        "elicitation/create": async (params) => {
          link = String(params?.url);
          return { action: "accept" };
        },
      },
    });
    const call = peer.client.request("tools/call", { name: "forecast-wait", arguments: {} }).catch(() => undefined);
    const browser = await claimed(await until(() => link));
    const own = tokens(browser.form);
    for (const csrf of ["", "forged", own.save]) {
      expect((await browser.post({ action: "decline", csrf })).status, csrf).toBe(403);
    }
    const crossSite = await browser.post(
      { action: "decline", csrf: own.decline },
      { origin: "http://evil.localhost:4444", "sec-fetch-site": "cross-site" },
    );
    expect(crossSite.status).toBe(403);
    const unclaimed = await fetch(browser.page, {
      method: "POST",
      headers: { origin: local.origin, "sec-fetch-site": "same-origin" },
      body: new URLSearchParams({ action: "decline", csrf: own.decline }),
    });
    expect(unclaimed.status).toBe(404);
    expect((await local.manager.get(idOf(link ?? "")))?.status).not.toBe("declined");

    const declined = await browser.post({ action: "decline", csrf: own.decline });
    expect(declined.status).toBe(200);
    expect((await local.manager.get(idOf(link ?? "")))?.status).toBe("declined");
    await call;
  });

  it("2026-07-28: the retried call ends declined and is not asked for the page again", async () => {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    await server.connect(serverEnd);
    const client = new JsonRpcSession();
    await client.connect(clientEnd);
    const meta = {
      [META.protocolVersion]: "2026-07-28",
      [META.clientCapabilities]: CAPS.urlElicitation,
      [META.clientInfo]: { name: "stateless-client", title: "Stateless Desk", version: "1.0.0" },
    };
    const call = (name: string, retry: Params = {}) =>
      client.request("tools/call", { name, arguments: {}, ...retry, _meta: meta }) as unknown as Promise<ToolResult>;
    for (const tool of ["forecast", "forecast-wait"]) {
      const first = await call(tool);
      expect(first.resultType, tool).toBe("input_required");
      const [key, ask] = Object.entries(first.inputRequests ?? {})[0] ?? [];
      const link = ask?.params.url ?? "";
      expect(link.startsWith(`${local.origin}/connect/`)).toBe(true);
      const browser = await claimed(link);
      expect(browser.form).toContain("“Stateless Desk”");
      expect((await browser.post({ action: "decline", csrf: tokens(browser.form).decline })).status).toBe(200);

      const retry = await call(tool, {
        inputResponses: { [key ?? ""]: { action: "accept" } },
        requestState: first.requestState,
      });
      expect(retry.resultType, tool).not.toBe("input_required");
      expect(retry.inputRequests, tool).toBeUndefined();
      expect(retry.isError, tool).toBe(true);
      expect(retry.content[0]?.text, tool).toMatch(/declined/);
      expect((await local.manager.get(idOf(link)))?.status).toBe("declined");
    }
    expect(await local.vault.get(USER, "weather")).toBeUndefined();
    await client.close();
  });

  it("2025-11-25, error -32042: Decline on the page is told to the client, and its retry ends declined; with Save the retry gets the key", async () => {
    for (const answer of ["decline", "save"] as const) {
      const peer = await connectPeer(server, { capabilities: CAPS.urlElicitation });
      const error = await peer.client.request("tools/call", { name: "forecast", arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, answer).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32042);
      const link = (error as ProtocolError & { data: { elicitations: { url: string }[] } }).data.elicitations[0]?.url;
      const browser = await claimed(link ?? "");
      const own = tokens(browser.form);
      const page =
        answer === "decline"
          ? await browser.post({ action: "decline", csrf: own.decline })
          : await browser.post({ csrf: own.save, secret: "wk-local-51c" });
      expect(page.status, answer).toBe(200);
      const completions = () => peer.notifications("notifications/elicitation/complete");
      expect(await until(() => (completions().length > 0 ? completions() : undefined))).toEqual([
        { elicitationId: idOf(link ?? "") },
      ]);
      const retry = (await peer.client.request("tools/call", {
        name: "forecast",
        arguments: {},
      })) as unknown as ToolResult;
      if (answer === "decline") {
        expect(retry.isError).toBe(true);
        expect(retry.content[0]?.text).toMatch(/declined to connect weather/);
        expect(await local.vault.get(USER, "weather")).toBeUndefined();
      } else {
        expect(retry.isError).toBeUndefined();
        expect(retry.content[0]?.text).toBe("key of length 12");
        await local.vault.delete(USER, "weather");
      }
    }
  });
});
