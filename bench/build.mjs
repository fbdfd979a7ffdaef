/**
 * The build step of `npm run bench`: the package to dist/ (tsconfig.build.json), then bench/ to
 * bench/.build, so that every implementation runs as compiled JavaScript on plain `node`. Type
 * errors are printed but do not stop the run: tsc still emits the JavaScript it measures.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));

for (const project of ["tsconfig.build.json", "bench/tsconfig.json"]) {
  const { status } = spawnSync(process.execPath, [tsc, "-p", project], { cwd: root, stdio: "inherit" });
  if (status !== 0) process.stderr.write(`bench: tsc -p ${project} reported errors; measuring what it emitted\n`);
  // The generated files tsc does not emit (schemas, pre-compiled validators), as `npm run build` does.
  if (project === "tsconfig.build.json") await import("../scripts/copy-generated.mjs");
}
if (!existsSync(fileURLToPath(new URL("./.build/run.js", import.meta.url)))) {
  process.stderr.write("bench: bench/.build/run.js was not built\n");
  process.exit(1);
}
