#!/usr/bin/env node
/**
 * The build step after the bundle: copies the generated files the code loads on first use (the
 * schema documents, src/revisions/generated/*.schema.json, and the pre-compiled validators,
 * *.meta.cjs and the folders *.validators/ of one file per definition) to dist/generated/, where the bundle files in dist/ find them as `./generated/`,
 * as src/revisions/*.ts find them in src/revisions/generated/.
 *
 * Usage: node scripts/copy-generated.mjs   (run by `npm run build` and the bench's build)
 */
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const from = join(root, "src/revisions/generated");
const to = join(root, "dist/generated");

mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith(".json") || name.endsWith(".cjs")) copyFileSync(join(from, name), join(to, name));
  else if (name.endsWith(".validators") && statSync(join(from, name)).isDirectory()) {
    // A folder copied whole, after the old copy is gone: a definition dropped from the schema leaves no file behind.
    rmSync(join(to, name), { recursive: true, force: true });
    cpSync(join(from, name), join(to, name), { recursive: true });
  }
}
