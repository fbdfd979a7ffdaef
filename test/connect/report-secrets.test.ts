/**
 * What the connect pages report when a third party answers with a token response they cannot use:
 * OAuth libraries attach the whole response body to their errors, tokens included, and none of it
 * may reach the operator's log.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Browser } from "./browser.js";
import { handOffUrl, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

const reported: string[] = [];
let world: World;
beforeAll(async () => {
  world = await startWorld({
    report: (message, error) => reported.push(`${message} ${inspect(error, { depth: 10 })} ${JSON.stringify(error)}`),
  });
});
afterAll(async () => {
  await world?.close();
  vi.restoreAllMocks();
});

const onThirdParty = (url: URL) => url.host === new URL(world.thirdParty.issuer).host;

describe("connect: reports", () => {
  it("a token response with an unsupported token_type is refused and reported without its tokens", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const browser = new Browser();
    const atThirdParty = await browser.goSigningIn(url, "alice", onThirdParty);

    const tokens: string[] = [];
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const target = new URL(input instanceof Request ? input.url : String(input));
      const response = await realFetch(input, init);
      if (!onThirdParty(target) || target.pathname !== "/token") return response;
      const body = (await response.json()) as Record<string, unknown>;
      for (const name of ["access_token", "refresh_token"]) if (typeof body[name] === "string") tokens.push(body[name]);
      return Response.json({ ...body, token_type: "mac" }, { status: response.status });
    });
    const page = await browser.goSigningIn(atThirdParty.response.headers.get("location") ?? "", "alice");
    vi.restoreAllMocks();

    expect(page.response.status).toBe(502);
    expect(await world.vault.get({ issuer: world.mcpIssuer, subject: "alice" }, "github")).toBeUndefined();
    expect(tokens.length).toBeGreaterThan(0);
    const text = reported.join("\n");
    expect(text).toContain("The provider did not grant access");
    expect(text).toContain("token_type");
    for (const token of tokens) expect(text.includes(token), "a token reached the report").toBe(false);
    expect(page.text).not.toContain(tokens[0]);
  });
});
