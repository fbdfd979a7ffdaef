/**
 * An McpServer behind bearer authentication: a tool sees who called it. Once through the
 * web-standard handler, once over node:http with a remote key set and the metadata document
 * found the way a client finds it (the 401 challenge, then the well-known URL).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createBearerVerifier,
  nodeBearerAuth,
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
  userOf,
  withBearerAuth,
} from "../../src/auth/index.js";
import { McpClient } from "../../src/client/index.js";
import { McpServer } from "../../src/server/index.js";
import {
  StreamableHttpClientTransport,
  StreamableHttpError,
  StreamableHttpServer,
  toNodeHandler,
} from "../../src/transports/http/index.js";
import {
  claims,
  ISSUER,
  type LocalServer,
  localServer,
  METADATA_URL,
  NOW,
  RESOURCE,
  type SigningKey,
  sign,
  signingKey,
} from "./support.js";

let key: SigningKey;
beforeAll(async () => {
  key = await signingKey();
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server with one tool that reports the caller. */
function whoAmIServer(): McpServer {
  const server = new McpServer({ name: "protected", version: "1" });
  server.registerTool("whoami", {}, async (_args, ctx) => {
    const user = userOf(ctx.authInfo);
    return {
      content: [{ type: "text", text: `${ctx.authInfo?.subject} at ${user?.issuer} with ${ctx.authInfo?.scopes}` }],
    };
  });
  return server;
}

function textOf(result: { content?: unknown }): string {
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? "";
}

describe("McpServer over Streamable HTTP behind withBearerAuth", () => {
  it("lets the tool see ctx.authInfo.subject, and refuses a client without a token", async () => {
    const mcp = whoAmIServer();
    const http = new StreamableHttpServer({ onsession: (transport) => void mcp.connect(transport) });
    closers.push(
      () => mcp.close(),
      () => http.close(),
    );
    const verifier = createBearerVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: { keys: [key.jwk] },
      now: () => NOW,
    });
    const handle = withBearerAuth((request, extra) => http.handle(request, extra), verifier, {
      resourceMetadataUrl: METADATA_URL,
    });
    const fetchVia = (input: RequestInfo | URL, init?: RequestInit) => handle(new Request(input, init));
    const token = await sign(key, claims({ sub: "ada" }));
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(
      new StreamableHttpClientTransport(new URL(RESOURCE), {
        fetch: fetchVia,
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    closers.push(() => client.close());
    expect(textOf(await client.callTool({ name: "whoami" }))).toBe(`ada at ${ISSUER} with mcp:tools`);

    const anonymous = new McpClient({ name: "c", version: "1" });
    const refused = await anonymous
      .connect(new StreamableHttpClientTransport(new URL(RESOURCE), { fetch: fetchVia }))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(StreamableHttpError);
    expect((refused as StreamableHttpError).status).toBe(401);
    expect(http.sessionCount).toBe(1);
  });
});

describe("McpServer over node:http behind nodeBearerAuth", () => {
  let as: LocalServer;
  let server: Server;

  async function start(): Promise<{ origin: string; resource: string }> {
    as = await localServer({ "/jwks": () => ({ status: 200, body: { keys: [key.jwk] } }) });
    closers.push(() => as.close());
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const resource = `${origin}/mcp`;

    const mcp = whoAmIServer();
    const http = new StreamableHttpServer({ onsession: (transport) => void mcp.connect(transport) });
    closers.push(
      () => mcp.close(),
      () => http.close(),
    );
    const metadata = protectedResourceMetadataHandler(
      protectedResourceMetadata({ resource, authorizationServers: [as.origin], scopesSupported: ["mcp:tools"] }),
    );
    const verifier = createBearerVerifier({
      issuer: as.origin,
      audience: resource,
      jwksUri: `${as.origin}/jwks`,
      now: () => NOW,
    });
    const auth = nodeBearerAuth(verifier, {
      resourceMetadataUrl: protectedResourceMetadataUrl(resource),
      requiredScopes: ["mcp:tools"],
    });
    const endpoint = toNodeHandler(http);
    server.on("request", async (req, res) => {
      if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
        const response = metadata(new Request(new URL(req.url, origin), { method: req.method ?? "GET" }));
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name] = value;
        });
        res.writeHead(response.status, headers).end(await response.text());
      } else if (await auth(req, res)) {
        await endpoint(req, res);
      }
    });
    return { origin, resource };
  }

  it("sends an anonymous client to the metadata, then serves the tool with the caller's identity", async () => {
    const { origin, resource } = await start();

    const refused = await fetch(resource, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: "{}",
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    const document = await (await fetch(metadataUrl)).json();
    expect(document).toEqual({
      resource,
      authorization_servers: [as.origin],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp:tools"],
    });

    const token = await sign(key, claims({ iss: as.origin, aud: resource, sub: "grace" }));
    const client = new McpClient({ name: "c", version: "1" });
    await client.connect(
      new StreamableHttpClientTransport(new URL(resource), { headers: { authorization: `Bearer ${token}` } }),
    );
    closers.push(() => client.close());
    expect(textOf(await client.callTool({ name: "whoami" }))).toBe(`grace at ${as.origin} with mcp:tools`);
    expect(as.requests.map((r) => r.path)).toEqual(["/jwks"]);
  });

  it("answers a token for another resource 401 invalid_token and a token without the scope 403", async () => {
    const { resource } = await start();
    const call = async (payload: Record<string, unknown>) =>
      fetch(resource, {
        method: "POST",
        headers: {
          accept: "application/json, text/event-stream",
          "content-type": "application/json",
          authorization: `Bearer ${await sign(key, claims({ iss: as.origin, ...payload }))}`,
        },
        body: "{}",
      });
    const wrongAudience = await call({ aud: RESOURCE });
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const noScope = await call({ aud: resource, scope: "other" });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(noScope.headers.get("www-authenticate")).toContain('scope="other mcp:tools"');
  });
});
