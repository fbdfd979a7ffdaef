/**
 * `/connect/connections` as a browser sees it: behind the connect pages' login, the signed-in
 * user's own connections and audit records only, every text escaped, and a Disconnect that goes
 * through only as a same-origin POST with the session's token for that provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserRef } from "../../src/model/identity.js";
import { type AuditLog, MemoryAuditLog } from "../../src/stores/index.js";
import { Browser, tagsOf } from "./browser.js";
import { handOffUrl, peerFor } from "./calls.js";
import { startWorld } from "./world.js";

const records = new MemoryAuditLog();
/** A log that answers every `forUser` with everyone's records, as a faulty one might. */
const careless: AuditLog = {
  append: (entry) => records.append(entry),
  forUser: async (_user, options) => {
    const all: Awaited<ReturnType<AuditLog["forUser"]>> = [];
    for await (const line of records.exportJsonLines()) all.push(JSON.parse(line));
    return all.reverse().slice(0, options?.limit ?? 50);
  },
  exportJsonLines: (options) => records.exportJsonLines(options),
};
let world: Awaited<ReturnType<typeof startWorld>>;
let page: string;

beforeAll(async () => {
  world = await startWorld({ audit: careless });
  page = `${world.connectOrigin}/connect/connections`;
});
afterAll(async () => {
  await world?.close();
});

const userOf = (subject: string): UserRef => ({ issuer: world.mcpIssuer, subject });

/** A browser signed in as `subject` whose github is connected through a real hand-off. */
async function connected(subject: string): Promise<Browser> {
  const browser = new Browser();
  const url = await handOffUrl(world, await peerFor(world, subject), "repos");
  expect((await browser.goSigningIn(url, subject)).text).toContain("Done");
  return browser;
}

/** The Disconnect forms of a connections page, by provider. */
function disconnectForms(html: string): Map<string, string> {
  const forms = new Map<string, string>();
  for (const form of html.split(/<form\b/i).slice(1)) {
    const inputs = tagsOf(form.split(/<\/form>/i)[0] ?? "", "input");
    const field = (name: string) => inputs.find((input) => input.name === name)?.value;
    if (field("action") === "disconnect") forms.set(field("provider") ?? "", field("csrf") ?? "");
  }
  return forms;
}

