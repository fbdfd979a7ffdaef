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

  it("gives peer dependencies caret ranges, each also a dev dependency of the same range for our tests", () => {
    const json = JSON.parse(read("package.json")) as Record<string, Record<string, string> | undefined>;
    const peers = Object.entries(json.peerDependencies ?? {});
    expect(peers.filter(([, range]) => !/^\^\d+\.\d+\.\d+$/.test(range))).toEqual([]);
    expect(peers.filter(([name, range]) => json.devDependencies?.[name] !== range)).toEqual([]);
  });

  it("installs nothing that compiles a native module for an application: such packages are optional peers", () => {
    const json = JSON.parse(read("package.json")) as Record<string, Record<string, unknown> | undefined>;
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { hasInstallScript?: boolean; dev?: boolean; optional?: boolean }>;
    };
    // What an application gets from `npm install mcp-handoff`: the packages the lockfile does not mark dev-only.
    const scripted = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.hasInstallScript === true && entry.dev !== true)
      .map(([path]) => path);
    expect(scripted).toEqual([]);
    const optional = Object.entries(json.peerDependenciesMeta ?? {})
      .filter(([, meta]) => (meta as { optional?: boolean } | undefined)?.optional === true)
      .map(([name]) => name);
    expect(optional).toEqual(expect.arrayContaining(["better-sqlite3", "pg"]));
    for (const name of ["better-sqlite3", "@types/better-sqlite3", "pg", "@types/pg"]) {
      expect(json.dependencies).not.toHaveProperty(name);
    }
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
