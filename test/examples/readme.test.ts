import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const run = promisify(execFile);
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const snippets = [...readme.matchAll(/<!-- file: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map((m) => ({
  path: m[1] as string,
  code: m[2] as string,
}));

describe("README", () => {
  it("shows a server and a client snippet", () => {
    expect(snippets.map((s) => s.path)).toEqual(
      expect.arrayContaining(["examples/quickstart/server.ts", "examples/quickstart/client.ts"]),
    );
  });

  it.each(snippets)("shows $path exactly as it is in the repository", ({ path, code }) => {
    expect(code).toBe(readFileSync(join(ROOT, path), "utf8"));
  });

  it("runs the client snippet against the server snippet and prints what its comments say", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/quickstart/client.ts"], {
      cwd: ROOT,
      timeout: 30_000,
    });
    expect(stdout).toContain("[ 'greet' ]");
    expect(stdout).toContain("[ { type: 'text', text: 'Hello, Ada!' } ]");
  });
});
