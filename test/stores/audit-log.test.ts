import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { MemoryAuditLog, SqliteAuditLog } from "../../src/stores/index.js";
import { alice, entryFor, fullEntry, runAuditLogContract } from "./audit-log.contract.js";
import { tempDir } from "./temp-dir.js";

const nextFile = tempDir();

runAuditLogContract("memory", () => new MemoryAuditLog());
runAuditLogContract("SQLite :memory:", () => new SqliteAuditLog({ filename: ":memory:" }));
runAuditLogContract("SQLite file", () => new SqliteAuditLog({ filename: nextFile() }));

describe("SqliteAuditLog", () => {
  it("keeps its records in the file across reopening, and numbers on from the last", async () => {
    const filename = nextFile();
    const first = new SqliteAuditLog({ filename });
    await first.append(fullEntry());
    await first.close();
    const second = new SqliteAuditLog({ filename });
    await second.append(entryFor(alice, 2));
    const records = await second.forUser(alice);
    expect(records.map((r) => r.seq)).toEqual([2, 1]);
    await second.close();
    await expect(second.append(fullEntry())).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("shares a database with the other stores, and leaves it open on close", async () => {
    const database = new Database(":memory:");
    const log = new SqliteAuditLog({ database });
    await log.append(fullEntry());
    await log.close();
    expect(database.open).toBe(true);
    const row = database.prepare("SELECT issuer, subject, event FROM handoff_audit_log").get();
    expect(row).toEqual({ issuer: alice.issuer, subject: alice.subject, event: "credential.used" });
    database.close();
  });
});