describe("the connections page", () => {
  it("sends a browser without a session to sign in, and back to the page afterwards", async () => {
    const browser = new Browser();
    const first = await browser.request(page);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")?.startsWith(world.mcpIssuer)).toBe(true);
    const signedIn = await browser.goSigningIn(page, "dave");
    expect(signedIn.url).toBe(page);
    expect(signedIn.text).toContain("Your connections");
    expect(signedIn.text).toContain("You have no connections");
  });

  it("lists alice's connection, escapes what it shows, and shows her own records only", async () => {
    const browser = await connected("alice");
    const alice = userOf("alice");
    const stored = await world.vault.get(alice, "github");
    await world.vault.put(alice, { provider: "linear", secret: "lin-secret-1", updatedAt: 1, account: "<b>x</b>" });
    await records.append({ at: 1, event: "grant.stored", user: alice, provider: "github", outcome: "ok" });
    await records.append({
      at: 2,
      event: "credential.used",
      user: userOf("bob"),
      provider: "bob-only-provider",
      outcome: "ok",
      client: { name: "bobs-client" },
    });
    const { response, text } = await browser.go(page);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect([...disconnectForms(text).keys()]).toEqual(["github", "linear"]);
    expect(text).toContain("&#60;b&#62;x&#60;/b&#62;");
    expect(text).not.toContain("<b>x</b>");
    expect(text).toContain("repo");
    expect(text).toContain("grant.stored");
    expect(text).not.toContain("bob-only-provider");
    expect(text).not.toContain("bobs-client");
    for (const secret of [stored?.secret, stored?.refreshToken, "lin-secret-1"]) expect(text).not.toContain(secret);
    await world.vault.delete(alice, "linear");
  });

  it("refuses a Disconnect without the token, with a wrong one, or from another origin; the proper one revokes", async () => {
    const browser = await connected("erin");
    const erin = userOf("erin");
    await world.vault.put(erin, { provider: "linear", secret: "lin-secret-2", updatedAt: 1 });
    const forms = disconnectForms((await browser.go(page)).text);
    const csrf = forms.get("github") ?? "";
    const linearCsrf = forms.get("linear") ?? "";
    expect(csrf).not.toBe("");
    expect(linearCsrf).not.toBe("");
    const post = (form: Record<string, string>, origin?: string) =>
      browser.go(page, { form: { action: "disconnect", provider: "github", ...form }, ...(origin ? { origin } : {}) });

    const attacks = [
      await post({}),
      await post({ csrf: `${csrf.slice(0, -2)}xx` }),
      // A token for another provider's form of the same session does not disconnect github.
      await post({ csrf: linearCsrf }),
      await post({ csrf }, "https://evil.example"),
    ];
    expect(attacks.map((attack) => attack.response.status)).toEqual([403, 403, 403, 403]);
    expect(attacks[3]?.text).toContain("sent from another site");
    expect(await world.vault.get(erin, "github")).toBeDefined();
    await world.vault.delete(erin, "linear");

    const revoked = world.thirdParty.revocations.length;
    const done = await post({ csrf });
    expect(done.response.status).toBe(200);
    expect(done.text).toContain("Disconnected github: github revoked the access");
    expect(done.text).toContain("You have no connections");
    expect(await world.vault.get(erin, "github")).toBeUndefined();
    expect(world.thirdParty.revocations.slice(revoked)).toEqual([{ kind: "refresh token", accountId: "erin" }]);
  });

  it("never shows or disconnects another user's connection", async () => {
    const franks = await connected("frank");
    const frank = userOf("frank");
    const grace = new Browser();
    const graces = await grace.goSigningIn(page, "grace");
    expect(disconnectForms(graces.text).size).toBe(0);
    // Grace's own valid token for a github form (she connects hers first) acts on her grant only.
    const mine = await connected("grace");
    const csrf = disconnectForms((await mine.go(page)).text).get("github") ?? "";
    await world.vault.delete(userOf("grace"), "github");
    const answer = await mine.go(page, { form: { action: "disconnect", provider: "github", csrf } });
    expect(answer.text).toContain("Nothing to disconnect");
    expect(await world.vault.get(frank, "github")).toBeDefined();
    // Frank's token in grace's browser is refused: it is bound to his browser session.
    const frankCsrf = disconnectForms((await franks.go(page)).text).get("github") ?? "";
    const stolen = await mine.go(page, { form: { action: "disconnect", provider: "github", csrf: frankCsrf } });
    expect(stolen.response.status).toBe(403);
    expect(await world.vault.get(frank, "github")).toBeDefined();
  });

  it("disconnects a typed secret whatever its provider's name, saying the provider was not asked", async () => {
    const browser = new Browser();
    await browser.goSigningIn(page, "heidi");
    const heidi = userOf("heidi");
    await world.vault.put(heidi, { provider: "team key/β", secret: "team-secret-1", updatedAt: 1 });
    const csrf = disconnectForms((await browser.go(page)).text).get("team key/β") ?? "";
    expect(csrf).not.toBe("");
    const done = await browser.go(page, { form: { action: "disconnect", provider: "team key/β", csrf } });
    expect(done.text).toContain("Disconnected team key/β: this server deleted its copy.");
    expect(await world.vault.get(heidi, "team key/β")).toBeUndefined();
  });

  it("asks a POST without a session to sign in, and changes nothing", async () => {
    const answer = await new Browser().go(page, { form: { action: "disconnect", provider: "github", csrf: "x" } });
    expect(answer.response.status).toBe(403);
    expect(answer.text).toContain("not signed in");
    expect(await world.vault.get(userOf("frank"), "github")).toBeDefined();
  });
});
