/**
 * The package version, read from the package.json above this file: two folders up from
 * src/cli/version.ts, one up from the bundled dist/cli.js.
 */
import { existsSync, readFileSync } from "node:fs";

function packageJson(): URL {
  for (const relative of ["../package.json", "../../package.json"]) {
    const url = new URL(relative, import.meta.url);
    if (existsSync(url) && (JSON.parse(readFileSync(url, "utf8")) as { name?: string }).name === "mcp-handoff") {
      return url;
    }
  }
  throw new Error("mcp-handoff: package.json not found beside the CLI");
}

export const VERSION: string = (JSON.parse(readFileSync(packageJson(), "utf8")) as { version: string }).version;
