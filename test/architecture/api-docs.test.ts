/**
 * The API reference (`npm run docs`, TypeDoc) covers exactly the package's public entry points:
 * every subpath of `package.json` `exports`, through the source file that `tsconfig.json` maps
 * it to, and nothing else. CI builds it with warnings treated as errors.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

describe("API reference configuration", () => {
  it("documents every export of package.json, from its source entry point, and fails on warnings", () => {
    const exported = Object.keys(json("package.json").exports as Record<string, unknown>);
    const paths = json("tsconfig.json").compilerOptions.paths as Record<string, string[]>;
    const sources = exported.map((subpath) => {
      const specifier = subpath === "." ? "mcp-handoff" : `mcp-handoff/${subpath.slice(2)}`;
      const [source] = paths[specifier] ?? [];
      expect(source, `tsconfig.json maps ${specifier}`).toBeDefined();
      return (source as string).replace(/^\.\//, "");
    });
    const config = json("typedoc.json");
    expect([...config.entryPoints].sort()).toEqual([...sources].sort());
    expect(config.treatWarningsAsErrors).toBe(true);
    expect(config.validation).toMatchObject({ notExported: true, invalidLink: true });
  });

  it("writes to a folder git ignores, and CI builds it", () => {
    const { out } = json("typedoc.json");
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain(`${out.replace(/\/?$/, "/")}`);
    expect(json("package.json").scripts.docs).toBe("typedoc");
    expect(readFileSync(join(ROOT, ".ci/run"), "utf8")).toMatch(/^npm run docs$/m);
  });
});
