/**
 * Decline on the connect pages: a same-origin post with the session's own token ends the
 * interaction as declined, and the tool call waiting for it ends declined on both eras — the
 * request waiting in `ctx.credentials.require` (2025-11-25) and the retried request (2026-07-28),
 * which is not asked for the page again. A forged or cross-site decline changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonRpcSession, type Params } from "../../src/jsonrpc/session.js";
import { META } from "../../src/revisions/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { AuthenticatedTransport, CAPS, until } from "../interaction/server/support.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

let world: World;
beforeAll(async () => {
  world = await startWorld();
  world.server.registerTool("forecast-wait", { inputSchema: {} }, async (_args, ctx) => {
    const credential = await ctx.credentials.unsafeRevealSecret("forecast", { wait: true });
    return { content: [{ type: "text", text: `key of length ${credential.secret.length}` }] };
  });
});
afterAll(async () => {
  await world?.close();
});

const alice = () => ({ issuer: world.mcpIssuer, subject: "alice" });

/** The CSRF token of the page's form whose button has `action=<action>`. */
function tokenOf(html: string, action: string): string {
  const form = html.split("<form").find((part) => part.includes(`name="action" value="${action}"`));
  return (form === undefined ? undefined : /name="csrf" value="([^"]+)"/.exec(form)?.[1]) ?? "";
}

interface ToolResult {
  content: { text: string }[];
  isError?: boolean;
  resultType?: string;
  inputRequests?: Record<string, { params: { url: string } }>;
  requestState?: string;
}

/** A 2026-07-28 client for alice: no `initialize`, every call carries its `_meta`. */
async function statelessAlice() {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await world.server.connect(
    new AuthenticatedTransport(serverEnd, { token: "token-of-alice", issuer: world.mcpIssuer, subject: "alice" }),
  );
  const client = new JsonRpcSession();
  await client.connect(clientEnd);
  const meta = {
    [META.protocolVersion]: "2026-07-28",
    [META.clientCapabilities]: CAPS.urlElicitation,
    [META.clientInfo]: { name: "stateless-client", title: "Stateless <b>Desk</b> Client", version: "1.0.0" },
  };
  return (name: string, retry: Params = {}) =>
    client.request("tools/call", { name, arguments: {}, ...retry, _meta: meta }) as unknown as Promise<ToolResult>;
}

