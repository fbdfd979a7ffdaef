/**
 * Signing keys, tokens and a tiny authorization server on 127.0.0.1 (metadata, key set,
 * introspection) for the resource-server tests.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";

export const ISSUER = "https://auth.example.com";
export const RESOURCE = "https://mcp.example.com/mcp";
export const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
/** A fixed clock: 2030-01-01T00:00:00Z, in ms. */
export const NOW = Date.UTC(2030, 0, 1);
export const NOW_SEC = NOW / 1000;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** The public half as published in a key set. */
  jwk: JWK;
}

export async function signingKey(kid = "key-1"): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } };
}

/** The claims of a good token for `RESOURCE` from `ISSUER`; `overrides` with `undefined` drop a claim. */
export function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    iss: ISSUER,
    aud: RESOURCE,
    sub: "user-1",
    client_id: "client-1",
    scope: "mcp:tools",
    iat: NOW_SEC - 60,
    exp: NOW_SEC + 3600,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined));
}

/** A compact JWS access token (`typ: at+jwt`, RFC 9068) signed with `key`. */
export function sign(key: SigningKey, payload: Record<string, unknown> = claims(), kid = key.kid): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" }).sign(key.privateKey);
}

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Route = (request: Recorded) => { status: number; body?: unknown };

export interface LocalServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  requests: Recorded[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0 answering JSON from `routes` (keyed by path), 404 otherwise. */
export async function localServer(routes: Record<string, Route> = {}): Promise<LocalServer> {
  const table = new Map(Object.entries(routes));
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
    requests.push(recorded);
    const route = table.get(new URL(recorded.path, "http://x").pathname);
    const answer = route ? route(recorded) : { status: 404, body: { error: "not_found" } };
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
