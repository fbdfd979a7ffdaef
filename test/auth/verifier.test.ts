import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthorizationServerUnavailableError, BearerTokenError, createBearerVerifier } from "../../src/auth/index.js";
import type { BearerVerifierOptions } from "../../src/auth/verifier.js";
import {
  claims,
  ISSUER,
  type LocalServer,
  localServer,
  NOW,
  NOW_SEC,
  RESOURCE,
  type SigningKey,
  sign,
  signingKey,
} from "./support.js";

let key: SigningKey;
let stranger: SigningKey;
beforeAll(async () => {
  key = await signingKey("key-1");
  stranger = await signingKey("key-1");
});

const servers: LocalServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function verifier(options: Partial<BearerVerifierOptions> = {}) {
  return createBearerVerifier({
    issuer: ISSUER,
    audience: RESOURCE,
    jwks: { keys: [key.jwk] },
    now: () => NOW,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<BearerTokenError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BearerTokenError);
  return error as BearerTokenError;
}

describe("createBearerVerifier with JWT access tokens", () => {
  it("turns a valid token into AuthInfo: issuer, subject, scopes, client id, expiry, claims", async () => {
    const token = await sign(key, claims({ scope: "mcp:tools files:read" }));
    const info = await verifier().verify(token);
    expect(info).toEqual({
      token,
      issuer: ISSUER,
      subject: "user-1",
      clientId: "client-1",
      scopes: ["mcp:tools", "files:read"],
      expiresAt: NOW_SEC + 3600,
      extra: { claims: claims({ scope: "mcp:tools files:read" }) },
    });
  });

  it("accepts the resource in an aud array, and spelled with upper-case scheme and host", async () => {
    const v = verifier();
    await expect(
      v.verify(await sign(key, claims({ aud: ["https://other.example", RESOURCE] }))),
    ).resolves.toMatchObject({ subject: "user-1" });
    await expect(v.verify(await sign(key, claims({ aud: "HTTPS://MCP.EXAMPLE.COM:443/mcp" })))).resolves.toMatchObject({
      subject: "user-1",
    });
  });

  it("reads scopes from an scp array and the client from azp", async () => {
    const info = await verifier().verify(
      await sign(key, claims({ scope: undefined, scp: ["a", "b"], client_id: undefined, azp: "spa" })),
    );
    expect(info.scopes).toEqual(["a", "b"]);
    expect(info.clientId).toBe("spa");
  });

  it.each([
    [
      "another resource in aud",
      { aud: "https://mcp.example.com/other" },
      "The access token was issued for another resource",
    ],
    [
      "the resource's origin for a resource with a path",
      { aud: "https://mcp.example.com" },
      "The access token was issued for another resource",
    ],
    ["no aud", { aud: undefined }, 'The access token has no "aud" claim'],
    [
      "another issuer",
      { iss: "https://evil.example.com" },
      "The access token was issued by another authorization server",
    ],
    ["no iss", { iss: undefined }, 'The access token has no "iss" claim'],
    ["an expired token", { exp: NOW_SEC - 6 }, "The access token has expired"],
    ["a token not valid yet", { nbf: NOW_SEC + 60 }, "The access token is not valid yet"],
    ["no exp", { exp: undefined }, 'The access token has no "exp" claim'],
  ])("refuses %s as invalid_token", async (_name, overrides, message) => {
    const error = await rejection(verifier().verify(await sign(key, claims(overrides))));
    expect(error.code).toBe("invalid_token");
    expect(error.status).toBe(401);
    expect(error.message).toBe(message);
  });

  it("allows clock skew up to clockToleranceSec (default 5 s)", async () => {
    const token = await sign(key, claims({ exp: NOW_SEC - 4 }));
    await expect(verifier().verify(token)).resolves.toMatchObject({ subject: "user-1" });
    await rejection(verifier({ clockToleranceSec: 0 }).verify(token));
  });

  it("refuses a bad signature, an unknown key, a disallowed algorithm and a token that is not a JWT", async () => {
    const forged = await rejection(verifier().verify(await sign(stranger)));
    expect(forged.message).toBe("The access token's signature does not verify");
    const unknown = await rejection(verifier().verify(await sign(key, claims(), "key-2")));
    expect(unknown.message).toBe("The access token is signed with an unknown key");
    const alg = await rejection(verifier({ algorithms: ["RS256"] }).verify(await sign(key)));
    expect(alg.message).toBe("The access token is signed with an algorithm this resource does not accept");
    const token = await sign(key);
    const tampered = await rejection(verifier().verify(`${token.split(".")[0]}.e30.${token.split(".")[2]}`));
    expect(tampered.code).toBe("invalid_token");
    for (const garbage of ["opaque-token", "a.b.c"]) {
      expect((await rejection(verifier().verify(garbage))).message).toBe("The access token is not a well-formed JWT");
    }
  });

  it("refuses a token without the required scopes with insufficient_scope, naming granted plus required", async () => {
    const v = verifier({ requiredScopes: ["mcp:tools", "files:write"] });
    expect(v.requiredScopes).toEqual(["mcp:tools", "files:write"]);
    const error = await rejection(v.verify(await sign(key, claims({ scope: "files:read mcp:tools" }))));
    expect(error.code).toBe("insufficient_scope");
    expect(error.status).toBe(403);
    expect(error.scopes).toEqual(["files:read", "mcp:tools", "files:write"]);
    await expect(v.verify(await sign(key, claims({ scope: "files:write mcp:tools" })))).resolves.toMatchObject({
      scopes: ["files:write", "mcp:tools"],
    });
  });

  it("lets a failure that is not about the token through as it is, so it is not blamed on the client", async () => {
    const broken = verifier({
      now: () => {
        throw new RangeError("clock broke");
      },
    });
    await expect(broken.verify(await sign(key))).rejects.toThrow(new RangeError("clock broke"));
  });

  it("refuses bad configuration with a TypeError", () => {
    expect(() => verifier({ audience: "mcp.example.com" })).toThrow(TypeError);
    expect(() => verifier({ audience: "https://mcp.example.com/mcp#x" })).toThrow(TypeError);
    expect(() => verifier({ audience: [] })).toThrow(TypeError);
    expect(() => verifier({ requiredScopes: ['a"b'] })).toThrow(TypeError);
    expect(() => verifier({ clockToleranceSec: -1 })).toThrow(TypeError);
  });
});

describe("createBearerVerifier with a remote key set", () => {
  it("fetches the key set from jwksUri once and keeps it for later tokens", async () => {
    const as = await localServer({ "/jwks": () => ({ status: 200, body: { keys: [key.jwk] } }) });
    servers.push(as);
    const v = verifier({ jwks: undefined, jwksUri: `${as.origin}/jwks` });
    await expect(v.verify(await sign(key))).resolves.toMatchObject({ subject: "user-1" });
    await expect(v.verify(await sign(key, claims({ sub: "user-2" })))).resolves.toMatchObject({ subject: "user-2" });
    expect(as.requests.map((r) => r.path)).toEqual(["/jwks"]);
  });

  it("finds jwks_uri in the issuer's metadata when neither jwks nor jwksUri is given", async () => {
    const as = await localServer();
    servers.push(as);
    const issuer = `${as.origin}/tenant`;
    as.routes.set("/.well-known/oauth-authorization-server/tenant", () => ({
      status: 200,
      body: { issuer, jwks_uri: `${as.origin}/keys` },
    }));
    as.routes.set("/keys", () => ({ status: 200, body: { keys: [key.jwk] } }));
    const v = verifier({ issuer, jwks: undefined });
    await expect(v.verify(await sign(key, claims({ iss: issuer })))).resolves.toMatchObject({
      issuer,
      subject: "user-1",
    });
    expect(as.requests.map((r) => r.path)).toEqual(["/.well-known/oauth-authorization-server/tenant", "/keys"]);
  });

  it("falls back to OpenID Connect discovery, and refuses metadata that names another issuer", async () => {
    const as = await localServer();
    servers.push(as);
    const issuer = as.origin;
    as.routes.set("/.well-known/openid-configuration", () => ({
      status: 200,
      body: { issuer, jwks_uri: `${issuer}/k` },
    }));
    as.routes.set("/k", () => ({ status: 200, body: { keys: [key.jwk] } }));
    const good = verifier({ issuer, jwks: undefined });
    await expect(good.verify(await sign(key, claims({ iss: issuer })))).resolves.toMatchObject({ issuer });

    as.routes.set("/.well-known/oauth-authorization-server", () => ({
      status: 200,
      body: { issuer: "https://elsewhere.example", jwks_uri: `${issuer}/k` },
    }));
    const bad = verifier({ issuer, jwks: undefined });
    await expect(bad.verify(await sign(key, claims({ iss: issuer })))).rejects.toBeInstanceOf(
      AuthorizationServerUnavailableError,
    );
  });

  it("reports an unreachable or broken key set as AuthorizationServerUnavailableError, not as a bad token", async () => {
    const as = await localServer({ "/jwks": () => ({ status: 500 }) });
    servers.push(as);
    const broken = verifier({ jwks: undefined, jwksUri: `${as.origin}/jwks` });
    await expect(broken.verify(await sign(key))).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
    await as.close();
    await expect(broken.verify(await sign(key))).rejects.toBeInstanceOf(AuthorizationServerUnavailableError);
  });
});
