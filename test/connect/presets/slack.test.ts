/**
 * The Slack preset against a server that answers as Slack's OAuth v2 does: comma-separated scopes
 * both ways (a space-separated request is refused), `token_type: bot`, no `iss`, refusals with
 * HTTP 200, and, without token rotation, a token that neither expires nor refreshes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { slack } from "../../../src/connect/index.js";
import { alice, authorize, connect, finish, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const slackLike = {
  scopes: ["channels:read", "chat:write"],
  discovery: false,
  sendIss: false,
  revocation: false,
  requestScopes: ",",
  grantedScopes: ",",
  tokenType: "bot",
  errorsWith200: true,
} as const;

describe("presets: Slack", () => {
  it("asks with comma-separated scopes, stores the bot token with each scope granted, and no refresh token without rotation", async () => {
    const preset = slack(CLIENT);
    expect(preset.metadata?.token_endpoint).toBe("https://slack.com/api/oauth.v2.access");
    expect(preset.apiHosts).toEqual(["slack.com"]);
    server = await startLikeProvider(preset, { ...slackLike, refresh: "none", noExpiry: true });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, credential } = await connect(flow, ["channels:read", "chat:write"]);
    expect(authorizationUrl.searchParams.get("scope")).toBe("channels:read,chat:write");
    expect(credential.scopes).toEqual(["channels:read", "chat:write"]);
    expect(credential.refreshToken).toBeUndefined();
    expect(credential.expiresAt).toBeUndefined();
    expect(await requireNow(flow, ["chat:write"])).toEqual({ credential });
  });

  it("space-separated, the same request is refused by the provider; read as a Bearer-only server, the bot token is refused", async () => {
    const preset = slack(CLIENT);
    server = await startLikeProvider(preset, { ...slackLike, refresh: "none" });
    const { scopeDelimiter: _, ...spaced } = rehome(preset, server.origin);
    await expect(authorize(flowFor({ p: spaced }), ["channels:read", "chat:write"])).rejects.toThrow(/answered 400/);
    const { bearerTokenTypes: __, ...bearerOnly } = rehome(preset, server.origin);
    const flow = flowFor({ p: bearerOnly });
    const { callback, state } = await authorize(flow, ["chat:write"]);
    await expect(finish(flow, callback, state)).rejects.toThrow(/token_type/);
  });

  it("with token rotation: the expired token refreshes; a refused refresh token (ok: false, HTTP 200) leads to a new hand-off", async () => {
    const preset = slack(CLIENT);
    server = await startLikeProvider(preset, { ...slackLike, refresh: "always" });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { credential } = await connect(flow, ["chat:write"]);
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, ["chat:write"]);
    if (!("credential" in renewed)) throw new Error("not renewed");
    expect(renewed.credential.secret).not.toBe(credential.secret);
    expect(renewed.credential.scopes).toEqual(["chat:write"]);
    await flow.vault.put(alice, { ...renewed.credential, refreshToken: "xoxe-never-issued" });
    flow.clock.time = (renewed.credential.expiresAt ?? 0) + 1;
    expect(await requireNow(flow, ["chat:write"])).toEqual({ handOff: true });
  });
});
