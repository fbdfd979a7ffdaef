/**
 * A renewal of a grant with many scopes is recorded: a provider may grant more scopes than an
 * audit record holds (64; Atlassian's granular scopes, Google's with include_granted_scopes), and
 * the record then names the first 64 instead of being refused by the log as a whole.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CredentialRenewal } from "../../src/connect/renewal.js";
import { auditTo } from "../../src/stores/audit.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  MemoryAuditLog,
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

async function renewGranting(scopes: string[]) {
  const started = await listen("127.0.0.1");
  running.push(started);
  started.handle((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = { access_token: "renewed-access", token_type: "Bearer", expires_in: 3600, scope: scopes.join(" ") };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const vault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  const stale = {
    provider: "acme",
    secret: "old-access",
    refreshToken: "old-refresh-token",
    expiresAt: NOW - 1_000,
    updatedAt: NOW - 3_600_000,
  };
  await vault.put(ALICE, stale);
  const audit = new MemoryAuditLog();
  const errors: unknown[] = [];
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
    // As the broker gives it: a refused entry is reported, and the renewal goes on.
    audit: auditTo(audit, { error: (entry: unknown) => errors.push(entry) } as never),
  });
  const renewed = await renewal.renew(ALICE, stale);
  return { renewed, records: await audit.forUser(ALICE), errors };
}

describe("renewal: the audit record of a grant with many scopes", () => {
  it("names the first 64 of 70 scopes", async () => {
    const scopes = Array.from({ length: 70 }, (_, i) => `read:item-${i}:jira`);
    const { renewed, records, errors } = await renewGranting(scopes);
    expect(errors).toEqual([]);
    expect(renewed?.scopes).toHaveLength(70);
    expect(records).toMatchObject([{ event: "grant.refreshed", outcome: "ok" }]);
    expect(records[0]?.detail?.scopes).toEqual(scopes.slice(0, 64));
  });

  it("names every scope of a grant with a few (control)", async () => {
    const { records } = await renewGranting(["repo", "gist"]);
    expect(records[0]?.detail?.scopes).toEqual(["repo", "gist"]);
  });
});
