/**
 * What every `AuditLog` promises, run against each engine: records come back for their own user
 * only, newest first, paged by `seq`; the export is JSON lines, oldest first, past a page of rows;
 * an entry shaped to hold a secret is refused and leaves nothing behind; appends made at once get
 * distinct, increasing numbers.
 */
import { describe, expect, it } from "vitest";
import type { UserRef } from "../../src/model/identity.js";
import type { AuditEntry, AuditLog, AuditRecord } from "../../src/stores/index.js";

/** An empty log of the engine under test. */
export type OpenAuditLog = () => AuditLog | Promise<AuditLog>;

export const alice: UserRef = { issuer: "https://auth.example.com", subject: "alice" };
export const bob: UserRef = { issuer: "https://auth.example.com", subject: "bob" };
/** Alice's subject at another issuer: another person. */
const otherAlice: UserRef = { issuer: "https://other.example.com", subject: "alice" };

const T0 = 1_700_000_000_000;

/** An entry with every field the shape allows. */
export function fullEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: T0,
    event: "credential.used",
    user: alice,
    client: { name: "claude-ai", version: "0.1.0" },
    sessionId: "session-1",
    interactionId: "interaction-1",
    provider: "github",
    outcome: "ok",
    detail: { host: "api.github.com", method: "GET", status: 200, scopes: ["repo", "read:user"], reason: "ok" },
    ...overrides,
  };
}

export function entryFor(user: UserRef, n: number): AuditEntry {
  return { at: T0 + n, event: "handoff.created", user, interactionId: `interaction-${n}`, outcome: "ok" };
}

async function lines(log: AuditLog, options?: { user?: UserRef }): Promise<string[]> {
  const out: string[] = [];
  for await (const line of log.exportJsonLines(options)) out.push(line);
  return out;
}

const SECRET = "gho_16C7e42F292c6912E7710c838347Ae178B4a";

