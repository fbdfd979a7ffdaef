/**
 * The audit log of a full demo run (`npm run demo`): every step of alice's hand-off is there, for
 * alice (the MCP authorization server's issuer and her subject), with the client and session,
 * and no secret of the run appears in it in any spelling: not the tokens either authorization
 * server issued (the client's MCP token, the third party's access and refresh tokens, ID tokens),
 * their codes and `state`s, nor the client secrets, cookie keys or the vault key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runFullDemo } from "../../examples/demo/full/story.js";
import { secretForms } from "../../src/server/secret-forms.js";
import { type AuditRecord, SqliteAuditLog } from "../../src/stores/index.js";

const dir = mkdtempSync(join(tmpdir(), "handoff-demo-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The spelling of `secret` found in `text`, if any (as it is, JSON-escaped, percent-encoded, hex, base64). */
function spellingIn(text: string, secret: string): string | undefined {
  return secretForms(secret).find((form) => text.includes(form.literal))?.literal;
}

async function exportOf(log: SqliteAuditLog): Promise<string> {
  let text = "";
  for await (const line of log.exportJsonLines()) {
    expect(line.endsWith("\n")).toBe(true);
    text += line;
  }
  return text;
}

describe.each([
  { browser: "auto", revision: undefined },
  { browser: "scripted", revision: "2025-11-25" },
] as const)("the audit log of a full demo run, browser $browser, revision $revision", ({ browser, revision }) => {
  it("holds every hand-off step for alice, with her client, and none of the run's secrets", async () => {
    const audit = new SqliteAuditLog({ filename: join(dir, `${browser}-${revision ?? "latest"}.db`) });
    const result = await runFullDemo(() => {}, { browser, audit, ...(revision ? { revision } : {}) });
    expect(result).toMatchObject({ text: "alice-repo-1, alice-repo-2", isError: false });
    const text = await exportOf(audit);
    const records = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditRecord);

    // Every record is alice's, and the log has nothing for bob.
    for (const record of records) expect(record.user).toEqual(result.alice);
    expect(await audit.forUser({ issuer: result.alice.issuer, subject: "bob" })).toEqual([]);
    expect((await audit.forUser(result.alice, { limit: 1000 })).reverse()).toEqual(records);

    // One hand-off, told step by step, each naming the session, the hand-off and the client.
    // The hand-off's own steps name it; the use of the credential and the disconnect come later.
    const steps = records.filter((record) => record.event.startsWith("handoff.") || record.event === "grant.stored");
    const [handoff, ...others] = new Set(steps.map((record) => record.interactionId));
    expect(others).toEqual([]);
    expect(records.map((record) => [record.event, record.outcome, record.provider])).toEqual([
      ["handoff.created", "ok", "items"],
      ["handoff.opened", "ok", "items"],
      ["grant.stored", "ok", "items"],
      ["handoff.completed", "ok", "items"],
      ["credential.used", "ok", "items"],
      ["grant.revoked", "ok", "items"],
    ]);
    const [created, ...later] = records as [AuditRecord, ...AuditRecord[]];
    expect(created.client).toEqual({ name: "items-demo-client", version: "1.0.0" });
    for (const record of later) expect(record.client).toMatchObject({ name: "items-demo-client" });
    for (const record of steps) expect(record.interactionId).toBe(handoff);
    for (const record of steps) expect(record.sessionId).toBe(created.sessionId);
    for (const record of records) expect(typeof record.sessionId).toBe("string");
    // The tool's call to the third party's API, once the grant was there: where, how, and its answer.
    const used = records.find((record) => record.event === "credential.used");
    expect(used?.detail).toMatchObject({ method: "GET", status: 200 });
    expect(used?.detail?.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(typeof created.sessionId).toBe("string");
    expect(records.find((record) => record.event === "grant.stored")?.detail?.scopes).toContain("repo");
    const seqs = records.map((record) => record.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const times = records.map((record) => record.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // The secrets were collected: the third party's stored token among them, and the JWTs the
    // authorization servers issued (the client's MCP access token, ID tokens).
    const secrets = result.secretsUsed;
    expect(result.storedSecret).toBeTruthy();
    expect(secrets).toContain(result.storedSecret);
    expect(secrets.filter((secret) => secret.startsWith("eyJ")).length).toBeGreaterThanOrEqual(2);
    // Told by its index only, so that a failure does not print the secret either.
    const leaked = secrets.flatMap((secret, index) => (spellingIn(text, secret) === undefined ? [] : [index]));
    expect(leaked, "the indexes of secrets of the run found in the audit log").toEqual([]);

    // Positive control: the same search finds a secret put into the export, in each of its spellings.
    const token = result.storedSecret as string;
    for (const planted of [token, encodeURIComponent(token), Buffer.from(`x:${token}`).toString("base64")]) {
      expect(spellingIn(`${text}{"reason":"${planted}"}\n`, token)).toBeDefined();
    }
    await audit.close();
  }, 120_000);
});
