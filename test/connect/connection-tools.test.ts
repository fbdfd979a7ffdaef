/**
 * `connections_list` and `connections_disconnect` over MCP: the request's own user's connections,
 * no secret in any result, and a disconnect that revokes at the provider and hands off again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerConnectionTools } from "../../src/connect/index.js";
import { CAPS, connectPeer, type Peer } from "../interaction/server/support.js";
import { Browser } from "./browser.js";
import { handOffUrl, peerFor } from "./calls.js";
import { startWorld } from "./world.js";

let world: Awaited<ReturnType<typeof startWorld>>;

beforeAll(async () => {
  world = await startWorld();
  registerConnectionTools(world.server, {
    connections: world.broker,
    userFor: (authInfo) => world.manager.userFor(authInfo),
    displayNames: { github: "GitHub <Test>" },
  });
});
afterAll(async () => {
  await world?.close();
});

interface ToolResult {
  content: { text: string }[];
  isError?: boolean;
  structuredContent?: { connections: { provider: string; scopes: string[] }[] };
}

const call = (peer: Peer, name: string, args: Record<string, unknown> = {}) =>
  peer.client.request("tools/call", { name, arguments: args }) as unknown as Promise<ToolResult>;

describe("the connection tools", () => {
  it("list alice's connections without a secret, disconnect one with a revocation upstream, then hand off again", async () => {
    const alice = await peerFor(world, "alice");
    expect((await call(alice, "connections_list")).content[0]?.text).toBe("You have no connections.");
    const url = await handOffUrl(world, alice, "repos");
    await new Browser().goSigningIn(url, "alice");
    const stored = await world.vault.get({ issuer: world.mcpIssuer, subject: "alice" }, "github");

    const listed = await call(alice, "connections_list");
    expect(listed.isError).toBeFalsy();
    expect(listed.content[0]?.text).toMatch(/^- GitHub <Test> \(github\); account not known; scopes repo; connected /);
    expect(listed.structuredContent?.connections).toMatchObject([{ provider: "github", scopes: ["repo"] }]);
    const bob = await peerFor(world, "bob");
    expect((await call(bob, "connections_list")).content[0]?.text).toBe("You have no connections.");
    expect((await call(bob, "connections_disconnect", { provider: "github" })).content[0]?.text).toContain(
      "Nothing to disconnect",
    );
    expect(await world.vault.get({ issuer: world.mcpIssuer, subject: "alice" }, "github")).toBeDefined();

    const revoked = world.thirdParty.revocations.length;
    const done = await call(alice, "connections_disconnect", { provider: "github" });
    expect(done.content[0]?.text).toContain("GitHub <Test> revoked the access");
    expect(world.thirdParty.revocations.slice(revoked)).toEqual([{ kind: "refresh token", accountId: "alice" }]);
    for (const result of [listed, done]) {
      const wire = JSON.stringify(result);
      for (const secret of [stored?.secret ?? "", stored?.refreshToken ?? ""]) expect(wire).not.toContain(secret);
    }
    await handOffUrl(world, alice, "repos");
  });

  it("answer a request without a verified user, or an empty provider name, with isError", async () => {
    const anonymous = await connectPeer(world.server, { capabilities: CAPS.urlElicitation });
    expect((await call(anonymous, "connections_list")).isError).toBe(true);
    const alice = await peerFor(world, "alice");
    const bad = await call(alice, "connections_disconnect", { provider: "" });
    expect(bad.isError).toBe(true);
  });
});
