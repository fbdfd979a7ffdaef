/**
 * `McpAuthorization` behind an `McpClient` against a real authorization server: the client is
 * never handed a token; the server's 401 starts the login, whose browser part is played by the
 * scripted cookie-jar browser. What goes through the client transport runs on both of its HTTP
 * paths (`node:http` and `fetch`), with `McpAuthorization` as its `authorization` option.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Browser } from "../../../examples/demo/full/browser.js";
import {
  FileTokenStore,
  LoginError,
  loopbackUserAgent,
  McpAuthorization,
  type McpAuthorizationOptions,
  redirectFollowingUserAgent,
} from "../../../src/auth/client/index.js";
import { McpClient } from "../../../src/client/index.js";
import type { HttpPath } from "../../../src/transports/http/client-http.js";
import { StreamableHttpClientTransport } from "../../../src/transports/http/index.js";
import { HTTP_PATHS } from "../../transports/http-client-peer.js";
import { ADMIN_SCOPE, type LoginWorld, SCOPE, startLoginWorld } from "./world.js";

let world: LoginWorld;
let folder: string;

beforeEach(async () => {
  world = await startLoginWorld();
  folder = await mkdtemp(join(tmpdir(), "handoff-provider-"));
});

afterEach(async () => {
  await world.close();
  await rm(folder, { recursive: true, force: true });
});

/** A browser that signs in as `name`, and the authorization URLs it was sent to. */
function browserOf(name: string): { opened: string[]; options: Pick<McpAuthorizationOptions, "userAgent"> } {
  const opened: string[] = [];
  const userAgent = loopbackUserAgent(async (url) => {
    opened.push(url);
    await new Browser().goSigningIn(url, name);
  });
  return { opened, options: { userAgent } };
}

/** The transport's options that plug `auth` in: `authorization` on either path, or the `fetch` it makes. */
type Plug = { http: HttpPath } | "fetch option";

async function whoami(auth: McpAuthorization, plug: Plug): Promise<string> {
  const client = new McpClient({ name: "t", version: "1" });
  const options = plug === "fetch option" ? { fetch: auth.fetch } : { http: plug.http, authorization: auth };
  await client.connect(new StreamableHttpClientTransport(new URL(world.resource), options));
  try {
    const result = await client.callTool({ name: "whoami" });
    return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  } finally {
    await client.close();
  }
}

/** A raw `initialize` POST, each one the start of a session of its own. */
const initialize = (id: number) => ({
  method: "POST",
  headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  }),
});

