/**
 * A renewal of a grant with many scopes is recorded: a provider may grant more scopes than an
 * audit record holds (64; Atlassian's granular scopes, Google's with include_granted_scopes), and
 * the record then names the first 64 instead of being refused by the log as a whole.
 */
import { describe, expect, it } from "vitest";
import { auditTo } from "../../src/stores/audit.js";
import { MemoryAuditLog } from "../../src/stores/index.js";
import { ALICE, expiredGrant, json, renewalOf, tokenProvider } from "./renewal-support.js";

async function renewGranting(scopes: string[]) {
  const config = await tokenProvider((_req, res) =>
    json(res, 200, { access_token: "renewed-access", token_type: "Bearer", expires_in: 3600, scope: scopes.join(" ") }),
  );
  const { vault, stale } = await expiredGrant();
  const audit = new MemoryAuditLog();
  const errors: unknown[] = [];
  // As the broker gives it: a refused entry is reported, and the renewal goes on.
  const renewal = renewalOf(config, vault, {
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
