/**
 * The Atlassian preset against a server that, as auth.atlassian.com does, refuses an
 * authorization request without `audience=api.atlassian.com` and `prompt=consent`, issues a
 * refresh token only for `offline_access`, sends no `iss`, and has no revocation endpoint.
 */
import { afterEach, describe, expect, it } from "vitest";
import { atlassian } from "../../../src/connect/index.js";
import { authorize, connect, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const atlassianLike = {
  scopes: ["read:jira-work", "read:me"],
  discovery: false,
  sendIss: false,
  revocation: false,
  refresh: "offline_access",
  requiredParams: { audience: "api.atlassian.com", prompt: "consent" },
} as const;

describe("presets: Atlassian", () => {
  it("sends audience and prompt, adds offline_access, and refreshes the expired token", async () => {
    const preset = atlassian(CLIENT);
    expect(preset.apiHosts).toEqual(["api.atlassian.com"]);
    server = await startLikeProvider(preset, atlassianLike);
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, credential } = await connect(flow, ["read:jira-work"]);
    expect(authorizationUrl.pathname).toBe("/authorize");
    expect(authorizationUrl.searchParams.get("audience")).toBe("api.atlassian.com");
    expect(authorizationUrl.searchParams.get("scope")).toBe("offline_access read:jira-work");
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, ["read:jira-work"]);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
    expect(server.tokenRequests.at(-1)?.form.get("grant_type")).toBe("refresh_token");
  });

  it("without the audience parameter the provider refuses the request", async () => {
    const preset = atlassian(CLIENT);
    server = await startLikeProvider(preset, atlassianLike);
    const { authorizationParams: _, ...bare } = rehome(preset, server.origin);
    await expect(authorize(flowFor({ p: bare }), ["read:jira-work"])).rejects.toThrow(/answered 400/);
  });

  it("the flow's own parameters cannot be replaced by extra ones", async () => {
    const preset = atlassian(CLIENT);
    server = await startLikeProvider(preset, atlassianLike);
    const hijack = { ...(preset.authorizationParams ?? {}), redirect_uri: "https://evil.example/cb", state: "fixed" };
    const flow = flowFor({ p: { ...rehome(preset, server.origin), authorizationParams: hijack } });
    const { authorizationUrl } = await authorize(flow, ["read:jira-work"]);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe("https://connect.example/connect/callback/p");
    expect(authorizationUrl.searchParams.get("state")).not.toBe("fixed");
    expect(authorizationUrl.searchParams.getAll("redirect_uri")).toHaveLength(1);
  });
});
