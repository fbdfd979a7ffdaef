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
 * The options are in scripts/bundle-options.mjs.
 *
 * Usage: node scripts/bundle.mjs   (run by `npm run build` and the bench's build)
 */
import { build } from "esbuild";
import { bundleOptions } from "./bundle-options.mjs";

await build(bundleOptions());
