import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthorizationServerUnavailableError, BearerTokenError, createBearerVerifier } from "../../src/auth/index.js";
import type { BearerVerifierOptions } from "../../src/auth/verifier.js";
import {
  ISSUER,
  type LocalServer,
  localServer,
  NOW,
  NOW_SEC,
  RESOURCE,
  type Recorded,
  type SigningKey,
  sign,
  signingKey,
} from "./support.js";

const CLIENT_ID = "mcp-server";
const CLIENT_SECRET = "s3cr:t &more";

/** What the endpoint knows about each opaque token. */
const TOKENS: Record<string, Record<string, unknown>> = {
  "good-token": {
    active: true,
    iss: ISSUER,
    aud: RESOURCE,
    sub: "user-7",
    client_id: "client-9",
    scope: "mcp:tools",
    exp: NOW_SEC + 600,
  },
  "no-iss-token": { active: true, aud: [RESOURCE], sub: "user-8", exp: NOW_SEC + 600 },
  "revoked-token": { active: false },
  "other-aud-token": { active: true, iss: ISSUER, aud: "https://other.example", sub: "u", exp: NOW_SEC + 600 },
  "no-aud-token": { active: true, iss: ISSUER, sub: "u", exp: NOW_SEC + 600 },
  "other-iss-token": { active: true, iss: "https://evil.example", aud: RESOURCE, sub: "u" },
  "expired-token": { active: true, iss: ISSUER, aud: RESOURCE, sub: "u", exp: NOW_SEC - 60 },
  "future-token": { active: true, iss: ISSUER, aud: RESOURCE, sub: "u", nbf: NOW_SEC + 60 },
};

function introspectionRoute(request: Recorded) {
  const expected = `Basic ${btoa("mcp-server:s3cr%3At+%26more")}`;
  if (request.headers.authorization !== expected) return { status: 401, body: { error: "invalid_client" } };
  const form = new URLSearchParams(request.body);
  return { status: 200, body: TOKENS[form.get("token") ?? ""] ?? { active: false } };
}

let as: LocalServer;
let key: SigningKey;
beforeAll(async () => {
  key = await signingKey();
});
afterEach(async () => {
  await as.close();
});

async function setup(options: Partial<BearerVerifierOptions> = {}) {
  as = await localServer({ "/introspect": introspectionRoute });
  return createBearerVerifier({
    issuer: ISSUER,
    audience: RESOURCE,
    introspection: { endpoint: `${as.origin}/introspect`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    now: () => NOW,
    ...options,
  });
}

describe("token introspection (RFC 7662)", () => {
  it("asks the endpoint with client credentials and turns an active token into AuthInfo", async () => {
    const v = await setup();
    const info = await v.verify("good-token");
    expect(info).toMatchObject({
      token: "good-token",
      issuer: ISSUER,
      subject: "user-7",
      clientId: "client-9",
      scopes: ["mcp:tools"],
      expiresAt: NOW_SEC + 600,
    });
    const [request] = as.requests;
    expect(request?.method).toBe("POST");
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      token: "good-token",
      token_type_hint: "access_token",
    });
  });

  it("takes the configured issuer when the answer has no iss", async () => {
    const v = await setup();
    await expect(v.verify("no-iss-token")).resolves.toMatchObject({ issuer: ISSUER, subject: "user-8" });
  });

  it.each([
    ["revoked-token", "The access token is not active"],
    ["unknown-token", "The access token is not active"],
    ["other-aud-token", "The access token was issued for another resource"],
    ["no-aud-token", "The access token was issued for another resource"],
    ["other-iss-token", "The access token was issued by another authorization server"],
    ["expired-token", "The access token has expired"],
    ["future-token", "The access token is not valid yet"],
  ])("refuses %s as invalid_token", async (token, message) => {
    const v = await setup();
    const error = await v.verify(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BearerTokenError);
    expect((error as BearerTokenError).code).toBe("invalid_token");
    expect((error as BearerTokenError).message).toBe(message);
  });

  it("applies requiredScopes to introspected tokens too", async () => {
    const v = await setup({ requiredScopes: ["admin"] });
    const error = await v.verify("good-token").catch((e: unknown) => e);
    expect((error as BearerTokenError).code).toBe("insufficient_scope");
    expect((error as BearerTokenError).scopes).toEqual(["mcp:tools", "admin"]);
  });

  it("reports an endpoint that refuses our credentials or fails as unavailable, not as a bad token", async () => {
    const v = await setup();
    as.routes.set("/introspect", () => ({ status: 401, body: { error: "invalid_client" } }));
    await expect(v.verify("good-token")).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
    as.routes.set("/introspect", () => ({ status: 200, body: ["not", "an", "object"] }));
    await expect(v.verify("good-token")).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
  });

  it("checks JWTs locally when a key set is configured, and sends only opaque tokens to the endpoint", async () => {
    const v = await setup({ jwks: { keys: [key.jwk] } });
    await expect(v.verify(await sign(key))).resolves.toMatchObject({ subject: "user-1" });
    expect(as.requests).toEqual([]);
    await expect(v.verify("good-token")).resolves.toMatchObject({ subject: "user-7" });
    expect(as.requests).toHaveLength(1);
  });

  it("sends JWTs to the endpoint too when no key set is configured", async () => {
    const v = await setup();
    const jwt = await sign(key);
    await expect(v.verify(jwt)).rejects.toThrow("The access token is not active");
    expect(new URLSearchParams(as.requests[0]?.body).get("token")).toBe(jwt);
  });
});
