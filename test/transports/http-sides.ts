/**
 * The two ways to serve a `StreamableHttpServer`, side by side: `toNodeHandler` on a real
 * `node:http` server at 127.0.0.1, and `handle()` called with web objects. A test runs its
 * requests against each, so a rule holds on both paths.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthInfo } from "../../src/model/identity.js";
import { toNodeHandler } from "../../src/transports/http/node.js";
import { StreamableHttpServer, type StreamableHttpServerOptions } from "../../src/transports/http/server.js";
import { BOTH, connectEcho, initializeRequest } from "./support.js";

export interface Side {
  name: "toNodeHandler" | "handle()";
  server: StreamableHttpServer;
  /** One request to the MCP endpoint; `init.headers` must be a plain record. */
  send(init: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** What an auth layer in front of the endpoint would verify: `Authorization: Bearer <user>` names the user. */
export type AuthOf = (authorization: string | null) => AuthInfo | undefined;

/** `Bearer alice` stands for user `alice` of one authorization server; anything else for nobody. */
export const testAuth: AuthOf = (authorization) => {
  const user = /^Bearer (\w+)$/.exec(authorization ?? "")?.[1];
  return user === undefined ? undefined : { token: `token-of-${user}`, issuer: "https://as.example", subject: user };
};

/** Both sides, each with a fresh server made from `options` (the echo protocol on every session by default). */
export async function bothSides(
  options: () => Partial<StreamableHttpServerOptions> = () => ({}),
  authOf: AuthOf = testAuth,
): Promise<Side[]> {
  const make = () => new StreamableHttpServer({ onsession: (transport) => connectEcho(transport), ...options() });
  const viaNode = make();
  const handler = toNodeHandler(viaNode, {
    authInfo: (req: IncomingMessage) => authOf(req.headers.authorization ?? null),
  });
  const http = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const viaWeb = make();
  return [
    {
      name: "toNodeHandler",
      server: viaNode,
      send: (init) => fetch(url, init),
      async close() {
        await viaNode.close();
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      },
    },
    {
      name: "handle()",
      server: viaWeb,
      send: (init) => {
        const request = new Request(url, init);
        const authInfo = authOf(request.headers.get("authorization"));
        return viaWeb.handle(
          request,
          authInfo === undefined ? { localAddress: "127.0.0.1" } : { authInfo, localAddress: "127.0.0.1" },
        );
      },
      close: () => viaWeb.close(),
    },
  ];
}

/** Initializes a session on `side` with `headers` (an Authorization, say) and returns its id. */
export async function openSession(side: Side, headers: Record<string, string> = {}): Promise<string> {
  const response = await side.send({
    method: "POST",
    headers: { accept: BOTH, "content-type": "application/json", ...headers },
    body: JSON.stringify(initializeRequest(1)),
  });
  await response.text();
  const sessionId = response.headers.get("mcp-session-id");
  if (sessionId === null) throw new Error(`initialize got no session id (HTTP ${response.status})`);
  return sessionId;
}
