/**
 * The account a finished grant records, from a small authorization server whose token endpoint
 * sends no ID token: the userinfo endpoint names it when the grant includes `openid`; a userinfo
 * endpoint that fails is reported and the grant is kept, without an account.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAuthServers } from "../../src/connect/oauth-server.js";
import { finishGrant, type ProviderFlowDeps } from "../../src/connect/provider-flow.js";
import { MemoryGrantStateStore } from "../../src/connect/state-store.js";

let issuer = "";
let userinfo: "works" | "fails" = "works";
let userinfoCalls = 0;
const server = createServer((request, response) => {
  const json = (status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    response.end(JSON.stringify(body));
  };
  if (request.url === "/.well-known/openid-configuration") {
    return json(200, {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
    });
  }
  if (request.url === "/token") {
    return json(200, { access_token: "at-of-octo-123456", token_type: "Bearer", scope: scopeAnswer, expires_in: 60 });
  }
  if (request.url === "/userinfo") {
    userinfoCalls += 1;
    if (userinfo === "fails") return json(500, { error: "server_error" });
    return json(200, { sub: "u-1", preferred_username: "octo\u202Ecat" });
  }
  json(404, {});
});
let scopeAnswer = "openid repo";

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function finish(scopes: string[]) {
  const reports: string[] = [];
  const deps: ProviderFlowDeps = {
    providers: { octo: { issuer, clientId: "c", clientSecret: "s" } },
    servers: new OAuthServers(),
    states: new MemoryGrantStateStore(),
    baseUrl: new URL("http://127.0.0.1:1/"),
    now: () => 1_800_000_000_000,
    report: (message) => reports.push(message),
  };
  const grant = {
    interactionId: "i".repeat(16),
    user: { issuer: "https://auth.example.com", subject: "alice" },
    provider: "octo",
    scopes,
    verifier: "v".repeat(43),
    expiresAt: 1_800_000_600_000,
  };
  const callback = new URL(`http://127.0.0.1:1/connect/callback/octo?code=c1&state=s1`);
  return finishGrant(deps, grant, callback, "s1").then((credential) => ({ credential, reports }));
}

describe("the account of a finished grant", () => {
  it("comes from userinfo when there is no ID token, cleaned of format characters", async () => {
    userinfo = "works";
    scopeAnswer = "openid repo";
    const { credential, reports } = await finish(["openid", "repo"]);
    expect(credential).toMatchObject({ account: "octocat", createdAt: 1_800_000_000_000, scopes: ["openid", "repo"] });
    expect(reports).toEqual([]);
  });

  it("is left out, and the grant kept, when userinfo fails; the failure is reported", async () => {
    userinfo = "fails";
    const { credential, reports } = await finish(["openid", "repo"]);
    expect(credential.secret).toBe("at-of-octo-123456");
    expect(credential.account).toBeUndefined();
    expect(reports).toEqual(["Could not read the provider's userinfo; the grant is stored without its account name"]);
  });

  it("is not asked of userinfo for a grant without openid", async () => {
    userinfo = "works";
    scopeAnswer = "repo";
    const before = userinfoCalls;
    const { credential } = await finish(["repo"]);
    expect(credential.account).toBeUndefined();
    expect(userinfoCalls).toBe(before);
  });
});
