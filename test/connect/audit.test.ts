/**
 * The audit records of the connect pages, end to end against real authorization servers: every
 * step of a hand-off for the user it belongs to, with the session and the client, and nothing
 * secret (the typed key, the tokens, the cookie secret, the vault key) in the export.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretForms } from "../../src/server/secret-forms.js";
import { type AuditRecord, MemoryAuditLog } from "../../src/stores/index.js";
import { Browser } from "./browser.js";
import { callText, handOffUrl, idOf, peerFor, type World } from "./calls.js";
import { startWorld } from "./world.js";

const audit = new MemoryAuditLog();
let world: World;
beforeAll(async () => {
  world = await startWorld({ audit });
});
afterAll(async () => {
  await world?.close();
});

const user = (subject: string) => ({ issuer: world.mcpIssuer, subject });
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

async function exported(): Promise<string> {
  let text = "";
  for await (const line of audit.exportJsonLines()) text += line;
  return text;
}

/** The records of one interaction, oldest first, without the fields that vary from run to run. */
async function stepsOf(id: string): Promise<Partial<AuditRecord>[]> {
  const records = (await exported())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as AuditRecord);
  return records
    .filter((record) => record.interactionId === id)
    .map(({ seq: _seq, at: _at, sessionId: _sessionId, interactionId: _id, ...rest }) => rest);
}

function foundIn(text: string, secret: string): boolean {
  return secretForms(secret).some((form) => text.includes(form.literal));
}

describe("connect: audit records", () => {
  it("an OAuth hand-off: created, opened, grant stored with its scopes, completed; all alice's, with her client", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "repos");
    const page = await new Browser().goSigningIn(url, "alice");
    expect(page.text).toContain("Done — return to your app");
    const alice = user("alice");
    const client = { name: "test-client" };
    expect(await stepsOf(idOf(url))).toEqual([
      {
        event: "handoff.created",
        user: alice,
        client: { ...client, version: "1.0.0" },
        provider: "github",
        outcome: "ok",
      },
      { event: "handoff.opened", user: alice, client, provider: "github", outcome: "ok" },
      { event: "grant.stored", user: alice, client, provider: "github", outcome: "ok", detail: { scopes: ["repo"] } },
      { event: "handoff.completed", user: alice, client, provider: "github", outcome: "ok" },
    ]);
    const records = await audit.forUser(alice);
    expect(records.every((record) => record.sessionId !== undefined && record.sessionId !== "")).toBe(true);
    expect(await audit.forUser(user("bob"))).toEqual([]);

    const stored = await world.vault.get(alice, "github");
    const text = await exported();
    for (const secret of [
      stored?.secret,
      stored?.refreshToken,
      world.cookieSecret,
      world.vaultKey.toString("base64"),
    ]) {
      expect(secret).toBeTruthy();
      expect(foundIn(text, secret as string)).toBe(false);
    }
    // Positive control: the same search finds a token that is there.
    expect(foundIn(`${text}{"reason":"${encodeURIComponent(stored?.secret ?? "")}"}`, stored?.secret ?? "x")).toBe(
      true,
    );
    await world.vault.delete(alice, "github");
  });

  it("bob opening alice's link is recorded as refused for alice, telling bob nothing; alice opening it is ok", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    await new Browser().goSigningIn(url, "bob");
    const refused = await stepsOf(idOf(url));
    expect(refused.map((r) => [r.event, r.outcome, r.user?.subject, r.detail?.reason])).toEqual([
      ["handoff.created", "ok", "alice", undefined],
      ["handoff.opened", "refused", "alice", "signed in as another user"],
    ]);
    expect(await audit.forUser(user("bob"))).toEqual([]);
    // Positive control: alice herself opens it and saves a key; the key is in no record.
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    const key = "fc-live-9a8b7c6d5e4f";
    const done = await browser.go(url, { form: { csrf: csrfOf(form.text), secret: key } });
    expect(done.text).toContain("Done — return to your app");
    const steps = await stepsOf(idOf(url));
    expect(steps.slice(2).map((r) => [r.event, r.outcome, r.provider])).toEqual([
      ["handoff.opened", "ok", "forecast"],
      ["grant.stored", "ok", "forecast"],
      ["handoff.completed", "ok", "forecast"],
    ]);
    expect(foundIn(await exported(), key)).toBe(false);
    await world.vault.delete(user("alice"), "forecast");
  });

  it("a decline on the page is recorded once, for alice", async () => {
    const url = await handOffUrl(world, await peerFor(world, "alice"), "forecast");
    const browser = new Browser();
    const form = await browser.goSigningIn(url, "alice");
    const declineForm = form.text.split("<form").find((part) => part.includes('name="action" value="decline"'));
    const declineCsrf = /name="csrf" value="([^"]+)"/.exec(declineForm ?? "")?.[1] ?? "";
    const page = await browser.go(url, { form: { action: "decline", csrf: declineCsrf } });
    expect(page.text).toContain("You declined. Nothing was stored");
    const steps = await stepsOf(idOf(url));
    expect(steps.map((r) => [r.event, r.user?.subject])).toEqual([
      ["handoff.created", "alice"],
      ["handoff.opened", "alice"],
      ["handoff.declined", "alice"],
    ]);
  });

  it("a refresh is recorded as ok with the scopes, and a refused refresh token as failed; neither token is in the export", async () => {
    const alice = user("alice");
    const peer = await peerFor(world, "alice");
    const url = await handOffUrl(world, peer, "repos");
    await new Browser().goSigningIn(url, "alice");
    const first = await world.vault.get(alice, "github");
    world.clock.time = (first?.expiresAt ?? world.clock.time) + 1;
    expect(JSON.parse(await callText(peer, "repos"))).toEqual(["alice-repo-1", "alice-repo-2"]);
    const renewed = await world.vault.get(alice, "github");
    expect(renewed?.secret).not.toBe(first?.secret);

    // A refresh token the provider does not know: refused, and the credential is removed.
    await world.vault.put(alice, { ...(renewed as NonNullable<typeof renewed>), refreshToken: "not-a-refresh-token" });
    world.clock.time = (renewed?.expiresAt ?? world.clock.time) + 1;
    await handOffUrl(world, peer, "repos");
    const refreshes = (await audit.forUser(alice, { limit: 100 }))
      .filter((record) => record.event === "grant.refreshed")
      .reverse()
      .map((record) => [record.outcome, record.provider, record.detail?.scopes, record.detail?.reason]);
    expect(refreshes).toEqual([
      ["ok", "github", renewed?.scopes, undefined],
      ["failed", "github", renewed?.scopes, "the provider refused the refresh token; removed"],
    ]);
    const text = await exported();
    for (const secret of [first?.secret, first?.refreshToken, renewed?.secret, renewed?.refreshToken]) {
      expect(secret).toBeTruthy();
      expect(foundIn(text, secret as string)).toBe(false);
    }
  });
});