describe("connect: Decline", () => {
  it("2025-11-25: the call waiting in credentials.require ends declined; nothing is stored", async () => {
    let url: string | undefined;
    const peer = await peerFor(world, "alice", async (params) => {
      url = String(params.url);
      return { action: "accept" };
    });
    const call = peer.client.request("tools/call", {
      name: "forecast-wait",
      arguments: {},
    }) as unknown as Promise<ToolResult>;
    const link = await until(() => url);
    const browser = new Browser();
    const form = await browser.goSigningIn(link, "alice");
    expect(form.text).toContain('value="decline"');
    // The server's serverInfo title, escaped, beside what it asks and why.
    expect(form.text).toContain(
      "Connect &#60;Test&#62; asks:</span></p><p>Enter your forecast API key to continue.</p>",
    );
    // It names the client as the client named itself in `initialize`, and marks it so.
    expect(form.text).toContain('“test-client” <span class="note">(as the client names itself)</span>');

    const page = await browser.go(link, { form: { action: "decline", csrf: tokenOf(form.text, "decline") } });
    expect(page.response.status).toBe(200);
    expect(page.text).toContain("You declined. Nothing was stored");
    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/declined/);
    expect((await world.manager.get(idOf(link)))?.status).toBe("declined");
    expect(await world.vault.get(alice(), "forecast")).toBeUndefined();

    // The link, opened again, says it was declined rather than asking again.
    const again = await browser.go(link);
    expect(again.text).toContain("You declined");
    expect(again.text).not.toContain('type="password"');
  });

  it("a decline without the session's token, with the save form's token, or from another site changes nothing; the page's own decline works", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    const own = tokenOf(form.text, "decline");
    const saveToken = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? "";
    for (const csrf of ["", "forged", saveToken]) {
      const page = await browser.go(url, { form: { action: "decline", csrf } });
      expect(page.response.status, csrf).toBe(403);
    }
    const crossSite = await browser.go(url, {
      form: { action: "decline", csrf: own },
      headers: { origin: "http://evil.localhost:4444", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.response.status).toBe(403);
    const otherBrowser = await new Browser().go(url, { form: { action: "decline", csrf: own } });
    expect(otherBrowser.response.status).toBe(403);
    expect((await world.manager.get(idOf(url)))?.status).toBe("pending");

    const declined = await browser.go(url, { form: { action: "decline", csrf: own } });
    expect(declined.response.status).toBe(200);
    expect((await world.manager.get(idOf(url)))?.status).toBe("declined");
  });

  it("2026-07-28: the retried call ends declined and is not asked for the page again", async () => {
    const call = await statelessAlice();
    for (const tool of ["forecast", "forecast-wait"]) {
      const first = await call(tool);
      expect(first.resultType).toBe("input_required");
      const [key, ask] = Object.entries(first.inputRequests ?? {})[0] ?? [];
      const link = ask?.params.url ?? "";
      expect(link.startsWith(`${world.connectOrigin}/connect/`)).toBe(true);
      const browser = new Browser();
      const form = await browser.goSigningIn(link, "alice");
      // 2026-07-28 carries clientInfo in each request's _meta; its title is how it names itself.
      // Escaped: a client cannot add markup to the page by its name.
      expect(form.text).toContain("“Stateless &#60;b&#62;Desk&#60;/b&#62; Client”");
      expect(form.text).not.toContain("<b>Desk");
      const page = await browser.go(link, { form: { action: "decline", csrf: tokenOf(form.text, "decline") } });
      expect(page.response.status).toBe(200);

      const retry = await call(tool, {
        inputResponses: { [key ?? ""]: { action: "accept" } },
        requestState: first.requestState,
      });
      expect(retry.resultType, tool).not.toBe("input_required");
      expect(retry.inputRequests, tool).toBeUndefined();
      expect(retry.isError, tool).toBe(true);
      expect(retry.content[0]?.text, tool).toMatch(/declined/);
      expect((await world.manager.get(idOf(link)))?.status).toBe("declined");
    }
    expect(await world.vault.get(alice(), "forecast")).toBeUndefined();
  });

  describe("2025-11-25, error -32042 (the call is retried once the page is done)", () => {
    /** The hand-off of a call that got -32042, and the notifications/elicitation/complete its client got. */
    async function handedOff() {
      const peer = await peerFor(world, "alice");
      const link = await handOffUrl(world, peer, "forecast");
      const browser = new Browser();
      const form = await browser.goSigningIn(link, "alice");
      const completions = () => peer.notifications("notifications/elicitation/complete");
      return { peer, link, browser, form, completions };
    }

    it("Decline on the page is told to the client, and the retried call ends declined without asking again", async () => {
      const { peer, link, browser, form, completions } = await handedOff();
      expect(completions()).toEqual([]);
      const page = await browser.go(link, { form: { action: "decline", csrf: tokenOf(form.text, "decline") } });
      expect(page.text).toContain("You declined. Nothing was stored");
      // The client is told the page is over, as for a completion, with the id it was given.
      expect(await until(() => (completions().length > 0 ? completions() : undefined))).toEqual([
        { elicitationId: idOf(link) },
      ]);
      // Its retry is answered: declined, with no new -32042 and no page asked for again.
      const retry = (await peer.client.request("tools/call", {
        name: "forecast",
        arguments: {},
      })) as unknown as ToolResult;
      expect(retry.isError).toBe(true);
      expect(retry.content[0]?.text).toMatch(/declined to connect forecast/);
      expect(await world.vault.get(alice(), "forecast")).toBeUndefined();
      // Taken once: a later call asks for the page again.
      const later = await handOffUrl(world, peer, "forecast");
      expect(idOf(later)).not.toBe(idOf(link));
    });

    it("the same hand-off with Save: the client is told, and the retried call gets the key", async () => {
      const { peer, link, browser, form, completions } = await handedOff();
      const secret = "fc-live-2b7d";
      const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? "";
      const done = await browser.go(link, { form: { csrf, secret } });
      expect(done.response.status).toBe(200);
      expect(await until(() => (completions().length > 0 ? completions() : undefined))).toEqual([
        { elicitationId: idOf(link) },
      ]);
      try {
        expect(await callText(peer, "forecast")).toBe(`key of length ${secret.length}`);
      } finally {
        await world.vault.delete(alice(), "forecast");
      }
    });

    it("a decline on another session's page is not taken as this session's", async () => {
      const other = await handedOff();
      await other.browser.go(other.link, { form: { action: "decline", csrf: tokenOf(other.form.text, "decline") } });
      await until(() => (other.completions().length > 0 ? true : undefined));
      const peer = await peerFor(world, "alice");
      // This session's call is handed off as usual.
      await handOffUrl(world, peer, "forecast");
      expect(peer.notifications("notifications/elicitation/complete")).toEqual([]);
    });
  });
});
