/**
 * A real remote-server client in front of the full demo's MCP server, as in the field: our
 * client → stdio → `mcp-remote` → Streamable HTTP → the MCP server, with the user's browser
 * played by headless Chromium where installed (else the scripted user agent).
 */

// The world's authorization servers run oidc-provider in development mode on purpose; its notices are noise here.
import "../../examples/demo/quiet-dev-servers.js";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browsers, openBrowsers } from "../../examples/demo/full/browsers.js";
import { CONNECT_CLIENT, MCP_CLIENT_ID, MCP_SCOPE } from "../../examples/demo/full/mcp-authorization-server.js";
import { type FullWorld, startFullWorld } from "../../examples/demo/full/world.js";
import { startBridged } from "./mcp-remote.js";

/** Starts the world and the user's browser for one describe block; closes them after it. */
function world(): { world: FullWorld; browsers: Browsers; lines: string[] } {
  const state = { lines: [] as string[] } as { world: FullWorld; browsers: Browsers; lines: string[] };
  beforeAll(async () => {
    state.world = await startFullWorld({ say: (line) => state.lines.push(line) });
    state.browsers = await openBrowsers("auto", state.world.labels, () => {});
  }, 60_000);
  afterAll(async () => {
    await state.browsers?.close();
    await state.world?.close();
  });
  return state;
}

/** What the bridge's sign-in asked for, from the authorization URL it printed. */
function authorizationUrl(stderr: string): URL {
  return new URL(/Please authorize this client by visiting:\s*(\S+)/.exec(stderr)?.[1] ?? "");
}

// Pinned to 2025-11-25 (`--protocol legacy`, mcp-remote's default): on 2026-07-28 mcp-remote 0.15
// refuses to carry a URL-mode elicitation (see the last test).
describe("mcp-remote in front of the full demo, on 2025-11-25", () => {
  const state = world();

  it("registers itself, signs alice in with PKCE, relays the hand-off, and the retried call returns her items", async () => {
    const { world, browsers, lines } = state;
    const bridged = await startBridged({
      resource: world.resource,
      browser: browsers.user,
      login: "alice",
      protocol: "legacy",
    });
    try {
      // It found the authorization server through the resource's metadata, registered itself
      // there (dynamic client registration) and asked for a code with PKCE for this resource.
      const authorize = authorizationUrl(bridged.stderr());
      expect(authorize.origin).toBe(world.mcpIssuer);
      // Its client id is none of the two the server was configured with: it registered it.
      expect(authorize.searchParams.get("client_id")).toMatch(/.{8,}/);
      expect([MCP_CLIENT_ID, CONNECT_CLIENT.clientId]).not.toContain(authorize.searchParams.get("client_id"));
      expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorize.searchParams.get("resource")).toBe(world.resource);
      expect(authorize.searchParams.get("scope")?.split(" ")).toContain(MCP_SCOPE);
      expect(bridged.client.serverInfo?.name).toBe("items-demo");

      const result = await bridged.handoff.callTool({ name: "list_items", arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(result.content).toEqual([{ type: "text", text: "alice-repo-1, alice-repo-2" }]);

      // One hand-off reached the client through the bridge: error -32042 naming the connect page,
      // retried after the server's notifications/elicitation/complete came through.
      expect(bridged.shown).toHaveLength(1);
      expect(bridged.shown[0]).toMatchObject({ kind: "elicitation", source: "error", origin: world.origin });
      expect(new URL(bridged.shown[0]?.url ?? "").pathname).toMatch(/^\/connect\/[A-Za-z0-9_-]+$/);
      expect((await bridged.landed())?.status).toBe(200);
      expect(lines).toContain('server   the callback stored alice\'s "items" token in the encrypted vault');
      expect(lines.filter((line) => line.includes("found the grant in the vault"))).toHaveLength(1);
      const secret = await world.storedSecret("alice");
      expect(secret).toBeTruthy();
      expect(JSON.stringify(result)).not.toContain(secret);
      expect(bridged.stderr()).not.toContain(secret);
    } finally {
      await bridged.close();
    }
  }, 180_000);
});

describe("the MCP authorization server's registration", () => {
  const state = world();

  it("is announced in RFC 8414 metadata and registers a public PKCE client; a scope it does not know is refused", async () => {
    const { world } = state;
    const metadata = await fetch(`${world.mcpIssuer}/.well-known/oauth-authorization-server`).then((r) => r.json());
    expect(metadata).toMatchObject({ issuer: world.mcpIssuer, registration_endpoint: `${world.mcpIssuer}/reg` });
    expect(metadata.code_challenge_methods_supported).toContain("S256");
    expect(metadata.scopes_supported).toContain(MCP_SCOPE);
    const register = (scope: string) =>
      fetch(metadata.registration_endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          redirect_uris: ["http://127.0.0.1:40000/oauth/callback"],
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          application_type: "native",
          scope,
        }),
      });
    const accepted = await register(MCP_SCOPE);
    expect(accepted.status).toBe(201);
    expect(await accepted.json()).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: "none" });
    const refused = await register(`${MCP_SCOPE} admin:everything`);
    expect(refused.status).toBe(400);
  });
});

describe("mcp-remote in front of the full demo, on 2026-07-28", () => {
  const state = world();

  it("signs in, but refuses to carry the URL-mode elicitation of an InputRequiredResult to its 2025-era client", async () => {
    const { world, browsers } = state;
    const bridged = await startBridged({
      resource: world.resource,
      browser: browsers.user,
      login: "alice",
      protocol: "auto",
    });
    try {
      const outcome = await bridged.handoff.callTool({ name: "list_items", arguments: {} }).then(
        (result) => JSON.stringify(result),
        (error: unknown) => String(error),
      );
      expect(outcome).toContain("elicitation/create, which this proxy cannot put to a 2025-era client");
      expect(bridged.shown).toHaveLength(0);
      expect(await world.storedSecret("alice")).toBeUndefined();
    } finally {
      await bridged.close();
    }
  }, 180_000);
});
