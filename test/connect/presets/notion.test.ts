/**
 * The Notion preset against a server that requires `owner=user`, authenticates the client with
 * HTTP Basic only, has no scopes, sends no `iss`, and issues refresh tokens.
 */
import { afterEach, describe, expect, it } from "vitest";
import { notion } from "../../../src/connect/index.js";
import { authorize, connect, finish, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const notionLike = {
  scopes: [],
  impliedScope: "read_content",
  discovery: false,
  sendIss: false,
  revocation: false,
  requiredParams: { owner: "user" },
  authMethod: "client_secret_basic",
} as const;

describe("presets: Notion", () => {
  it("sends owner=user and no scope, authenticates with HTTP Basic, and refreshes", async () => {
    const preset = notion(CLIENT);
    expect(preset.apiHosts).toEqual(["api.notion.com"]);
    server = await startLikeProvider(preset, notionLike);
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, credential } = await connect(flow, []);
    expect(authorizationUrl.pathname).toBe("/v1/oauth/authorize");
    expect(authorizationUrl.searchParams.get("owner")).toBe("user");
    expect(authorizationUrl.searchParams.has("scope")).toBe(false);
    const exchange = server.tokenRequests[0];
    expect(exchange?.authorization).toMatch(/^Basic /);
    expect(exchange?.form.has("client_secret")).toBe(false);
    expect(credential.scopes).toEqual([]);
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, []);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
  });

  it("with the secret in the form instead, the provider refuses the code", async () => {
    const preset = notion(CLIENT);
    server = await startLikeProvider(preset, notionLike);
    const flow = flowFor({ p: { ...rehome(preset, server.origin), tokenEndpointAuthMethod: "client_secret_post" } });
    const { callback, state } = await authorize(flow, []);
    expect(callback.searchParams.get("code")).toBeTruthy();
    await expect(finish(flow, callback, state)).rejects.toMatchObject({ error: "invalid_client" });
    expect(server.tokenRequests).toHaveLength(0);
  });
});
