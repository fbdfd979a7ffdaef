import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { InteractionManager } from "../../src/interaction/server/index.js";
import { InProcessMessageBus, MemoryInteractionStore, SqliteInteractionStore } from "../../src/stores/index.js";
import { newInteraction, runInteractionStoreContract } from "./interaction-store.contract.js";
import { tempDir } from "./temp-dir.js";

const nextFile = tempDir();

runInteractionStoreContract("memory", (now) => new MemoryInteractionStore({ now }));
runInteractionStoreContract("SQLite :memory:", (now) => new SqliteInteractionStore({ filename: ":memory:", now }));
runInteractionStoreContract("SQLite file", (now) => new SqliteInteractionStore({ filename: nextFile(), now }));

describe("SqliteInteractionStore", () => {
  it("keeps interactions across reopening the file, which is in WAL mode", async () => {
    const filename = nextFile();
    const first = new SqliteInteractionStore({ filename });
    const created = await first.create(newInteraction("kept", { expiresAt: Date.now() + 60_000 }));
    await first.close();
    const again = new SqliteInteractionStore({ filename });
    expect(await again.get("kept")).toStrictEqual(created);
    await again.close();
    const raw = new Database(filename, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.prepare("SELECT version FROM handoff_schema_versions WHERE component = 'interactions'").get()).toEqual({
      version: 4,
    });
    raw.close();
  });

  it("lets one of two connections to the same file win a race for the same interaction", async () => {
    const filename = nextFile();
    const a = new SqliteInteractionStore({ filename });
    const b = new SqliteInteractionStore({ filename });
    await a.create(newInteraction("raced", { expiresAt: Date.now() + 60_000 }));
    const results = await Promise.all([
      a.transition("raced", ["pending"], "accepted"),
      b.transition("raced", ["pending"], "declined"),
      b.transition("raced", ["pending"], "cancelled"),
    ]);
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect((await a.get("raced"))?.status).toBe((await b.get("raced"))?.status);
    await a.close();
    await b.close();
  });

  it("refuses a file whose interaction schema is newer than it knows", async () => {
    const filename = nextFile();
    await new SqliteInteractionStore({ filename }).close();
    const raw = new Database(filename);
    raw.prepare("UPDATE handoff_schema_versions SET version = 5 WHERE component = 'interactions'").run();
    raw.close();
    expect(() => new SqliteInteractionStore({ filename })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("brings a schema 1 file up to schema 4, keeping its interactions and then the client's name, trace context and open list", async () => {
    const filename = nextFile();
    const raw = new Database(filename);
    raw.exec(`CREATE TABLE handoff_schema_versions (component TEXT PRIMARY KEY, version INTEGER NOT NULL);
      INSERT INTO handoff_schema_versions VALUES ('interactions', 1);
      CREATE TABLE handoff_interactions (id TEXT PRIMARY KEY, url TEXT NOT NULL, message TEXT NOT NULL,
        user_issuer TEXT NOT NULL, user_subject TEXT NOT NULL, session_id TEXT NOT NULL, status TEXT NOT NULL,
        created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, purpose TEXT);
      INSERT INTO handoff_interactions VALUES ('old', 'https://x/connect/old', 'm', 'i', 's', 'sess', 'pending', 1, ${Date.now() + 60_000}, NULL);`);
    raw.close();
    const store = new SqliteInteractionStore({ filename });
    const old = await store.get("old");
    expect(old?.status).toBe("pending");
    expect(old && "clientName" in old).toBe(false);
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const created = await store.create(
      newInteraction("new", { clientName: "Claude Desktop", traceparent, expiresAt: Date.now() + 60_000 }),
    );
    expect(await store.get("new")).toStrictEqual(created);
    expect(created.clientName).toBe("Claude Desktop");
    expect(created.traceparent).toBe(traceparent);
    expect((await store.openFor({ issuer: "i", subject: "s" })).map((i) => i.id)).toEqual(["old"]);
    await store.close();
  });

  it("shares a database the caller opened, and leaves it open on close", async () => {
    const database = new Database(":memory:");
    const store = new SqliteInteractionStore({ database });
    await store.create(newInteraction("shared", { expiresAt: Date.now() + 60_000 }));
    await store.close();
    await expect(store.get("shared")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(database.open).toBe(true);
    expect(await new SqliteInteractionStore({ database }).get("shared")).toMatchObject({ status: "pending" });
    database.close();
  });

  it("rejects calls after close", async () => {
    const store = new SqliteInteractionStore({ filename: ":memory:" });
    await store.close();
    await expect(store.create(newInteraction("late"))).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    await expect(store.purgeExpired()).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });
});

describe("claiming a completion", () => {
  const user = { issuer: "https://auth.example.com", subject: "alice" };
  const input = { url: "https://mcp.example.com/connect/x", message: "Connect.", user, sessionId: "s" };

  /** Two completions of one interaction race, each committing slowly: how many commits ran. */
  async function race(first: InteractionManager, second: InteractionManager): Promise<number> {
    const created = await first.create(input);
    let commits = 0;
    const commit = async () => {
      commits += 1;
      await new Promise((resolve) => setImmediate(resolve));
    };
    const outcomes = await Promise.allSettled([
      first.complete(created.id, { user, commit }),
      second.complete(created.id, { user, commit }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await second.get(created.id))?.status).toBe("completed");
    return commits;
  }

  it("lets one of two completions commit, in memory and across two instances sharing a SQLite file", async () => {
    const memory = new MemoryInteractionStore();
    const shared = new InteractionManager({ store: memory, bus: new InProcessMessageBus(), sweepIntervalMs: 0 });
    expect(await race(shared, shared)).toBe(1);

    const filename = nextFile();
    const [a, b] = [new SqliteInteractionStore({ filename }), new SqliteInteractionStore({ filename })];
    const managers = [a, b].map(
      (store) => new InteractionManager({ store, bus: new InProcessMessageBus(), sweepIntervalMs: 0 }),
    );
    expect(await race(managers[0] as InteractionManager, managers[1] as InteractionManager)).toBe(1);
    await a.close();
    await b.close();
  });
});
