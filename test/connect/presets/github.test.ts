/**
 * The GitHub preset against a server that answers as GitHub does: no discovery document (the
 * preset's stated endpoints), no `iss`, a comma-separated `scope` and a lowercase `bearer` in the
 * token response, refusals with HTTP 200, and no RFC 7009 endpoint. An OAuth app's token neither
 * expires nor refreshes; a GitHub App's expiring user token refreshes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { github, githubFacts } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { alice, connect, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const githubLike = {
  scopes: ["repo", "gist"],
  discovery: false,
  sendIss: false,
  revocation: false,
  grantedScopes: ",",
  tokenType: "bearer",
  errorsWith200: true,
} as const;

describe("presets: GitHub", () => {
  it("states its endpoints rather than discovering them, and names api.github.com alone as its API host", () => {
    const config = github(CLIENT);
    expect(config.metadata?.authorization_endpoint).toBe("https://github.com/login/oauth/authorize");
    expect(config.metadata?.token_endpoint).toBe("https://github.com/login/oauth/access_token");
    expect(config.metadata?.revocation_endpoint).toBeUndefined();
    expect(config.metadata?.authorization_response_iss_parameter_supported).toBe(false);
    expect(config.apiHosts).toEqual(["api.github.com"]);
    expect(githubFacts.revocation.value.kind).toBe("provider-specific");
  });

  it("an OAuth app: connects without discovery or iss, reads the comma-separated scopes granted, and stores no refresh token or expiry", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "none", noExpiry: true });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, callback, credential } = await connect(flow, ["repo", "gist"]);
    expect(authorizationUrl.pathname).toBe("/login/oauth/authorize");
    expect(authorizationUrl.searchParams.get("scope")).toBe("repo gist");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(callback.searchParams.has("iss")).toBe(false);
    expect(credential.scopes).toEqual(["repo", "gist"]);
    expect(credential.refreshToken).toBeUndefined();
    expect(credential.expiresAt).toBeUndefined();
    // Read as two scopes, the grant covers a tool asking for either: no second hand-off.
    flow.clock.time += 30 * 24 * 3600_000;
    const again = await requireNow(flow, ["gist"]);
    expect("credential" in again && again.credential.secret).toBe(credential.secret);
  });

  it('without the comma reading, the same grant is stored as one scope "repo,gist" and every call hands off again', async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "none", noExpiry: true });
    const { grantedScopeDelimiter: _, ...spaceOnly } = rehome(preset, server.origin);
    const flow = flowFor({ p: spaceOnly });
    const { credential } = await connect(flow, ["repo", "gist"]);
    expect(credential.scopes).toEqual(["repo,gist"]);
    expect(await requireNow(flow, ["gist"])).toEqual({ handOff: true });
  });

  it("a GitHub App with expiring user tokens: the expired token is refreshed at the stated token endpoint", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "always" });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { credential } = await connect(flow, ["repo"]);
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, ["repo"]);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
    expect(server.tokenRequests.at(-1)?.form.get("grant_type")).toBe("refresh_token");
    expect(server.tokenRequests.at(-1)?.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });

  it("a refresh token GitHub refuses with HTTP 200 and an error ends the credential: the next call hands off again, it is no outage", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "always" });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { credential } = await connect(flow, ["repo"]);
    await flow.vault.put(alice, { ...credential, refreshToken: "a-refresh-token-github-never-issued" });
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    expect(await requireNow(flow, ["repo"])).toEqual({ handOff: true });
    expect(await flow.vault.get(alice, "p")).toBeUndefined();
  });

  it("read as a plain server would, that same 200 refusal looks like an outage and the expired credential cannot be used or replaced", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "always" });
    const { tokenErrorsWithStatus200: _, ...plain } = rehome(preset, server.origin);
    const flow = flowFor({ p: plain });
    const { credential } = await connect(flow, ["repo"]);
    await flow.vault.put(alice, { ...credential, refreshToken: "a-refresh-token-github-never-issued" });
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const outcome = await requireNow(flow, ["repo"]);
    expect("error" in outcome && (outcome.error as { code?: string }).code).toBe("TRANSPORT_ERROR");
  });

  it("no revocation endpoint is configured, since GitHub's revocation is not RFC 7009", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { ...githubLike, refresh: "none" });
    const found = await new OAuthServers().get(rehome(preset, server.origin));
    expect(found.as.revocation_endpoint).toBeUndefined();
    expect(found.as.token_endpoint).toBe(`${server.origin}/login/oauth/access_token`);
  });
});
