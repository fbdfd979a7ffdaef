/**
 * The Google preset against a server found by discovery that sends `iss`, issues a refresh token
 * only for `access_type=offline`, and has an RFC 7009 revocation endpoint.
 */
import { afterEach, describe, expect, it } from "vitest";
import { google } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { connect, flowFor, requireNow } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SCOPE = "https://www.googleapis.com/auth/drive.readonly";
const googleLike = { scopes: [SCOPE], refresh: "offline_access", offlineParams: { access_type: "offline" } } as const;

describe("presets: Google", () => {
  it("is discovered at https://accounts.google.com, with Google's API hosts", () => {
    const config = google(CLIENT);
    expect(config.issuer).toBe("https://accounts.google.com");
    expect(config.metadata).toBeUndefined();
    expect(config.apiHosts).toContain("www.googleapis.com");
  });

  it("asks for access_type=offline and prompt=consent, gets a refresh token, and renews the expired access token with it", async () => {
    const preset = google(CLIENT);
    server = await startLikeProvider(preset, googleLike);
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { authorizationUrl, callback, credential } = await connect(flow, [SCOPE]);
    expect(authorizationUrl.searchParams.get("access_type")).toBe("offline");
    expect(authorizationUrl.searchParams.get("prompt")).toBe("consent");
    expect(callback.searchParams.get("iss")).toBe(server.origin);
    expect(credential.scopes).toContain(SCOPE);
    expect(credential.refreshToken).toBeTruthy();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    const renewed = await requireNow(flow, [SCOPE]);
    expect("credential" in renewed && renewed.credential.secret).not.toBe(credential.secret);
  });

  it("without access_type=offline the same server sends no refresh token, and the expired credential leads to a new hand-off", async () => {
    const preset = google(CLIENT);
    server = await startLikeProvider(preset, googleLike);
    const { authorizationParams: _, ...online } = rehome(preset, server.origin);
    const flow = flowFor({ p: online });
    const { credential } = await connect(flow, [SCOPE]);
    expect(credential.refreshToken).toBeUndefined();
    flow.clock.time = (credential.expiresAt ?? 0) + 1;
    expect(await requireNow(flow, [SCOPE])).toEqual({ handOff: true });
  });

  it("its revocation endpoint is the one discovery names", async () => {
    const preset = google(CLIENT);
    server = await startLikeProvider(preset, googleLike);
    const found = await new OAuthServers().get(rehome(preset, server.origin));
    expect(found.as.revocation_endpoint).toBe(`${server.origin}/token/revocation`);
  });
});
