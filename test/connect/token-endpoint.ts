/**
 * A small third-party authorization server over real HTTP for renewal tests: OpenID discovery and
 * a token endpoint that answers only `refresh_token` grants, rotates the refresh token on every
 * success (the old one is refused from then on, as a provider with reuse detection does), and
 * counts the grants it was sent. It can refuse every refresh, answer none (503), or hold its
 * answers until the test lets them go.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type TokenEndpointMode = "rotate" | "refuse" | "outage";

export interface TokenEndpoint {
  readonly issuer: string;
  /** Refresh grants received, whatever the answer. */
  readonly refreshGrants: number;
  mode: TokenEndpointMode;
  /** A refresh token the endpoint accepts, with the access token it was issued with. */
  issue(): { accessToken: string; refreshToken: string };
  /** Holds answers until the returned function is called; resolves `received` at each grant. */
  hold(): { release: () => void; received: (count: number) => Promise<void> };
  close(): Promise<void>;
}

export async function startTokenEndpoint(): Promise<TokenEndpoint> {
  let grants = 0;
  let serial = 0;
  let gate: Promise<void> | undefined;
  const arrivals: Array<{ count: number; resolve: () => void }> = [];
  const live = new Set<string>();
  const issue = () => {
    serial += 1;
    const pair = { accessToken: `access-token-${serial}-of-alice`, refreshToken: `refresh-token-${serial}-of-alice` };
    live.add(pair.refreshToken);
    return pair;
  };
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    response.end(JSON.stringify(body));
  };
  const answerToken = async (request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    if (form.get("grant_type") !== "refresh_token") return json(response, 400, { error: "unsupported_grant_type" });
    grants += 1;
    for (const arrival of arrivals.filter((a) => grants >= a.count)) arrival.resolve();
    await gate;
    if (endpoint.mode === "outage") {
      response.writeHead(503, { "content-type": "text/plain" });
      return response.end("upstream unavailable");
    }
    const presented = form.get("refresh_token") ?? "";
    if (endpoint.mode === "refuse" || !live.delete(presented)) return json(response, 400, { error: "invalid_grant" });
    const pair = issue();
    json(response, 200, {
      access_token: pair.accessToken,
      refresh_token: pair.refreshToken,
      token_type: "Bearer",
      expires_in: 3600,
    });
  };
  const server = createServer((request, response) => {
    if (request.url === "/.well-known/openid-configuration") {
      return json(response, 200, {
        issuer: endpoint.issuer,
        authorization_endpoint: `${endpoint.issuer}/authorize`,
        token_endpoint: `${endpoint.issuer}/token`,
      });
    }
    if (request.url === "/token" && request.method === "POST") {
      answerToken(request, response).catch((error) => response.destroy(error));
      return;
    }
    json(response, 404, { error: "not_found" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const endpoint: TokenEndpoint = {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get refreshGrants() {
      return grants;
    },
    mode: "rotate",
    issue,
    hold() {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = () => {
          gate = undefined;
          resolve();
        };
      });
      return {
        release,
        received: (count) =>
          grants >= count ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push({ count, resolve })),
      };
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
  return endpoint;
}
