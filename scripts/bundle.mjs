#!/usr/bin/env node
/**
 * The JavaScript of the package: every entry point of package.json (`exports` and `bin`) bundled
 * from src/ by esbuild into dist/, one file per entry (`dist/server.js`, `dist/cli.js`, ...) plus
 * shared chunks (`dist/chunk-*.js`), so that a module used by several entries exists once and its
 * classes are the same object whichever subpath they are imported from. Dependencies stay
 * external (they are installed beside the package). Type declarations come from tsc.
 *
 * Why bundle: Node loads each ES module file separately, and at start-up the loading of some
 * seventy small files cost more than running them. Every file of the bundle sits directly in
 * dist/, so the files the code finds beside itself (`./generated/...`, see copy-generated.mjs)
 * are found from any chunk.
 *
 * Usage: node scripts/bundle.mjs   (run by `npm run build` and the bench's build)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
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

const entryPoints = {};
for (const [subpath, entry] of Object.entries(manifest.exports)) {
  if (typeof entry !== "object" || entry.default === undefined || entry.types === undefined) {
    throw new Error(`export "${subpath}" needs "types" and "default"`);
  }
  entryPoints[bundleName(entry.default)] = sourceOf(entry.types);
}
for (const target of Object.values(manifest.bin ?? {})) {
  entryPoints[bundleName(target)] = join(root, "src/cli/main.ts");
}

await build({
  entryPoints,
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
});
