/**
 * A renewal that finishes after the user connected again: while the old grant's refresh was on
 * its way, the user completed a new hand-off (say, for more scopes) and the page stored the new
 * grant. The renewed old grant must not be written over it: the user would lose the connection
 * just made, and be asked again.
 */
import { describe, expect, it } from "vitest";
import type { StoredCredential } from "../../src/model/interaction.js";
import { ALICE, expiredGrant, json, NOW, renewalOf, tokenProvider } from "./renewal-support.js";

async function world() {
  let answered = 0;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached: () => void = () => {};
  /** Resolves once the refresh request reached the provider. */
  const asked = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const config = await tokenProvider(async (_req, res) => {
    reached();
    await held;
    answered += 1;
    json(res, 200, {
      access_token: "renewed-old-access",
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: "renewed-old-refresh",
      scope: "repo",
    });
  });
  const { vault, stale } = await expiredGrant({ scopes: ["repo"] });
  const renewal = renewalOf(config, vault);
  return { vault, renewal, stale, release, asked, answered: () => answered };
}

describe("renewal: the user connected again meanwhile", () => {
  it("the new grant stored by the page stays; the renewal returns it", async () => {
    const { vault, renewal, stale, release, asked } = await world();
    const renewing = renewal.renew(ALICE, stale);
    await asked;
    const fresh: StoredCredential = {
      provider: "acme",
      secret: "new-grant-access",
      refreshToken: "new-grant-refresh",
      scopes: ["repo", "admin"],
      expiresAt: NOW + 3_600_000,
      updatedAt: NOW,
      createdAt: NOW,
    };
    await vault.put(ALICE, fresh);
    release();
    const renewed = await renewing;
    expect(await vault.get(ALICE, "acme")).toMatchObject({ secret: "new-grant-access", scopes: ["repo", "admin"] });
    expect(renewed?.secret).toBe("new-grant-access");
  });

  it("without a new grant, the renewed one is stored (control)", async () => {
    const { vault, renewal, stale, release, answered } = await world();
    release();
    const renewed = await renewal.renew(ALICE, stale);
    expect(answered()).toBe(1);
    expect(renewed?.secret).toBe("renewed-old-access");
    expect(await vault.get(ALICE, "acme")).toMatchObject({ secret: "renewed-old-access" });
  });
});
