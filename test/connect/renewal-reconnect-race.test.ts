/**
 * A renewal that finishes after the user connected again: while the old grant's refresh was on
 * its way, the user completed a new hand-off (say, for more scopes) and the page stored the new
 * grant. The renewed old grant must not be written over it: the user would lose the connection
 * just made, and be asked again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CredentialRenewal } from "../../src/connect/renewal.js";
import type { StoredCredential } from "../../src/model/interaction.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  MemoryCredentialVault,
  MemoryExpiringNotes,
  MemoryKeyedLock,
} from "../../src/stores/index.js";
import { close, listen } from "./authorization-servers.js";

const ALICE = { issuer: "https://login.example", subject: "alice" };
const NOW = 1_800_000_000_000;
const running: { server: Parameters<typeof close>[0] }[] = [];
afterEach(async () => {
  for (const { server } of running.splice(0)) await close(server);
});

async function world() {
  const started = await listen("127.0.0.1");
  running.push(started);
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
  started.handle((req, res) => {
    req.resume();
    req.on("end", async () => {
      reached();
      await held;
      answered += 1;
      const body = {
        access_token: "renewed-old-access",
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: "renewed-old-refresh",
        scope: "repo",
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  const stale: StoredCredential = {
    provider: "acme",
    secret: "old-access-expired",
    refreshToken: "old-refresh-token",
    scopes: ["repo"],
    expiresAt: NOW - 1_000,
    updatedAt: NOW - 3_600_000,
  };
  await vault.put(ALICE, stale);
  const renewal = new CredentialRenewal({
    providers: {
      acme: {
        issuer: started.origin,
        clientId: "client",
        metadata: { authorization_endpoint: `${started.origin}/authorize`, token_endpoint: `${started.origin}/token` },
      },
    },
    vault,
    locks: new MemoryKeyedLock(),
    notes: new MemoryExpiringNotes({ now: () => NOW }),
    renewEarlyMs: 30_000,
    forcedRefreshAfterMs: 60_000,
    leaseMs: 10_000,
    waitMs: 10_000,
    outageMs: 5_000,
    now: () => NOW,
  });
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