describe.each(HTTP_PATHS)("McpAuthorization as the transport's authorization (%s)", (http) => {
  const plug: Plug = { http };

  it("logs in when the server answers 401 and the client connects; later connections reuse the token", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);

    expect(await whoami(auth, plug)).toBe("alice");
    expect(browser.opened).toHaveLength(1);
    const request = new URL(browser.opened[0] ?? "");
    expect(request.searchParams.get("resource")).toBe(world.resource);
    expect(request.searchParams.get("scope")?.split(" ")).toContain("mcp:tools");
    expect(world.requests.filter((r) => r.path === "/mcp")[0]).toEqual({ path: "/mcp", bearer: false });

    expect(await whoami(auth, plug)).toBe("alice");
    expect(browser.opened).toHaveLength(1);
  });

  it("clients refused together share one login", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    expect(await Promise.all([1, 2, 3].map(() => whoami(auth, plug)))).toEqual(["alice", "alice", "alice"]);
    expect(browser.opened).toHaveLength(1);
  });

  it("asks again for the scopes granted plus the challenged ones on 403 insufficient_scope, and the call goes through", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    expect(await whoami(auth, plug)).toBe("alice");
    expect(new URL(browser.opened[0] ?? "").searchParams.get("scope")?.split(" ")).not.toContain(ADMIN_SCOPE);

    world.requireAdmin();
    expect(await whoami(auth, plug)).toBe("alice");
    expect(browser.opened).toHaveLength(2);
    const stepUp = new URL(browser.opened[1] ?? "").searchParams.get("scope")?.split(" ");
    expect(stepUp).toEqual(expect.arrayContaining([SCOPE, ADMIN_SCOPE]));
  });

  it("gives a 403 insufficient_scope back once a step-up cannot get the scope (no loop)", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, { ...browser.options, scopes: [SCOPE] });
    expect(await whoami(auth, plug)).toBe("alice");
    world.requireAdmin();
    const failure = await whoami(auth, plug).catch((error: unknown) => error);
    expect(failure).toMatchObject({ status: 403 });
    // One login, then for each of the client's two refused requests (its server/discover probe,
    // then initialize) the two step-ups that `maxScopeUpgrades` allows by default.
    expect(browser.opened).toHaveLength(1 + 2 * 2);
  });

  it("keeps the token in the store given, so the next run connects without a browser", async () => {
    const store = new FileTokenStore(join(folder, "tokens.json"));
    const first = browserOf("bob");
    expect(await whoami(new McpAuthorization(world.resource, { ...first.options, store }), plug)).toBe("bob");

    const second = browserOf("carol");
    expect(await whoami(new McpAuthorization(world.resource, { ...second.options, store }), plug)).toBe("bob");
    expect(second.opened).toHaveLength(0);
  });

  it("refreshes an expired token instead of opening the browser again", async () => {
    let now = Date.now();
    const browser = browserOf("alice");
    const store = new FileTokenStore(join(folder, "tokens.json"));
    const auth = new McpAuthorization(world.resource, { ...browser.options, store, now: () => now });
    expect(await whoami(auth, plug)).toBe("alice");
    const first = await store.find(world.resource);
    expect(first?.refreshToken).toBeDefined();

    now = (first?.expiresAt ?? 0) + 1;
    expect(await whoami(auth, plug)).toBe("alice");
    expect(browser.opened).toHaveLength(1);
    expect((await store.find(world.resource))?.accessToken).not.toBe(first?.accessToken);
  });

  it("refreshes a token the server refuses before asking for a new login", async () => {
    const store = new FileTokenStore(join(folder, "tokens.json"));
    const first = browserOf("alice");
    expect(await whoami(new McpAuthorization(world.resource, { ...first.options, store }), plug)).toBe("alice");
    const stored = await store.find(world.resource);
    await store.put({ ...(stored ?? { issuer: "", resource: "", clientId: "" }), accessToken: "revoked" });

    const second = browserOf("bob");
    expect(await whoami(new McpAuthorization(world.resource, { ...second.options, store }), plug)).toBe("alice");
    expect(second.opened).toHaveLength(0);
  });

  it("fails the connection with LoginError when the user refuses, and the next request asks again", async () => {
    let refuse = true;
    const auth = new McpAuthorization(world.resource, {
      userAgent: loopbackUserAgent(async (url) => {
        const browser = new Browser();
        const page = await browser.goSigningIn(url, "alice", (next) => next.pathname === "/callback");
        const callback = new URL(page.response.headers.get("location") ?? "", page.url);
        if (refuse) {
          const state = callback.searchParams.get("state") ?? "";
          callback.search = new URLSearchParams({ error: "access_denied", state, iss: world.issuer }).toString();
        }
        await browser.go(callback.href);
      }),
    });
    const failure = await whoami(auth, plug).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    const cause = (failure as Error).cause;
    expect(cause).toBeInstanceOf(LoginError);
    expect((cause as LoginError).failure).toBe("denied");

    refuse = false;
    expect(await whoami(auth, plug)).toBe("alice");
  });
});

describe("McpAuthorization.authorizeRequest", () => {
  it("gives the token for the MCP server's origin only", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    expect(await whoami(auth, { http: "node" })).toBe("alice");
    const given: (string | undefined)[] = [];
    const answer = { status: 200, header: () => null, cancel: async () => {} };
    const send = async (authorization: string | undefined) => {
      given.push(authorization);
      return answer;
    };
    await auth.authorizeRequest(new URL("http://127.0.0.1:1/mcp"), send);
    await auth.authorizeRequest(new URL(world.resource), send);
    expect(given).toEqual([undefined, expect.stringMatching(/^Bearer \S+$/)]);
  });
});

describe("McpAuthorization.fetch", () => {
  it("as the transport's fetch option, logs in when the server answers 401, and later connections reuse the token", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    expect(await whoami(auth, "fetch option")).toBe("alice");
    expect(await whoami(auth, "fetch option")).toBe("alice");
    expect(browser.opened).toHaveLength(1);
  });

  it("requests refused together share one login", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    const answers = await Promise.all([1, 2, 3].map((id) => auth.fetch(world.resource, initialize(id))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(browser.opened).toHaveLength(1);
  });

  it("sends the token only to the MCP server's origin", async () => {
    const browser = browserOf("alice");
    const auth = new McpAuthorization(world.resource, browser.options);
    await auth.fetch(world.resource, initialize(1));
    const seen: (string | null)[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers.authorization ?? null);
      res.end("ok");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = other.address() as AddressInfo;
      expect((await auth.fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      expect(seen).toEqual([null]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("without a browser, reports that an authorization server showing a login page needs a person", async () => {
    const auth = new McpAuthorization(world.resource, {
      userAgent: redirectFollowingUserAgent("http://127.0.0.1/callback"),
    });
    const failure = await auth.fetch(world.resource, initialize(1)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LoginError);
    expect((failure as LoginError).failure).toBe("denied");
    expect((failure as LoginError).message).toMatch(/needs a person/);
  });
});
