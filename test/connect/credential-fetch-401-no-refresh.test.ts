/**
 * A 401 to a token that has no refresh token (a GitHub OAuth app's, which never expires): there is
 * nothing to renew it with, so the 401 is handed back and the connection stays. A 401 says only
 * that this request was not authorized (an endpoint needing another kind of token, such as
 * GitHub's `/app`, answers every user token so); deleting the grant on it would let any URL the
 * model steers to on a listed host disconnect the user.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, type Api, brokerWith, contextFor, routedFetch, startApi } from "./credential-fetch-support.js";

const TOKEN = "gho_oauthAppToken_5d8Rk2";
const apis: Api[] = [];
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close();
});

async function world() {
  const listed = await startApi((request, response) => {
    if (request.path === "/app")
      response
        .writeHead(401, { "content-type": "application/json" })
        .end('{"message":"A JSON web token could not be decoded"}');
    else response.writeHead(200, { "content-type": "application/json" }).end('{"login":"alice"}');
  });
  apis.push(listed);
  const made = await brokerWith([{ provider: "github", secret: TOKEN, scopes: ["repo"], updatedAt: 1 }], {
    providers: { github: { issuer: "https://github.example", clientId: "c", apiHosts: ["api.github.example"] } },
    fetch: routedFetch({ "api.github.example": listed }),
  });
  return { ...made, listed };
}

describe("ctx.credentials.fetch: a 401 to a token without a refresh token", () => {
  it("is handed back, and the connection stays for the next request", async () => {
    const { broker, vault, listed } = await world();
    const refused = await broker.fetch("github", "https://api.github.example/app", {}, contextFor());
    expect(refused.status).toBe(401);
    expect(await vault.get(ALICE, "github")).toMatchObject({ secret: TOKEN });
    const next = await broker.fetch("github", "https://api.github.example/user", {}, contextFor());
    expect(next.status).toBe(200);
    expect(listed.received.map((request) => [request.path, request.headers.authorization])).toEqual([
      ["/app", `Bearer ${TOKEN}`],
      ["/user", `Bearer ${TOKEN}`],
    ]);
  });

  it("a request the API accepts goes through with the token (control)", async () => {
    const { broker, vault } = await world();
    expect((await broker.fetch("github", "https://api.github.example/user", {}, contextFor())).status).toBe(200);
    expect(await vault.get(ALICE, "github")).toBeDefined();
  });
});
