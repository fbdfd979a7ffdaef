/**
 * The esbuild options of the package's bundle (scripts/bundle.mjs): one entry per entry point of
 * package.json (`exports` and `bin`), built from src/ into dist/. Shared with the test that reads
 * which dependencies each entry loads (test/architecture/bundle-entries.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** `./dist/server.js` → `server`: the bundle file an entry of package.json names. */
function bundleName(target) {
  const match = /^\.\/dist\/([\w-]+)\.js$/.exec(target);
  if (match === null) throw new Error(`package.json target ${target} is not a bundle file ./dist/<name>.js`);
  return match[1];
}

/** `./dist/server/index.d.ts` → `src/server/index.ts`: the source of an export, by its declarations. */
function sourceOf(types) {
  const match = /^\.\/dist\/(.+)\.d\.ts$/.exec(types);
  if (match === null) throw new Error(`package.json types ${types} is not under ./dist`);
  return join(root, "src", `${match[1]}.ts`);
}

/** Bundle name → source file, for every export and bin of package.json. */
export function entryPoints() {
  const entries = {};
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    if (typeof entry !== "object" || entry.default === undefined || entry.types === undefined) {
      throw new Error(`export "${subpath}" needs "types" and "default"`);
    }
    entries[bundleName(entry.default)] = sourceOf(entry.types);
  }
  for (const target of Object.values(manifest.bin ?? {})) {
    entries[bundleName(target)] = join(root, "src/cli/main.ts");
  }
  return entries;
}

/** The options `build` of esbuild is given. */
export function bundleOptions() {
  return {
    entryPoints: entryPoints(),
    outdir: join(root, "dist"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    chunkNames: "chunk-[hash]",
    sourcemap: "linked",
    sourcesContent: true,
    logLevel: "warning",
  };
}
