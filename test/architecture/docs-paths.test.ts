import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

describe("docs/architecture.md", () => {
  const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const paths = [...doc.matchAll(/`((?:src|test|examples|scripts|docs|bench)\/[^`\s]*)`/g)].map((m) => m[1] as string);

  it("names paths", () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it("names only paths that exist", () => {
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});
