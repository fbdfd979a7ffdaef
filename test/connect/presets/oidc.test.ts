/**
 * The generic OpenID Connect preset, and the `iss` defence (RFC 9207, against mix-up, RFC 9700
 * § 4.4): a provider whose metadata says it sends `iss` has a response without it, or with
 * another issuer's, refused before any code is exchanged; the same response with its own `iss`
 * is accepted. A preset that states `iss` is sent requires it without discovery saying so.
 */
import { afterEach, describe, expect, it } from "vitest";
import { github, oidc } from "../../../src/connect/index.js";
import { authorize, finish, flowFor } from "./drive.js";
import { CLIENT, type LikeProvider, rehome, startLikeProvider } from "./like-provider.js";

let server: LikeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const without = (url: URL, name: string) => {
  const copy = new URL(url);
  copy.searchParams.delete(name);
  return copy;
};
const withParam = (url: URL, name: string, value: string) => {
  const copy = new URL(url);
  copy.searchParams.set(name, value);
  return copy;
};

describe("presets: generic OpenID Connect and iss", () => {
  it("has no API hosts until they are listed; a host with a scheme or a path is refused", () => {
    expect(oidc({ issuer: "https://id.example", clientId: "c" }).apiHosts).toEqual([]);
    expect(oidc({ issuer: "https://id.example", clientId: "c", apiHosts: ["api.example"] }).apiHosts).toEqual([
      "api.example",
    ]);
    expect(() => oidc({ issuer: "https://id.example", clientId: "c", apiHosts: ["https://api.example"] })).toThrow(
      RangeError,
    );
    expect(() => oidc({ issuer: "https://id.example", clientId: "c", apiHosts: ["api.example/v1"] })).toThrow(
      RangeError,
    );
    expect(() => oidc({ issuer: "https://id.example", clientId: "c", apiHosts: ["API.example"] })).toThrow(RangeError);
  });

  it("attack: the response of a provider that announces iss arrives without it, or with another issuer's: refused, nothing exchanged; control: with its own iss it connects", async () => {
    server = await startLikeProvider(oidc({ issuer: "https://id.example", clientId: "c" }), { scopes: ["profile"] });
    const flow = flowFor({ p: oidc({ ...CLIENT, issuer: server.origin }) });
    const { callback, state } = await authorize(flow, ["profile"]);
    expect(callback.searchParams.get("iss")).toBe(server.origin);
    const grant = await flow.deps.states.take(state);
    if (grant === undefined) throw new Error("no grant");
    const { finishGrant } = await import("../../../src/connect/provider-flow.js");
    await expect(finishGrant(flow.deps, grant, without(callback, "iss"), state)).rejects.toThrow(/iss/);
    await expect(
      finishGrant(flow.deps, grant, withParam(callback, "iss", "https://attacker.example"), state),
    ).rejects.toThrow(/iss/);
    expect(server.tokenRequests).toHaveLength(0);
    const credential = await finishGrant(flow.deps, grant, callback, state);
    expect(credential.secret).toBeTruthy();
    expect(server.tokenRequests).toHaveLength(1);
  });

  it("requireIss refuses a response without iss even when discovery does not announce it; control: without requireIss it connects", async () => {
    server = await startLikeProvider(oidc({ issuer: "https://id.example", clientId: "c" }), {
      scopes: ["profile"],
      sendIss: false,
    });
    const strict = flowFor({ p: { ...oidc({ ...CLIENT, issuer: server.origin }), requireIss: true } });
    const refused = await authorize(strict, ["profile"]);
    await expect(finish(strict, refused.callback, refused.state)).rejects.toThrow(/iss/);
    const lenient = flowFor({ p: oidc({ ...CLIENT, issuer: server.origin }) });
    const accepted = await authorize(lenient, ["profile"]);
    expect((await finish(lenient, accepted.callback, accepted.state)).secret).toBeTruthy();
  });

  it("a provider stated not to send iss still has one checked when it appears: another issuer's is refused", async () => {
    const preset = github(CLIENT);
    server = await startLikeProvider(preset, { scopes: ["repo"], discovery: false, sendIss: false, refresh: "none" });
    const flow = flowFor({ p: rehome(preset, server.origin) });
    const { callback, state } = await authorize(flow, ["repo"]);
    await expect(finish(flow, withParam(callback, "iss", "https://attacker.example"), state)).rejects.toThrow(/iss/);
  });
});
