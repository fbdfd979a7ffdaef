import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import { loadSqliteDriver } from "../../src/stores/sqlite-driver.js";

// An application folder with no node_modules: better-sqlite3 cannot be found from there.
const bare = mkdtempSync(join(tmpdir(), "no-sqlite-"));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

describe("loading better-sqlite3, an optional peer dependency", () => {
  it("when it is not installed, fails with DEPENDENCY_MISSING naming the package and the command", () => {
    const load = createRequire(join(bare, "app.js"));
    let thrown: unknown;
    try {
      loadSqliteDriver(load);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as SdkError).code).toBe("DEPENDENCY_MISSING");
    expect((thrown as SdkError).message).toContain("npm install better-sqlite3");
    expect((thrown as SdkError).message).toContain("MemoryInteractionStore");
    // Node's own error stays reachable for whoever debugs the resolution.
    expect(((thrown as SdkError).cause as { code?: string }).code).toBe("MODULE_NOT_FOUND");
  });

  it("where it is installed, opens a database (the same loader, resolving from the package)", () => {
    const Database = loadSqliteDriver(createRequire(import.meta.url));
    const db = new Database(":memory:");
    expect(db.prepare("SELECT 1 + 1 AS two").get()).toEqual({ two: 2 });
    db.close();
  });

  it("passes on, as it is, a failure to load one of better-sqlite3's own dependencies", () => {
    const inner = Object.assign(
      new Error("Cannot find module 'bindings'\nRequire stack:\n- /app/node_modules/better-sqlite3/lib/database.js"),
      { code: "MODULE_NOT_FOUND" },
    );
    expect(() =>
      loadSqliteDriver(() => {
        throw inner;
      }),
    ).toThrow(inner);
  });
});
