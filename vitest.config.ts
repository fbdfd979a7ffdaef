import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// Tests import the package by name (as README and examples do); map each subpath export to its
// source, as tsconfig's `paths` does for tsx, so a stale `dist` is never what runs.
const { compilerOptions } = JSON.parse(readFileSync(new URL("./tsconfig.json", import.meta.url), "utf8")) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const alias = Object.entries(compilerOptions.paths)
  .sort(([a], [b]) => b.length - a.length)
  .map(([find, [target]]) => ({ find: new RegExp(`^${find}$`), replacement: resolve(target ?? "") }));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    pool: "forks",
  },
});