export function runAuditLogContract(name: string, open: OpenAuditLog): void {
  describe(`${name} audit log`, () => {
    it("gives back what was appended, newest first, each with an increasing seq", async () => {
      const log = await open();
      const first = fullEntry();
      const second = fullEntry({
        at: T0 + 5,
        event: "grant.refreshed",
        outcome: "failed",
        detail: { reason: "invalid_grant" },
      });
      await log.append(first);
      await log.append(second);
      const records = await log.forUser(alice);
      expect(records.map(({ seq: _seq, ...rest }) => rest)).toStrictEqual([second, first]);
      const [newer, older] = records as [AuditRecord, AuditRecord];
      expect(Number.isInteger(older.seq)).toBe(true);
      expect(newer.seq).toBeGreaterThan(older.seq);
    });

    it("shows a user only their own records: bob never sees alice's, nor alice of another issuer", async () => {
      const log = await open();
      await log.append(entryFor(alice, 1));
      await log.append(entryFor(bob, 2));
      await log.append(entryFor(otherAlice, 3));
      await log.append(entryFor(alice, 4));
      expect((await log.forUser(alice)).map((r) => r.interactionId)).toEqual(["interaction-4", "interaction-1"]);
      expect((await log.forUser(bob)).map((r) => r.interactionId)).toEqual(["interaction-2"]);
      expect((await log.forUser(otherAlice)).map((r) => r.interactionId)).toEqual(["interaction-3"]);
      expect(await log.forUser({ issuer: alice.issuer, subject: "carol" })).toEqual([]);
      const bobs = (await lines(log, { user: bob })).map((line) => JSON.parse(line) as AuditRecord);
      expect(bobs.map((r) => r.user)).toEqual([bob]);
    });

    it("pages back with limit and a before cursor, and defaults to 50 records", async () => {
      const log = await open();
      for (let n = 1; n <= 7; n++) {
        await log.append(entryFor(alice, n));
        await log.append(entryFor(bob, n));
      }
      const ids = (records: AuditRecord[]) => records.map((r) => r.interactionId?.replace("interaction-", ""));
      const page1 = await log.forUser(alice, { limit: 3 });
      expect(ids(page1)).toEqual(["7", "6", "5"]);
      const page2 = await log.forUser(alice, { limit: 3, before: page1.at(-1)?.seq });
      expect(ids(page2)).toEqual(["4", "3", "2"]);
      const page3 = await log.forUser(alice, { limit: 3, before: page2.at(-1)?.seq });
      expect(ids(page3)).toEqual(["1"]);
      expect(await log.forUser(alice, { limit: 3, before: page3.at(-1)?.seq })).toEqual([]);

      for (let n = 8; n <= 60; n++) await log.append(entryFor(alice, n));
      const byDefault = await log.forUser(alice);
      expect(byDefault).toHaveLength(50);
      expect(byDefault[0]?.interactionId).toBe("interaction-60");
    });

    it("refuses a page limit or cursor that makes no sense", async () => {
      const log = await open();
      for (const options of [{ limit: 0 }, { limit: 1.5 }, { limit: 100_000 }, { before: Number.NaN }]) {
        await expect(log.forUser(alice, options)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
      expect(await log.forUser(alice, { limit: 1 })).toEqual([]);
    });

    it("exports parseable JSON lines, oldest first, past a page of rows, for everyone or one user", async () => {
      const log = await open();
      const count = 1_050;
      for (let start = 0; start < count; start += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) => log.append(entryFor((start + i) % 3 === 0 ? bob : alice, start + i))),
        );
      }
      const all = await lines(log);
      expect(all).toHaveLength(count);
      for (const line of all) {
        expect(line.endsWith("\n")).toBe(true);
        expect(line.slice(0, -1)).not.toContain("\n");
      }
      const records = all.map((line) => JSON.parse(line) as AuditRecord);
      const seqs = records.map((r) => r.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(count);
      const alices = (await lines(log, { user: alice })).map((line) => JSON.parse(line) as AuditRecord);
      expect(alices).toEqual(records.filter((r) => r.user.subject === "alice"));
      expect(alices.length).toBe(count - Math.ceil(count / 3));
    });

    it("refuses an entry shaped to hold a secret, naming the field but not the value, and stores nothing", async () => {
      const log = await open();
      const malformed: unknown[] = [
        { ...fullEntry(), token: SECRET },
        { ...fullEntry(), accessToken: SECRET },
        fullEntry({ detail: { reason: "ok", authorization: `Bearer ${SECRET}` } as AuditEntry["detail"] }),
        fullEntry({ detail: { host: `api.github.com/?access_token=${SECRET}` } }),
        fullEntry({ detail: { host: `${SECRET}@api.github.com` } }),
        fullEntry({ detail: { method: `GET ${SECRET}` } }),
        fullEntry({ detail: { reason: `upstream said: ${SECRET} `.repeat(20) } }),
        fullEntry({ detail: { status: 0 } }),
        fullEntry({ client: { name: "x", secret: SECRET } as AuditEntry["client"] }),
        fullEntry({ user: { ...alice, password: SECRET } as UserRef }),
        fullEntry({ provider: SECRET.repeat(30) }),
        fullEntry({ event: "credential.leaked" as AuditEntry["event"] }),
        fullEntry({ outcome: "maybe" as AuditEntry["outcome"] }),
        fullEntry({ at: Number.NaN }),
        fullEntry({ user: { issuer: alice.issuer } as UserRef }),
        null,
        "handoff.created",
      ];
      for (const bad of malformed) {
        const error = await log.append(bad as AuditEntry).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, JSON.stringify(bad)).toMatchObject({ code: "INVALID_ARGUMENT" });
        expect((error as Error).message).toMatch(/audit entry/i);
        expect((error as Error).message).not.toContain(SECRET);
        expect((error as Error).message).not.toContain("gho_");
      }
      expect(await log.forUser(alice)).toEqual([]);
      expect(await lines(log)).toEqual([]);
      // The same entry without the extra field is taken.
      await log.append(fullEntry());
      expect(await log.forUser(alice)).toHaveLength(1);
    });

    it("gives appends made at once distinct, increasing numbers, and keeps every one", async () => {
      const log = await open();
      await Promise.all(Array.from({ length: 40 }, (_, n) => log.append(entryFor(n % 2 === 0 ? alice : bob, n))));
      const records = (await lines(log)).map((line) => JSON.parse(line) as AuditRecord);
      expect(records).toHaveLength(40);
      const seqs = records.map((r) => r.seq);
      expect(new Set(seqs).size).toBe(40);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(records.map((r) => r.interactionId)).size).toBe(40);
    });

    it("hands out copies: changing a record read back changes nothing in the log", async () => {
      const log = await open();
      const appended = fullEntry();
      await log.append(appended);
      appended.detail?.scopes?.push("admin");
      const [read] = await log.forUser(alice);
      (read as AuditRecord).outcome = "refused";
      const [again] = await log.forUser(alice);
      expect(again?.outcome).toBe("ok");
      expect(again?.detail?.scopes).toEqual(["repo", "read:user"]);
    });

    it("writes each record on one line for every line reader: U+0085, U+2028 and U+2029 escaped", async () => {
      const log = await open();
      // A subject and a reason holding line separators, the second half shaped like a record.
      const forged = '{"seq":1,"at":0,"event":"grant.revoked","user":{"issuer":"x","subject":"bob"},"outcome":"ok"}';
      const odd: UserRef = { issuer: alice.issuer, subject: `alice\u2028${forged}` };
      const entry = fullEntry({ user: odd, detail: { reason: `a\u2029b\u0085c` } });
      await log.append(entry);
      const [line, ...rest] = await lines(log);
      expect(rest).toEqual([]);
      // What Python's str.splitlines() and many editors take for line ends, besides \n and \r.
      const ends = [0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029];
      const body = line?.slice(0, -1) ?? "";
      expect([...body].filter((c) => ends.includes(c.codePointAt(0) ?? 0))).toEqual([]);
      expect(line?.endsWith("\n")).toBe(true);
      // Positive control: the escapes read back as the very characters appended.
      const { seq: _seq, ...read } = JSON.parse(line as string) as AuditRecord;
      expect(read).toStrictEqual(entry);
      expect((await log.forUser(odd))[0]?.user.subject).toBe(odd.subject);
    });
  });
}
