/**
 * A clone of the repository, with nothing beside it, must build and pass its tests: no source,
 * test, script, example, benchmark or CI file may name a path outside the repository. The
 * official schemas and examples the tests and generators read are vendored under `spec/`.
 *
 * Three ways a path gets out, each checked on the text of every file:
 * - a relative path whose leading `..` climb above the repository root from the file's own folder;
 * - a relative path that climbs out of the root itself (`resolve(repo, "../x")`, `join(ROOT, "..")`);
 * - the folder of official schemas that once sat beside the repository, by its name (`shared/spec`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const FOLDERS = ["src", "test", "scripts", "examples", "bench", ".ci"];
const ROOT_FILES = ["package.json", "tsconfig.json", "tsconfig.build.json", "vitest.config.ts", "biome.json"];
/** Installed or produced by a run, not part of the repository. */
const SKIPPED = new Set(["node_modules", "dist", ".build", "results"]);

/** A relative path's leading `..` segments (not one that follows a folder, as in `$dir/..`). */
const CLIMB = /(?<![\w.$\\/-])\.\.(?:\/\.\.)*(?![\w.])(?:\/[\w.@${}-]*)*/g;
/** `resolve(repo, "..…")`, `join(ROOT, "..…")`: climbing out of the repository root itself. */
const FROM_ROOT = /\b(?:resolve|join)\(\s*(?:repo|root|ROOT|REPO_ROOT|repoRoot)\s*,\s*["'`]\.\.(?![\w.])/g;
/** The sibling folder of official schemas, by name. */
const SIBLING = /(?:\.\.\/)+shared\/|\bshared\/spec\b/g;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : walk(path);
    return entry.isFile() ? [path] : [];
  });
}

/** What in `text` (the content of `file`, relative to the root) names a path outside the repository. */
function outsideReferences(file: string, text: string): string[] {
  const depth = dirname(file) === "." ? 0 : dirname(file).split(sep).length;
  const found: string[] = [];
  for (const match of text.matchAll(CLIMB)) {
    const climbs = match[0].split("/").filter((segment) => segment === "..").length;
    if (climbs > depth) found.push(`${file}: ${match[0]} climbs ${climbs} folders from a file ${depth} deep`);
  }
  for (const match of text.matchAll(FROM_ROOT)) found.push(`${file}: ${match[0]} climbs out of the root`);
  for (const match of text.matchAll(SIBLING)) found.push(`${file}: ${match[0]} names a folder beside the repository`);
  return found;
}

describe("the repository stands alone", () => {
  const files = [...FOLDERS.flatMap((folder) => walk(join(ROOT, folder))), ...ROOT_FILES.map((f) => join(ROOT, f))]
    .filter((path) => path !== import.meta.filename)
    .map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, "utf8") }))
    .filter((file) => !file.text.includes("\0"));

  it("reads the files it checks", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(["scripts/gen-wire-types.ts", ".ci/run"]));
  });

  it("no file names a path outside the repository", () => {
    expect(files.flatMap((file) => outsideReferences(file.path, file.text))).toEqual([]);
  });

  it("the check sees each way out, and passes paths that stay inside", () => {
    const escapes = {
      "test/codec/a.test.ts": 'readFileSync(join(import.meta.dirname, "../../../elsewhere/x.json"))',
      "scripts/gen.ts": 'const dir = resolve(repo, "../elsewhere/schema");',
      "src/revisions/generated/x.ts": ` * Generated from ../${"shared"}/spec/schema/2025-11-25.json.`,
      "package.json": '"pretest": "cd .. && ls"',
    };
    for (const [file, text] of Object.entries(escapes)) expect(outsideReferences(file, text), file).not.toEqual([]);
    const inside = {
      "test/codec/a.test.ts": 'join(import.meta.dirname, "../../spec/schema/2026-07-28.json")',
      "bench/impl/bare/client.ts": 'import { ECHO_TOOL } from "../shared.js";',
      ".ci/run": 'cd "$(dirname "$0")/.."',
      "src/cli/version.ts": 'for (const relative of ["../package.json", "../../package.json"])',
      "src/x.ts": "const rest = [...items]; // and so on...",
    };
    for (const [file, text] of Object.entries(inside)) expect(outsideReferences(file, text), file).toEqual([]);
  });
});
