#!/usr/bin/env node
/**
 * npm's `prepare` step: builds dist/ when it is missing, so that installing the package from a git
 * URL (`npm install git+https://...`) gets the build; npm runs `prepare` in its clone of the
 * repository, after installing the dev dependencies there. Where dist/ exists nothing is done, so
 * `npm install` in a working copy does not rebuild at every run; `npm pack` rebuilds through
 * `prepack` all the same. Under `npm ci` (CI, which builds as a step of its own) nothing is done
 * either: npm prepares a git dependency with `npm install`, never `npm ci`.
 *
 * Usage: node scripts/prepare.mjs   (run by npm)
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

if (process.env.npm_command !== "ci" && !existsSync(join(root, "dist", "index.js"))) {
  const windows = process.platform === "win32";
  execFileSync(windows ? "npm.cmd" : "npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: windows });
}
