import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPostgresDriver } from "../../src/postgres/driver.js";

// An application folder with no node_modules: pg cannot be found from there.
const bare = mkdtempSync(join(tmpdir(), "no-pg-"));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

describe("loading pg, an optional peer dependency", () => {
  it("when it is not installed, fails with DEPENDENCY_MISSING naming the package and the command", () => {
    const error = (() => {
      try {
        loadPostgresDriver(createRequire(join(bare, "app.js")));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ code: "DEPENDENCY_MISSING", message: expect.stringContaining("npm install pg") });
    expect(((error as Error).cause as { code?: string }).code).toBe("MODULE_NOT_FOUND");
  });

  it("passes on a failure of pg's own (a module it needs is missing), and finds its Pool where it is installed", () => {
    const broken = Object.assign(new Error("Cannot find module 'pg-protocol'\nRequire stack:\n- pg/lib/index.js"), {
      code: "MODULE_NOT_FOUND",
    });
    expect(() =>
      loadPostgresDriver(() => {
        throw broken;
      }),
    ).toThrow(broken);
    const Pool = loadPostgresDriver(createRequire(import.meta.url));
    expect(typeof Pool).toBe("function");
  });
});
