import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

function declared(manifest: string): string[] {
  const json = JSON.parse(read(manifest)) as Record<string, Record<string, string> | undefined>;
  return [...Object.keys(json.dependencies ?? {}), ...Object.keys(json.devDependencies ?? {})];
}

describe("docs/dependencies.md", () => {
  const doc = read("docs/dependencies.md");
  const documented = [...doc.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
  const used = [...declared("package.json"), ...declared("test/conformance/package.json")];

  it("gives every dependency its one-line reason", () => {
    expect(used.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it("lists no dependency that is gone", () => {
    expect(documented.filter((name) => !used.includes(name as string))).toEqual([]);
  });

  it("gives caret ranges, which the lockfile pins to one version each", () => {
    const json = JSON.parse(read("package.json")) as Record<string, Record<string, string>>;
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version: string }> };
    const entries = Object.entries({ ...json.dependencies, ...json.devDependencies });
    expect(entries.filter(([, range]) => !/^\^\d+\.\d+\.\d+$/.test(range))).toEqual([]);
    const unlocked = entries.filter(([name, range]) => {
      const locked = lock.packages[`node_modules/${name}`]?.version;
      return locked === undefined || locked.split(".")[0] !== range.slice(1).split(".")[0];
    });
    expect(unlocked).toEqual([]);
  });
});

describe("eventsource-parser", () => {
  it("is a version that reads a long SSE event in linear time (3.0 re-scanned the unfinished line on every chunk)", () => {
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version: string }> };
    const [major, minor] = (lock.packages["node_modules/eventsource-parser"]?.version ?? "0.0.0")
      .split(".")
      .map(Number);
    expect(major === 3 ? (minor ?? 0) >= 1 : (major ?? 0) > 3).toBe(true);
  });
});
