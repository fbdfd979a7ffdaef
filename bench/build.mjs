/**
 * The build step of `npm run bench`: the package to dist/ as `npm run build` makes it, then bench/
 * (with the HAProxy launcher of examples/fleet it uses) to bench/.build, where each keeps its path
 * from the repository root, so that every implementation runs as compiled JavaScript on plain `node`. Type
 * errors are printed but do not stop the run: the JavaScript measured is emitted regardless.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));

// The package as `npm run build` makes it: declarations by tsc, then the bundle and the generated files.
for (const step of [[tsc, "-p", "tsconfig.build.json"], ["scripts/bundle.mjs"], ["scripts/copy-generated.mjs"]]) {
  const { status } = spawnSync(process.execPath, step, { cwd: root, stdio: "inherit" });
  if (status !== 0) {
    if (step[0] !== tsc) process.exit(status ?? 1);
    process.stderr.write("bench: tsc -p tsconfig.build.json reported errors; measuring what the bundle holds\n");
  }
}
const { status } = spawnSync(process.execPath, [tsc, "-p", "bench/tsconfig.json"], { cwd: root, stdio: "inherit" });
if (status !== 0)
  process.stderr.write("bench: tsc -p bench/tsconfig.json reported errors; measuring what it emitted\n");
if (!existsSync(fileURLToPath(new URL("./.build/bench/run.js", import.meta.url)))) {
  process.stderr.write("bench: bench/.build/bench/run.js was not built\n");
  process.exit(1);
}
