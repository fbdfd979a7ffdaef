import { beforeAll, describe, expect, it } from "vitest";
import {
  AuthorizationServerUnavailableError,
  type BearerVerifier,
  createBearerVerifier,
  withBearerAuth,
} from "../../src/auth/index.js";
import type { HandleExtra } from "../../src/transports/http/index.js";
import { claims, ISSUER, METADATA_URL, NOW, NOW_SEC, RESOURCE, type SigningKey, sign, signingKey } from "./support.js";

let key: SigningKey;
beforeAll(async () => {
  key = await signingKey();
});

function protectedHandler(verifier: BearerVerifier, requiredScopes?: string[], onerror?: (error: Error) => void) {
  const seen: HandleExtra[] = [];
  const handler = withBearerAuth(
    async (_request, extra = {}) => {
      seen.push(extra);
      return new Response("ok");
    },
    verifier,
    { resourceMetadataUrl: METADATA_URL, requiredScopes, onerror },
  );
  return { handler, seen };
}

const localVerifier = () =>
  createBearerVerifier({ issuer: ISSUER, audience: RESOURCE, jwks: { keys: [key.jwk] }, now: () => NOW });

function post(authorization?: string): Request {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return new Request(RESOURCE, { method: "POST", headers, body: "{}" });
}

describe("withBearerAuth", () => {
  it("passes a valid token's AuthInfo on, in place of any authInfo the caller supplied", async () => {
    const { handler, seen } = protectedHandler(localVerifier());
    const token = await sign(key);
    const forged = { token: "x", issuer: ISSUER, subject: "admin" };
    const response = await handler(post(`Bearer ${token}`), { localAddress: "127.0.0.1", authInfo: forged });
    expect(response.status).toBe(200);
    expect(seen).toEqual([
      { localAddress: "127.0.0.1", authInfo: expect.objectContaining({ subject: "user-1", token }) },
    ]);
  });

  it("accepts the scheme name in any case", async () => {
    const { handler } = protectedHandler(localVerifier());
    expect((await handler(post(`bearer ${await sign(key)}`))).status).toBe(200);
  });

  it("answers a request without a token 401 with the metadata URL and no error code", async () => {
    const { handler, seen } = protectedHandler(localVerifier());
    const response = await handler(post());
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
    expect(await response.json()).toEqual({ error_description: "This resource requires a bearer access token" });
    expect(seen).toEqual([]);
  });

  it("names the required scopes in the 401 challenge", async () => {
    const { handler } = protectedHandler(localVerifier(), ["mcp:tools", "files:read"]);
    const response = await handler(post());
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${METADATA_URL}", scope="mcp:tools files:read"`,
    );
  });

  it("treats another scheme like no credentials", async () => {
    const { handler } = protectedHandler(localVerifier());
    const response = await handler(post("Basic dXNlcjpwYXNz"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
  });

  it("answers a malformed Bearer value 400 invalid_request", async () => {
    const { handler } = protectedHandler(localVerifier());
    for (const value of ["Bearer", "Bearer ", "Bearer a b", "Bearer a, Bearer b", 'Bearer "quoted"']) {
      const response = await handler(post(value));
      expect(response.status).toBe(400);
      expect(response.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${METADATA_URL}", error="invalid_request", ` +
          'error_description="The Authorization header must be one bearer token: Bearer <token>"',
      );
    }
  });

  it("answers a token that fails verification 401 invalid_token with the reason", async () => {
    const { handler } = protectedHandler(localVerifier(), ["mcp:tools"]);
    const response = await handler(post(`Bearer ${await sign(key, claims({ exp: NOW_SEC - 3600 }))}`));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${METADATA_URL}", error="invalid_token", ` +
        'error_description="The access token has expired", scope="mcp:tools"',
    );
    expect(await response.json()).toEqual({
      error: "invalid_token",
      error_description: "The access token has expired",
    });
  });

  it("answers missing scopes 403 insufficient_scope, challenging with granted plus required scopes", async () => {
    const { handler, seen } = protectedHandler(localVerifier(), ["files:write"]);
    const response = await handler(post(`Bearer ${await sign(key, claims({ scope: "mcp:tools files:read" }))}`));
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${METADATA_URL}", error="insufficient_scope", ` +
        'error_description="The access token lacks a scope this resource requires", ' +
        'scope="mcp:tools files:read files:write"',
    );
    expect(seen).toEqual([]);
  });

  it("answers the verifier's own insufficient_scope the same way, and names its scopes in the 401", async () => {
    const verifier = createBearerVerifier({
      issuer: ISSUER,
      audience: RESOURCE,
      jwks: { keys: [key.jwk] },
      requiredScopes: ["admin"],
      now: () => NOW,
    });
    const { handler } = protectedHandler(verifier);
    const forbidden = await handler(post(`Bearer ${await sign(key)}`));
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("www-authenticate")).toContain('scope="mcp:tools admin"');
    const anonymous = await handler(post());
    expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="admin"`);
  });

  it("answers 503 when the authorization server cannot be asked, and 500 for a failing verifier", async () => {
    const errors: Error[] = [];
    const down: BearerVerifier = {
      requiredScopes: [],
      verify: () => Promise.reject(new AuthorizationServerUnavailableError("The key set could not be fetched")),
    };
    const unavailable = await protectedHandler(down, undefined, (e) => errors.push(e)).handler(post("Bearer abc"));
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("www-authenticate")).toBeNull();
    expect(await unavailable.json()).toEqual({
      error: "temporarily_unavailable",
      error_description: "The authorization server could not be reached",
    });
    const broken: BearerVerifier = { requiredScopes: [], verify: () => Promise.reject(new Error("bug")) };
    const failed = await protectedHandler(broken, undefined, (e) => errors.push(e)).handler(post("Bearer abc"));
    expect(failed.status).toBe(500);
    expect(errors.map((e) => e.message)).toEqual(["The key set could not be fetched", "bug"]);
  });

  it("refuses a required scope OAuth cannot carry when it is built", () => {
    expect(() => protectedHandler(localVerifier(), ["two words"])).toThrow(TypeError);
  });
});
