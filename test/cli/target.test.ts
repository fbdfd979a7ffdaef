import { describe, expect, it } from "vitest";
import type { ServerConfig } from "../../src/cli/config.js";
import { UsageError } from "../../src/cli/exit-codes.js";
import { createTransport, describeTarget, resolveTarget } from "../../src/cli/target.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";

const config =
  (entry: ServerConfig) =>
  async (_file: string, _server: string | undefined): Promise<ServerConfig> =>
    entry;

describe("target resolution", () => {
  it("turns a URL into an http target with the --header values", async () => {
    const target = await resolveTarget({ kind: "url", url: "https://mcp.example.com/mcp" }, [["X-Key", "1"]]);
    expect(target).toEqual({ kind: "http", url: new URL("https://mcp.example.com/mcp"), headers: { "X-Key": "1" } });
    expect(describeTarget(target)).toBe("https://mcp.example.com/mcp");
    expect(createTransport(target)).toBeInstanceOf(StreamableHttpClientTransport);
  });

  it("turns -- <command> into a stdio target", async () => {
    const target = await resolveTarget({ kind: "command", command: "node", args: ["server.js", "--port", "1"] }, []);
    expect(target).toEqual({
      kind: "stdio",
      command: "node",
      args: ["server.js", "--port", "1"],
      env: {},
      cwd: undefined,
    });
    expect(describeTarget(target)).toBe("node server.js --port 1");
    expect(createTransport(target)).toBeInstanceOf(StdioClientTransport);
  });

  it("takes a stdio config entry with its env and cwd", async () => {
    const entry: ServerConfig = { kind: "stdio", command: "srv", args: ["-v"], env: { A: "1" }, cwd: "/srv" };
    const target = await resolveTarget({ kind: "config", file: "c.json", server: "s" }, [], config(entry));
    expect(target).toEqual({ kind: "stdio", command: "srv", args: ["-v"], env: { A: "1" }, cwd: "/srv" });
  });

  it("adds --env to a stdio config entry's env, overriding a variable of the same name; refuses it for http", async () => {
    const entry: ServerConfig = { kind: "stdio", command: "srv", args: [], env: { A: "1", B: "2" }, cwd: undefined };
    const spec = { kind: "config", file: "c.json", server: "s", env: { B: "3", C: "4" } } as const;
    expect(await resolveTarget(spec, [], config(entry))).toMatchObject({ env: { A: "1", B: "3", C: "4" } });
    const http: ServerConfig = { kind: "http", url: "http://localhost:9/mcp", headers: {} };
    await expect(resolveTarget(spec, [], config(http))).rejects.toThrow("--env applies to stdio servers");
  });

  it("lets --header override a config entry's header of the same name, whatever its case", async () => {
    const entry: ServerConfig = {
      kind: "http",
      url: "http://localhost:9/mcp",
      headers: { Authorization: "Bearer old", Accept: "x" },
    };
    const target = await resolveTarget(
      { kind: "config", file: "c.json", server: "s" },
      [["authorization", "Bearer new"]],
      config(entry),
    );
    expect(target).toMatchObject({ kind: "http", headers: { authorization: "Bearer new", Accept: "x" } });
    expect(Object.keys(target.kind === "http" ? target.headers : {})).toHaveLength(2);
  });

  it("refuses --header for a config entry that runs a command, and URLs that do not parse", async () => {
    const entry: ServerConfig = { kind: "stdio", command: "srv", args: [], env: {}, cwd: undefined };
    await expect(
      resolveTarget({ kind: "config", file: "c.json", server: "s" }, [["X", "1"]], config(entry)),
    ).rejects.toThrow(UsageError);
    await expect(resolveTarget({ kind: "url", url: "https://exa mple.com" }, [])).rejects.toThrow(
      /not a valid http\(s\) URL/,
    );
  });
});
