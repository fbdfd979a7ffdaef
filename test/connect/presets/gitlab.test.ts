/**
 * The GitLab preset against a self-managed instance (its `baseUrl`): discovery, refresh tokens
 * always, an RFC 7009 revocation endpoint, and the instance's own host as its API host.
 */
import { afterEach, describe, expect, it } from "vitest";
import { gitlab } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { connect, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("presets: GitLab", () => {
  it("defaults to gitlab.com; a self-managed base URL becomes the issuer and the API host", () => {
    expect(gitlab(CLIENT)).toMatchObject({ issuer: "https://gitlab.com", apiHosts: ["gitlab.com"] });
    expect(gitlab({ ...CLIENT, baseUrl: "https://git.example.org/" })).toMatchObject({
      issuer: "https://git.example.org",
      apiHosts: ["git.example.org"],
    });
  });

  it("a self-managed instance: discovered, connected, refreshed, with its revocation endpoint", async () => {
    server = await startLikeProvider(gitlab(CLIENT), { scopes: ["api", "read_user"] });
    const config = gitlab({ ...CLIENT, baseUrl: server.origin });
    expect(config.apiHosts).toEqual([new URL(server.origin).host]);
    const flow = flowFor({ p: config });
    const { authorizationUrl, credential } = await connect(flow, ["api", "read_user"]);
    expect(authorizationUrl.searchParams.get("scope")).toBe("api read_user");
    expect(credential.scopes).toEqual(["api", "read_user"]);
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, ["api"]);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
    const found = await new OAuthServers().get(config);
    expect(found.as.revocation_endpoint).toBe(`${server.origin}/token/revocation`);
  });
});
