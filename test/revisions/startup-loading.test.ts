/**
 * What a process loads to speak one protocol revision. Importing the server, client and stdio
 * entry points and holding a whole 2025-11-25 conversation (handshake, tools/list, tools/call,
 * plus a message the codec refuses) must not load ajv (tens of milliseconds at start: the
 * revision's validators are compiled at build time) nor read another revision's schema. Each case
 * runs in a fresh `node` (through tsx, on the sources), where the module cache starts empty.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const source = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href);

/** Runs `body` (an ES module) after importing the entry points; returns the files in the CommonJS cache. */
function loadedAfter(body: string): string[] {
  const script = `
    import { createRequire } from "node:module";
    const { McpServer } = await import(${source("src/server/index.ts")});
    const { McpClient } = await import(${source("src/client/index.ts")});
    await import(${source("src/transports/stdio/index.ts")});
    const { createMemoryTransportPair } = await import(${source("src/transports/memory.ts")});
    ${body}
    process.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));
  `;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`the child failed (${run.status}):\n${run.stderr}`);
  return (JSON.parse(run.stdout) as string[]).map((file) => file.replaceAll("\\", "/"));
}

/** Files of ajv (and of ajv-formats' plugin, which loads it) other than what generated validators use. */
function ajvFiles(files: string[]): string[] {
  return files.filter((file) => /\/node_modules\/ajv(-formats)?\//.test(file) && !file.endsWith("/dist/formats.js"));
}

const CONVERSATION = `
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("echo", { description: "echoes" }, () => ({ content: [{ type: "text", text: "hi" }] }));
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new McpClient({ name: "c", version: "1" }, { protocolVersion: "2025-11-25" });
  await client.connect(clientEnd);
  await client.listTools();
  await client.callTool({ name: "echo", arguments: {} });
  // A request the schema refuses: the answer's error names the field, so the schema text is read.
  const refused = await client.callTool({ name: 42, arguments: {} }).then(() => "accepted", (error) => error.message);
  if (!/name/.test(String(refused))) throw new Error("unexpected answer: " + refused);
  await client.close();
  await server.close();
`;

describe("what a process loads at start", () => {
  test("importing the server, client and stdio entry points loads no ajv", () => {
    const files = loadedAfter("");
    expect(files.some((file) => file.includes("/node_modules/"))).toBe(true);
    expect(ajvFiles(files)).toEqual([]);
    expect(files.filter((file) => /\.schema\.json$|\.validators\//.test(file))).toEqual([]);
  });

  test("a 2025-11-25 conversation loads no ajv and only its own revision's schema and validators", () => {
    const files = loadedAfter(CONVERSATION);
    expect(ajvFiles(files)).toEqual([]);
    const generated = files
      .filter((file) => /\.schema\.json$|\.validators\//.test(file))
      .map((file) => file.slice(file.lastIndexOf("/generated/") + "/generated/".length));
    expect(generated).toContain("2025-11-25.validators/ListToolsRequest.cjs");
    expect(generated.every((name) => name.startsWith("2025-11-25."))).toBe(true);
  });

  test("a 2025-11-25 conversation loads the validators of the messages it meets, not the others", () => {
    const validators = loadedAfter(CONVERSATION)
      .filter((file) => file.includes("/2025-11-25.validators/"))
      .map((file) => file.split("/").pop());
    expect(validators).toEqual(
      expect.arrayContaining(["InitializeResult.cjs", "ListToolsRequest.cjs", "CallToolResult.cjs"]),
    );
    // Sampling, elicitation and tasks never came up: their validators stayed on disk.
    expect(validators).not.toContain("CreateMessageRequest.cjs");
    expect(validators).not.toContain("ElicitRequest.cjs");
    expect(validators).not.toContain("ServerRequest.cjs");
  });
});
