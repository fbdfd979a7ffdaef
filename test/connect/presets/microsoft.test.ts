/**
 * The Microsoft Entra preset: a tenant's endpoints stated (not discovered), `offline_access`
 * asked for so a refresh token comes, no `iss`, no revocation endpoint.
 */
import { afterEach, describe, expect, it } from "vitest";
import { microsoft } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { connect, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TENANT = "7b1c2f3e-0000-4000-8000-00000000c0de";
const entraLike = {
  scopes: ["User.Read"],
  discovery: false,
  sendIss: false,
  revocation: false,
  refresh: "offline_access",
} as const;

describe("presets: Microsoft Entra", () => {
  it("puts the tenant in the issuer and every endpoint; a tenant that is not a name is refused", () => {
    const config = microsoft({ ...CLIENT, tenant: TENANT });
    expect(config.issuer).toBe(`https://login.microsoftonline.com/${TENANT}/v2.0`);
    expect(config.metadata?.authorization_endpoint).toBe(
      `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`,
    );
    expect(config.metadata?.token_endpoint).toBe(`https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`);
    expect(config.apiHosts).toEqual(["graph.microsoft.com"]);
    expect(microsoft({ ...CLIENT, tenant: "organizations" }).issuer).toBe(
      "https://login.microsoftonline.com/organizations/v2.0",
    );
    expect(() => microsoft({ ...CLIENT, tenant: "../evil" })).toThrow(RangeError);
    expect(() => microsoft({ ...CLIENT, tenant: "a/b" })).toThrow(RangeError);
  });

  it("connects at the tenant's paths with offline_access added, and refreshes the expired token", async () => {
    const preset = microsoft({ ...CLIENT, tenant: TENANT });
    server = await startLikeProvider(preset, entraLike);
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, credential } = await connect(flow, ["User.Read"]);
    expect(authorizationUrl.pathname).toBe(`/${TENANT}/oauth2/v2.0/authorize`);
    expect(authorizationUrl.searchParams.get("scope")).toBe("offline_access User.Read");
    expect(credential.scopes).toEqual(expect.arrayContaining(["User.Read", "offline_access"]));
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, ["User.Read"]);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
    expect(server.tokenRequests.at(-1)?.form.get("grant_type")).toBe("refresh_token");
  });

  it("has no revocation endpoint", async () => {
    const preset = microsoft({ ...CLIENT, tenant: TENANT });
    server = await startLikeProvider(preset, entraLike);
    const found = await new OAuthServers().get(rehome(preset, server.origin));
    expect(found.as.revocation_endpoint).toBeUndefined();
  });
});
