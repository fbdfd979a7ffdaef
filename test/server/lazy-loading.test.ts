/**
 * What a server loads before it answers its first `tools/list`: neither zod nor ajv unless its
 * own schemas need them, so that a stdio server starts without paying for either. Each case runs
 * in a fresh Node process, where "loaded" is observable (this test process has both loaded).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PRELOAD = fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/cold-start.ts", import.meta.url));

interface Started {
  listed: { tools: { name: string; inputSchema: unknown }[] };
  called: { isError?: boolean; content: { text: string }[] } | undefined;
  /** Third-party packages loaded, as ES modules or as CommonJS. */
  packages: Set<string>;
}

/** `node_modules/<name>/...` (or `@scope/name`) of a path or file URL, if it is in one. */
function packageOf(location: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(location)?.[1];
}

async function start(mode: "json" | "json-call" | "zod"): Promise<Started> {
  const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--import", PRELOAD, FIXTURE, mode], {
    cwd: ROOT,
  });
  const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Omit<Started, "packages"> & {
    commonJs: string[];
  };
  const esm = stderr.split("\n").flatMap((line) => (line.startsWith("loaded ") ? [line.slice(7)] : []));
  const packages = new Set([...esm, ...result.commonJs].flatMap((location) => packageOf(location) ?? []));
  // Everything but the loader of TypeScript itself, which the real server does not have.
  packages.delete("tsx");
  packages.delete("esbuild");
  packages.delete("get-tsconfig");
  packages.delete("resolve-pkg-maps");
  return { listed: result.listed, called: result.called, packages };
}

describe("what a server loads to answer initialize and tools/list", () => {
  it("loads neither zod nor ajv for a JSON Schema tool, and lists its schema as given", async () => {
    const { listed, packages } = await start("json");
    expect(listed.tools).toEqual([
      {
        name: "echo",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
    ]);
    expect(packages).not.toContain("zod");
    expect(packages).not.toContain("ajv");
  });

  it("loads ajv on the first call of a JSON Schema tool, which validates the arguments", async () => {
    const { called, packages } = await start("json-call");
    expect(called?.isError).toBe(true);
    expect(called?.content[0]?.text).toBe("Invalid arguments for tool echo: must have required property 'text'");
    expect(packages).toContain("ajv");
    expect(packages).not.toContain("zod");
  });

  it("uses the zod the server's code loaded, with its descriptions, and still not ajv", async () => {
    const { listed, packages } = await start("zod");
    expect(listed.tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "What to repeat" } },
      required: ["text"],
    });
    expect(packages).toContain("zod");
    expect(packages).not.toContain("ajv");
  });
});
