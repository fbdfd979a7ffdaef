import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/args.js";
import { ExitCode, UsageError } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import { fakeIo } from "./support.js";

function usageError(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
}

describe("command line", () => {
  it("reads a URL target and the command's operands", () => {
    expect(parseCommandLine(["call", "https://example.com/mcp", "echo", '{"text":"hi"}', "--json"])).toEqual({
      kind: "command",
      command: "call",
      target: { kind: "url", url: "https://example.com/mcp" },
      operands: ["echo", '{"text":"hi"}'],
      options: { json: true, noBrowser: false, headers: [], timeoutMs: undefined, clientId: undefined },
    });
  });

  it("reads login with its target and --client-id", () => {
    expect(
      parseCommandLine(["login", "https://example.com/mcp", "--client-id", "cli-app", "--no-browser"]),
    ).toMatchObject({
      command: "login",
      target: { kind: "url", url: "https://example.com/mcp" },
      operands: [],
      options: { clientId: "cli-app", noBrowser: true },
    });
  });

  it("gives everything after -- to the stdio server, including its own options", () => {
    const parsed = parseCommandLine(["call", "echo", "--timeout", "500", "--", "node", "server.js", "--json", "--"]);
    expect(parsed).toMatchObject({
      command: "call",
      target: { kind: "command", command: "node", args: ["server.js", "--json", "--"] },
      operands: ["echo"],
      options: { json: false, timeoutMs: 500 },
    });
  });

  it("reads --config and --server, and allows leaving out --server", () => {
    expect(parseCommandLine(["read", "--config", "mcp.json", "--server", "docs", "file:///a"])).toMatchObject({
      target: { kind: "config", file: "mcp.json", server: "docs" },
      operands: ["file:///a"],
    });
    expect(parseCommandLine(["tools", "--config", "mcp.json"])).toMatchObject({
      target: { kind: "config", file: "mcp.json", server: undefined },
    });
  });

  it("collects repeated --header values and --no-browser", () => {
    const parsed = parseCommandLine([
      "tools",
      "http://localhost:3000/mcp",
      "--header",
      "Authorization: Bearer abc:def",
      "--header",
      "X-Trace:1",
      "--no-browser",
    ]);
    expect(parsed).toMatchObject({
      options: {
        noBrowser: true,
        headers: [
          ["Authorization", "Bearer abc:def"],
          ["X-Trace", "1"],
        ],
      },
    });
  });

  it("takes a URL target anywhere among the arguments", () => {
    for (const argv of [
      ["call", "https://example.com/mcp", "echo", '{"text":"hi"}'],
      ["call", "echo", '{"text":"hi"}', "https://example.com/mcp"],
      ["call", "echo", "https://example.com/mcp", '{"text":"hi"}'],
      ["call", "--json", "echo", '{"text":"hi"}', "https://example.com/mcp", "--no-browser"],
    ]) {
      expect(parseCommandLine(argv)).toMatchObject({
        target: { kind: "url", url: "https://example.com/mcp" },
        operands: ["echo", '{"text":"hi"}'],
      });
    }
    // The first URL is the target; a resource URI that is a URL too comes after it.
    expect(parseCommandLine(["read", "https://example.com/mcp", "https://example.com/doc"])).toMatchObject({
      target: { kind: "url", url: "https://example.com/mcp" },
      operands: ["https://example.com/doc"],
    });
  });

  it("says to put the tool before -- when it went into the server's command line", () => {
    expect(usageError(["call", "--", "node", "server.js", "echo", '{"text":"hi"}'])).toBe(
      'call: missing <tool>. Everything after -- is the server\'s command line (node server.js echo \'{"text":"hi"}\'), ' +
        'so the tool and its arguments must come before --: handoff call echo \'{"text":"hi"}\' -- node server.js',
    );
    // Where the server's command ends cannot be told without a JSON object: the order is shown.
    expect(usageError(["call", "--", "node", "server.js", "echo"])).toMatch(
      /must come before --: handoff call <tool> \[json-arguments\] -- <command> \[args\.\.\.\]$/,
    );
    expect(usageError(["read", "--", "node", "server.js", "file:///a.txt"])).toMatch(
      /the <uri> must come before --: handoff read file:\/\/\/a\.txt -- node server\.js$/,
    );
  });

  it("without a target, suggests the command line with the server after --", () => {
    expect(usageError(["call", "echo", '{"text":"hi"}', "node", "server.js"])).toBe(
      `"node" is not an http(s) URL; to run a stdio server put its command last, after --: handoff call echo '{"text":"hi"}' -- node server.js`,
    );
    expect(usageError(["call", "echo", "node", "server.js"])).toMatch(
      /after --: handoff call echo -- node server\.js$/,
    );
    expect(usageError(["resources", "node", "server.js"])).toMatch(/after --: handoff resources -- node server\.js$/);
    expect(usageError(["call", "echo"])).toMatch(/^Missing target: .* e\.g\. handoff call echo -- node server\.js$/);
  });

  it("refuses two targets", () => {
    expect(usageError(["call", "https://x.test/mcp", "echo", "--", "node", "s.js"])).toBe(
      "Two targets, https://x.test/mcp and -- node: give one",
    );
    expect(usageError(["tools", "--config", "c.json", "https://x.test/mcp"])).toMatch(/^Two targets/);
    // A resource URI may be a URL.
    expect(parseCommandLine(["read", "https://x.test/doc", "--", "node", "s.js"])).toMatchObject({
      operands: ["https://x.test/doc"],
    });
  });

  it("answers --help and --version before anything else", () => {
    expect(parseCommandLine(["--help"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["call", "-h"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["help"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["--version"])).toEqual({ kind: "version" });
  });

  it.each([
    [[], /Missing command/],
    [["list"], /Unknown command "list"/],
    [["tools"], /Missing target/],
    [["tools", "server.js"], /not an http\(s\) URL.*after --/],
    [["tools", "--bogus"], /^Unknown option --bogus$/],
    [["call", "https://x.test/mcp"], /missing <tool>/],
    [["read", "--", "node", "s.js"], /missing <uri>\. Everything after --/],
    [["tools", "https://x.test/mcp", "extra"], /unexpected argument extra/],
    [["call", "a", "{}", "more", "--", "node"], /unexpected argument more/],
    [["tools", "--"], /Missing the server command/],
    [["tools", "--server", "x", "--", "node"], /--server needs --config/],
    [["tools", "--config", "c.json", "--", "node"], /either --config or/],
    [["tools", "--header", "X: 1", "--", "node"], /http targets only/],
    [["tools", "https://x.test", "--header", "no colon"], /expected "Name: value"/],
    [["tools", "https://x.test", "--timeout", "0"], /positive number of milliseconds/],
    [["tools", "https://x.test", "--timeout", "5s"], /positive number of milliseconds/],
    [["login", "--", "node", "s.js"], /login applies to http servers/],
    [["tools", "https://x.test", "--client-id", "x"], /--client-id applies to login only/],
  ])("rejects %j", (argv, message) => {
    expect(usageError(argv)).toMatch(message);
  });

  it("exits 2 with the reason and a pointer to --help on stderr, printing nothing on stdout", async () => {
    const io = fakeIo();
    expect(await run(["tools", "--timeout", "soon", "https://x.test"], io)).toBe(ExitCode.Usage);
    expect(io.out()).toBe("");
    expect(io.err()).toContain("--timeout");
    expect(io.err()).toContain("handoff --help");
  });

  it("exits 2 for tool arguments that are not a JSON object, before starting any server", async () => {
    let connected = false;
    const connect = async () => {
      connected = true;
      throw new Error("should not connect");
    };
    for (const json of ["{oops", "[1,2]", '"text"', "null"]) {
      const io = fakeIo([], { connect });
      expect(await run(["call", "echo", json, "--", "node", "server.js"], io)).toBe(ExitCode.Usage);
      expect(io.err()).toMatch(/tool arguments/);
    }
    expect(connected).toBe(false);
  });

  it("prints help with the exit codes, and the version", async () => {
    const io = fakeIo();
    expect(await run(["--help"], io)).toBe(ExitCode.Success);
    for (const code of ["0", "1", "2", "3", "4", "5"]) expect(io.out()).toMatch(new RegExp(`^  ${code}  `, "m"));
    const version = fakeIo();
    expect(await run(["-V"], version)).toBe(ExitCode.Success);
    expect(version.out()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
