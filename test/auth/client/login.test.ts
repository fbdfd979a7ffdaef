/**
 * Logging in for an MCP server against a real authorization server: the browser's part is
 * played by the scripted cookie-jar browser, handed the URL where a real one would be opened.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Browser } from "../../../examples/demo/full/browser.js";
import { accessTokenFor, FileTokenStore, LoginError, login } from "../../../src/auth/client/index.js";
import { McpClient } from "../../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../../src/transports/http/index.js";
import { CLIENT_ID, type LoginWorld, startLoginWorld } from "./world.js";

let world: LoginWorld;
let folder: string;
let store: FileTokenStore;

beforeEach(async () => {
  world = await startLoginWorld();
  folder = await mkdtemp(join(tmpdir(), "handoff-login-"));
  store = new FileTokenStore(join(folder, "config", "tokens.json"));
});

afterEach(async () => {
  await world.close();
  await rm(folder, { recursive: true, force: true });
});

/** Signs in as `login` wherever the URL leads, ending at the loopback redirect. */
const signIn = (login: string) => async (url: string) => {
  await new Browser().goSigningIn(url, login);
};

/** Signs in, stops before the redirect to this machine, and sends the browser there with `change` applied. */
const signInAndTamper = (change: (callback: URL) => void) => async (url: string) => {
  const browser = new Browser();
  const page = await browser.goSigningIn(url, "alice", (next) => next.pathname === "/callback");
  const callback = new URL(page.response.headers.get("location") ?? "", page.url);
  change(callback);
  await browser.go(callback.href);
};

async function whoami(token: string): Promise<string> {
  const client = new McpClient({ name: "t", version: "1" });
  await client.connect(
    new StreamableHttpClientTransport(new URL(world.resource), { headers: { authorization: `Bearer ${token}` } }),
  );
  try {
    const result = await client.callTool({ name: "whoami" });
    return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  } finally {
    await client.close();
  }
}

describe("login", () => {
  it("stores a token for the resource in a file only the user can read, and the server accepts it", async () => {
    const opened: string[] = [];
    const token = await login({
      resource: world.resource,
      store,
      clientId: CLIENT_ID,
      openUrl: async (url, info) => {
        opened.push(url);
        expect(info.issuer).toBe(world.issuer);
        await signIn("alice")(url);
      },
    });
    const authorize = new URL(opened[0] ?? "");
    expect(authorize.origin).toBe(world.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      client_id: CLIENT_ID,
      code_challenge_method: "S256",
      resource: world.resource,
      scope: "mcp:tools",
    });
    expect(authorize.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    expect(token).toMatchObject({ issuer: world.issuer, resource: world.resource, clientId: CLIENT_ID });
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    const file = JSON.parse(await readFile(store.path, "utf8"));
    expect(Object.keys(file.tokens)).toEqual([`${world.issuer} ${world.resource}`]);
    expect(await whoami(token.accessToken)).toBe("alice");
  });

  it("registers itself when no client id is given", async () => {
    const token = await login({ resource: world.resource, store, openUrl: signIn("bob") });
    expect(token.clientId).not.toBe(CLIENT_ID);
    expect(await whoami(token.accessToken)).toBe("bob");
  });

  it("refuses a redirect with another state and stores nothing", async () => {
    const failure = await login({
      resource: world.resource,
      store,
      clientId: CLIENT_ID,
      openUrl: signInAndTamper((callback) => callback.searchParams.set("state", "someone-elses-state")),
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LoginError);
    expect((failure as LoginError).failure).toBe("callback");
    expect((failure as LoginError).message).not.toContain("someone-elses-state");
    await expect(stat(store.path)).rejects.toThrow(/ENOENT/);
  });

  it("refuses a redirect whose iss names another authorization server and stores nothing", async () => {
    const failure = await login({
      resource: world.resource,
      store,
      clientId: CLIENT_ID,
      openUrl: signInAndTamper((callback) => {
        expect(callback.searchParams.get("iss")).toBe(world.issuer);
        callback.searchParams.set("iss", "http://127.0.0.1:1/elsewhere");
      }),
    }).catch((error: unknown) => error);
    expect((failure as LoginError).failure).toBe("callback");
    expect(await store.find(world.resource)).toBeUndefined();
  });

  it("reports a refusal at the authorization server as denied", async () => {
    const failure = await login({
      resource: world.resource,
      store,
      clientId: CLIENT_ID,
      openUrl: signInAndTamper((callback) => {
        callback.search = new URLSearchParams({
          error: "access_denied",
          state: callback.searchParams.get("state") ?? "",
          iss: world.issuer,
        }).toString();
      }),
    }).catch((error: unknown) => error);
    expect((failure as LoginError).failure).toBe("denied");
    expect(await store.find(world.resource)).toBeUndefined();
  });
});

describe("accessTokenFor", () => {
  it("returns the stored token while it is fresh, and a refreshed one once it has expired", async () => {
    const first = await login({ resource: world.resource, store, clientId: CLIENT_ID, openUrl: signIn("alice") });
    expect(first.refreshToken).toBeDefined();
    expect(first.expiresAt).toBeGreaterThan(Date.now());
    expect(await accessTokenFor(world.resource, { store })).toBe(first.accessToken);

    const later = (first.expiresAt ?? 0) + 1;
    const renewed = await accessTokenFor(world.resource, { store, now: () => later });
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(first.accessToken);
    expect((await store.find(world.resource))?.accessToken).toBe(renewed);
    expect(await whoami(renewed ?? "")).toBe("alice");
  });

  it("forgets a token that expired and cannot be refreshed", async () => {
    const first = await login({ resource: world.resource, store, clientId: CLIENT_ID, openUrl: signIn("alice") });
    await store.put({ ...first, refreshToken: "not-a-refresh-token" });
    const later = (first.expiresAt ?? 0) + 1;
    expect(await accessTokenFor(world.resource, { store, now: () => later })).toBeUndefined();
    expect(await store.find(world.resource)).toBeUndefined();
  });
});
