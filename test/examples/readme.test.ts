import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

  it("shows a complete hand-off example for each mode, once, and a test runs each hand-off file shown", () => {
    const shown = snippets.map((s) => s.path);
    expect(shown).toEqual(
      expect.arrayContaining([
        "examples/handoff/local-api-key.ts",
        "examples/handoff/hosted-api-key.ts",
        "examples/handoff/oauth-grant.ts",
      ]),
    );
    expect(new Set(shown).size, "each file is shown once").toBe(shown.length);
    const tests = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts") && !file.endsWith("readme.test.ts"))
      .map((file) => readFileSync(join(ROOT, "test", file), "utf8"));
    for (const path of shown.filter((p) => p.startsWith("examples/handoff/"))) {
      // Imported (a web-standard app), or run as it is (a stdio server, through tsx).
      const imported = `examples/handoff/${path.slice("examples/handoff/".length).replace(/\.ts$/, ".js")}`;
      const run = `"tsx", "${path}"`;
      expect(
        tests.some((code) => code.includes(imported) || code.includes(run)),
        `a test imports ${imported} or runs ${path}`,
      ).toBe(true);
    }
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
