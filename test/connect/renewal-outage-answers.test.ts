/**
 * A refresh the provider answers with an error, told apart: a refusal of the refresh token
 * (RFC 6749 § 5.2: `invalid_grant` with 400, or its HTTP 200 spelling at GitHub and Slack) ends
 * the credential, but an answer that says the provider is down (`server_error`,
 * `temporarily_unavailable`, a 5xx or 429 with an error body, Slack's `service_unavailable`) is an
 * outage: the credential is kept, as for a provider that does not answer at all.
 */
import { describe, expect, it } from "vitest";
import type { AuthorizationServerConfig } from "../../src/connect/oauth-server.js";
import { ALICE, expiredGrant, json, renewalOf, tokenProvider } from "./renewal-support.js";

/** A token endpoint answering every refresh with `status` and `body`. */
function provider(status: number, body: Record<string, unknown>, quirks: Partial<AuthorizationServerConfig> = {}) {
  return tokenProvider((_req, res) => json(res, status, body), { clientSecret: "client-secret", ...quirks });
}

async function renewAgainst(config: AuthorizationServerConfig) {
  const { vault, stale } = await expiredGrant({
    secret: "access-token-expired-1",
    refreshToken: "refresh-token-of-alice-1",
  });
  const outcome = await renewalOf(config, vault)
    .renew(ALICE, stale)
    .then(
      (renewed) => ({ renewed }),
      (error: unknown) => ({ error: error as { code?: string } }),
    );
  return { outcome, kept: await vault.get(ALICE, "acme") };
}

describe("renewal: an error answer is a refusal only when it refuses", () => {
  it.each([
    ["503 temporarily_unavailable", 503, { error: "temporarily_unavailable" }, {}],
    ["500 server_error", 500, { error: "server_error" }, {}],
    ["429 with an error body", 429, { error: "slow_down" }, {}],
    ["400 temporarily_unavailable", 400, { error: "temporarily_unavailable" }, {}],
    [
      "Slack's 200 service_unavailable",
      200,
      { ok: false, error: "service_unavailable" },
      { tokenErrorsWithStatus200: true },
    ],
    ["Slack's 200 internal_error", 200, { ok: false, error: "internal_error" }, { tokenErrorsWithStatus200: true }],
  ])("%s: the credential is kept, and the expired token reported as an outage", async (_what, status, body, quirks) => {
    const { outcome, kept } = await renewAgainst(await provider(status, body, quirks));
    expect(outcome).toMatchObject({ error: { code: "TRANSPORT_ERROR" } });
    expect(kept?.refreshToken).toBe("refresh-token-of-alice-1");
  });

  it.each([
    ["400 invalid_grant", 400, { error: "invalid_grant" }, {}],
    ["401 invalid_client", 401, { error: "invalid_client" }, {}],
    ["GitHub's 200 bad_refresh_token", 200, { error: "bad_refresh_token" }, { tokenErrorsWithStatus200: true }],
    [
      "Slack's 200 invalid_refresh_token",
      200,
      { ok: false, error: "invalid_refresh_token" },
      { tokenErrorsWithStatus200: true },
    ],
  ])("%s (a refusal): the credential is removed (control)", async (_what, status, body, quirks) => {
    const { outcome, kept } = await renewAgainst(await provider(status, body, quirks));
    expect(outcome).toEqual({ renewed: undefined });
    expect(kept).toBeUndefined();
  });
});
