/**
 * The package version for the instrumentation scope, read from the package.json above this file
 * when tracing starts: two folders up from src/tracing/version.ts, one up from a bundled dist/ file.
 * `undefined` when it cannot be read (a bundler that moved the code elsewhere): the scope then has no version.
 */
import { readFileSync } from "node:fs";

export function packageVersion(): string | undefined {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const json = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (json.name === "mcp-handoff" && typeof json.version === "string") return json.version;
    } catch {
      // Not there, or not readable: the next place, else no version.
    }
  }
  return undefined;
}
