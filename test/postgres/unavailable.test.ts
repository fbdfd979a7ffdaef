/**
 * PostgreSQL going away and coming back, on a server of the test's own: every operation rejects
 * with STORE_UNAVAILABLE naming PostgreSQL and the operation and never the connection's password,
 * and the same objects work again once it is back.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeError } from "../../src/postgres/errors.js";
import { connectPostgres, type PostgresStores } from "../../src/postgres/index.js";
import { expectNoLeak } from "../stores/credential-vault.contract.js";
import { newInteraction } from "../stores/interaction-store.contract.js";
import { recordingLogger } from "../support/recording-logger.js";
import { requireService } from "../support/services.js";
import { type PrivateServer, startPrivateServer } from "./private-server.js";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const user = { issuer: "https://auth.example.com", subject: "alice" };

let server: PrivateServer | undefined;
const available = await requireService("a private PostgreSQL server (initdb, pg_ctl)", async () => {
  server = await startPrivateServer();
});
afterAll(() => server?.remove());

describe.skipIf(!available)("PostgreSQL stopped and started again", () => {
  const logger = recordingLogger();
  let stores: PostgresStores;

  beforeAll(async () => {
    stores = await connectPostgres({
      connectionString: server?.url(PASSWORD) ?? "",
      schema: "fleet",
      vault: { encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } },
      logger,
      connectionTimeoutMs: 2_000,
    });
  });
  afterAll(async () => {
    await stores?.close();
  });

  it("rejects each operation while it is down, and serves the same objects once it is back", async () => {
    const expiresAt = Date.now() + 600_000;
    await stores.interactions.create(newInteraction("before", { expiresAt }));
    await stores.vault.put(user, { provider: "github", secret: "gho_kept", updatedAt: 1 });

    server?.stop();
    // The connections that were idle when it stopped are reported, without the password.
    await expect.poll(() => logger.entries.length).toBeGreaterThan(0);
    for (const entry of logger.entries) expectNoLeak(entry.error, [PASSWORD]);
    const operations: [string, () => Promise<unknown>][] = [
      ["interactions.get", () => stores.interactions.get("before")],
      ["interactions.create", () => stores.interactions.create(newInteraction("during", { expiresAt }))],
      ["vault.get", () => stores.vault.get(user, "github")],
      ["vault.put", () => stores.vault.put(user, { provider: "linear", secret: "lin_1", updatedAt: 1 })],
      ["locks.withLock", () => stores.locks.withLock("k", { leaseMs: 1_000, waitMs: 1_000 }, async () => 1)],
      ["grantStates.take", () => stores.grantStates.take("s")],
    ];
    for (const [operation, run] of operations) {
      const error = await run().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect((error as Error).message).toContain("PostgreSQL");
      expect((error as Error).message).toContain(operation);
      expect((error as Error).cause).toBeInstanceOf(Error);
      expectNoLeak(error, [PASSWORD]);
    }

    server?.start();
    expect(await stores.interactions.get("before")).toMatchObject({ status: "pending" });
    expect(await stores.vault.get(user, "github")).toMatchObject({ secret: "gho_kept" });
    await stores.interactions.create(newInteraction("after", { expiresAt }));
    expect(await stores.locks.withLock("k", { leaseMs: 1_000, waitMs: 1_000 }, async () => "held")).toBe("held");
  });

  it("fails to start, clearly and without the password, while PostgreSQL is down", async () => {
    server?.stop();
    try {
      const error = await connectPostgres({
        connectionString: server?.url(PASSWORD) ?? "",
        vault: { encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } },
        logger: recordingLogger(),
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("migrate") });
      expectNoLeak(error, [PASSWORD]);
    } finally {
      server?.start();
    }
  });
});

describe("PostgreSQL errors and the connection's password", () => {
  it("refuse a malformed connection URL without showing any of it (Node's own URL error would)", async () => {
    const connectionString = `postgres://postgres:${PASSWORD}@[::1/postgres`;
    const raw = (() => {
      try {
        new URL(connectionString);
      } catch (e) {
        return e;
      }
    })();
    // The positive control: the error a URL parser gives carries the whole string.
    expect(JSON.stringify(raw)).toContain(PASSWORD);
    const error = await connectPostgres({
      connectionString,
      vault: { encryption: { keys: { k1: randomBytes(32) }, currentKeyId: "k1" } },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expectNoLeak(error, [PASSWORD]);
  });

  it("cut the password out of any URL a driver error quotes, in the message and the cause", () => {
    const raw = Object.assign(new Error(`could not reach postgres://app:${PASSWORD}@db.internal:5432/app`), {
      code: "ECONNREFUSED",
      input: `postgres://app:${PASSWORD}@db.internal:5432/app`,
    });
    expect(String(raw)).toContain(PASSWORD);
    const error = storeError(raw, "vault.get");
    expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("db.internal") });
    expectNoLeak(error, [PASSWORD]);
    expect(JSON.stringify((error as Error).cause)).not.toContain(PASSWORD);
  });
});
