import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerConfig, parseServerConfig } from "../../src/cli/config.js";
import { UsageError } from "../../src/cli/exit-codes.js";

const servers = {
  mcpServers: {
    files: { command: "npx", args: ["-y", "files-server", "/tmp"], env: { LOG: "1" }, cwd: "servers/files" },
    remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t" } },
    bare: { url: "http://localhost:8080/mcp" },
  },
};

let folder: string;
let file: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "handoff-config-"));
  file = join(folder, "mcp.json");
  await writeFile(file, JSON.stringify(servers));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("mcpServers config", () => {
  it("loads a stdio entry, resolving a relative cwd against the file's folder", async () => {
    expect(await loadServerConfig(file, "files")).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "files-server", "/tmp"],
      env: { LOG: "1" },
      cwd: join(folder, "servers/files"),
    });
  });

  it("loads http entries, with or without a type", async () => {
    expect(await loadServerConfig(file, "remote")).toEqual({
      kind: "http",
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: "Bearer t" },
    });
    expect(await loadServerConfig(file, "bare")).toEqual({
      kind: "http",
      url: "http://localhost:8080/mcp",
      headers: {},
    });
  });

  it("names the servers the file has when the one asked for is missing", async () => {
    await expect(loadServerConfig(file, "nope")).rejects.toThrow(UsageError);
    await expect(loadServerConfig(file, "nope")).rejects.toThrow(/no server "nope".*"files", "remote", "bare"/);
  });

  it("needs --server when the file has several, and takes the only one otherwise", async () => {
    await expect(loadServerConfig(file, undefined)).rejects.toThrow(/Choose a server with --server/);
    const one = JSON.stringify({ mcpServers: { only: { command: "srv" } } });
    expect(parseServerConfig(one, "one.json", undefined)).toMatchObject({ kind: "stdio", command: "srv", args: [] });
  });

  it("reports a missing file and bad JSON as usage errors", async () => {
    await expect(loadServerConfig(join(folder, "absent.json"), "x")).rejects.toThrow(/Cannot read.*no such file/);
    const broken = join(folder, "broken.json");
    await writeFile(broken, '{ "mcpServers": { ');
    await expect(loadServerConfig(broken, "x")).rejects.toThrow(UsageError);
    await expect(loadServerConfig(broken, "x")).rejects.toThrow(/broken\.json is not valid JSON/);
  });

  it.each([
    ["[]", /no "mcpServers" object/],
    ['{"servers":{}}', /no "mcpServers" object/],
    ['{"mcpServers":{"a":"npx"}}', /is not an object/],
    ['{"mcpServers":{"a":{}}}', /needs "command" \(stdio\) or "url" \(http\)/],
    ['{"mcpServers":{"a":{"command":"x","args":"-y"}}}', /"args" must be an array of strings/],
    ['{"mcpServers":{"a":{"command":"x","env":{"N":1}}}}', /"env" must be an object of strings/],
    ['{"mcpServers":{"a":{"type":"http","url":"ftp://x"}}}', /"url" must be an http\(s\) URL/],
    ['{"mcpServers":{"a":{"type":"sse","url":"https://x"}}}', /"sse" transport is not supported/],
    ['{"mcpServers":{"a":{"type":"ws","command":"x"}}}', /unknown "type"/],
  ])("rejects %s", (text, message) => {
    expect(() => parseServerConfig(text, "c.json", "a")).toThrow(message);
  });

  it("does not take inherited object keys for server names", () => {
    expect(() => parseServerConfig('{"mcpServers":{}}', "c.json", "constructor")).toThrow(/no server "constructor"/);
  });
});
