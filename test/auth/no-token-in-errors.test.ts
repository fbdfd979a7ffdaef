/**
 * A bearer token is a credential: no refusal, error message or error cause may repeat it, nor
 * any of its parts (spec 2025-11-25: basic/authorization § Token Theft).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BearerVerifier, createBearerVerifier, withBearerAuth } from "../../src/auth/index.js";
import {
  claims,
  ISSUER,
  type LocalServer,
  localServer,
  METADATA_URL,
  NOW,
  NOW_SEC,
  RESOURCE,
  sign,
  signingKey,
} from "./support.js";

/** Every text an error carries: name, message, stack, own properties, and the same for its causes. */
function errorTexts(error: unknown): string[] {
  if (!(error instanceof Error)) return [String(error)];
  const own = Object.entries(error).map(
    ([name, value]) => `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
  return [
    error.name,
    error.message,
    error.stack ?? "",
    ...own,
    ...(error.cause === undefined ? [] : errorTexts(error.cause)),
  ];
}

async function responseText(response: Response): Promise<string> {
  const lines: string[] = [];
  response.headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  return `${response.status}\n${lines.join("\n")}\n\n${await response.text()}`;
}

/** The token and each of its dot-separated parts long enough to be telling. */
function fragments(token: string): string[] {
  return [token, ...token.split(".").filter((part) => part.length >= 8)];
}

let as: LocalServer;
let jwtVerifier: BearerVerifier;
let opaqueVerifier: BearerVerifier;
let deadVerifier: BearerVerifier;
const tokens: string[] = [];

beforeAll(async () => {
  const key = await signingKey();
  const other = await signingKey();
  as = await localServer({
    "/introspect": (request) => {
      const token = new URLSearchParams(request.body).get("token");
      if (token === "opaque-broken-7f3a9c") return { status: 500, body: { error: "server_error" } };
      return { status: 200, body: { active: token === "opaque-other-aud-5b1d", aud: "https://elsewhere.example" } };
    },
  });
  const dead = await localServer();
  await dead.close();
  const base = { issuer: ISSUER, audience: RESOURCE, now: () => NOW, requiredScopes: ["mcp:tools"] };
  jwtVerifier = createBearerVerifier({ ...base, jwks: { keys: [key.jwk] } });
  const introspection = { endpoint: `${as.origin}/introspect`, clientId: "rs", clientSecret: "rs-secret" };
  opaqueVerifier = createBearerVerifier({ ...base, introspection });
  deadVerifier = createBearerVerifier({ ...base, jwksUri: `${dead.origin}/jwks` });
  tokens.push(
    await sign(key, claims({ exp: NOW_SEC - 600 })),
    await sign(key, claims({ aud: "https://elsewhere.example" })),
    await sign(key, claims({ iss: "https://evil.example" })),
    await sign(key, claims({ scope: "nothing" })),
    await sign(key, claims({ nbf: NOW_SEC + 600 })),
    await sign(key, claims({ exp: undefined })),
    await sign(other),
    `${(await sign(key)).slice(0, -4)}AAAA`,
  );
});

afterAll(async () => {
  await as.close();
});

describe("no error text contains the token", () => {
  it("holds for every JWT the verifier refuses, as errors and as HTTP answers", async () => {
    for (const verifier of [jwtVerifier, deadVerifier]) {
      const reported: Error[] = [];
      const handler = withBearerAuth(async () => new Response("ok"), verifier, {
        resourceMetadataUrl: METADATA_URL,
        onerror: (error) => reported.push(error),
      });
      for (const token of tokens) {
        const error = await verifier.verify(token).then(
          () => new Error("accepted"),
          (e: unknown) => e,
        );
        const request = new Request(RESOURCE, { method: "POST", headers: { authorization: `Bearer ${token}` } });
        const texts = [...errorTexts(error), await responseText(await handler(request))];
        texts.push(...reported.splice(0).flatMap(errorTexts));
        for (const fragment of fragments(token)) {
          expect(texts.filter((text) => text.includes(fragment))).toEqual([]);
        }
        expect(error).not.toEqual(new Error("accepted"));
      }
    }
  });

  it("holds for opaque tokens refused by introspection or lost to a failing endpoint", async () => {
    for (const token of ["opaque-inactive-9e2c", "opaque-other-aud-5b1d", "opaque-broken-7f3a9c"]) {
      const error = await opaqueVerifier.verify(token).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(errorTexts(error).filter((text) => text.includes(token))).toEqual([]);
    }
  });
});
