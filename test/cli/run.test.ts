import { describe, expect, it } from "vitest";
import * as z from "zod";
import { type CliClient, type ConnectOptions, connectOver } from "../../src/cli/client.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import type { Target } from "../../src/cli/target.js";
import type { CallToolResult, ElicitationParams } from "../../src/client/types.js";
import { ErrorCode, ProtocolError, SdkError, UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { InteractionRequired, McpServer, type RequestContext } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { recordingManager } from "./hand-off-manager.js";
import { type Answer, type Asked, CANCELLED, fakeIo } from "./support.js";

const serverInfo = { name: "fake", version: "1.0.0", title: "Fake Server" };

/** A client double whose `callTool` runs `tool`: for what the command does with results and errors. */
function fakeClient(tool: () => Promise<CallToolResult>) {
  const seen: { target?: Target; options?: ConnectOptions; closed: boolean; calls: unknown[] } = {
    closed: false,
    calls: [],
  };
  const connect = async (target: Target, _setup: unknown, options: ConnectOptions): Promise<CliClient> => {
    seen.target = target;
    seen.options = options;
    const client: Partial<CliClient> = {
      serverInfo,
      callTool: async (params, options) => {
        seen.calls.push({ params, options });
        return tool();
      },
      callWithHandoff: (call) => call(),
      close: async () => {
        seen.closed = true;
      },
    };
    return client as CliClient;
  };
  return { connect, seen };
}

async function call(tool: () => Promise<CallToolResult>, answers: Answer[] = [], extra: string[] = []) {
  const { connect, seen } = fakeClient(tool);
  const io = fakeIo(answers, { connect });
  const code = await run(["call", "do", '{"x":1}', ...extra, "--", "server"], io);
  return { code, io, seen };
}

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });

/** A question the user leaves open: it closes (cancelled) only when its signal aborts, as the Prompter promises. */
const openUntilClosed = (asked: Asked) =>
  new Promise((resolve) => {
    if (asked.prompt.signal?.aborted) resolve(CANCELLED);
    asked.prompt.signal?.addEventListener("abort", () => resolve(CANCELLED), { once: true });
  });

describe("exit codes", () => {
  it("0 with the result on stdout; the client is closed; call has no timeout unless given", async () => {
    const { code, io, seen } = await call(async () => text("done"));
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("done\n");
    expect(seen.closed).toBe(true);
    expect(seen.calls).toEqual([
      {
        params: { name: "do", arguments: { x: 1 } },
        // Progress is asked for: a long call shows it.
        options: { timeoutMs: Number.POSITIVE_INFINITY, onprogress: expect.any(Function) },
      },
    ]);
    expect(seen.options).toEqual({ timeoutMs: 60_000 });
  });

  it("passes --timeout to the handshake and the call", async () => {
    const { seen } = await call(async () => text("done"), [], ["--timeout", "1500"]);
    expect(seen.options).toEqual({ timeoutMs: 1500 });
    expect(seen.calls).toEqual([
      expect.objectContaining({ options: { timeoutMs: 1500, onprogress: expect.any(Function) } }),
    ]);
  });

  it("1 when the tool reports isError, still printing its content", async () => {
    const { code, io } = await call(async () => ({ content: [{ type: "text", text: "bad input" }], isError: true }));
    expect(code).toBe(ExitCode.ToolError);
    expect(io.out()).toBe("bad input\n");
    expect(io.err()).toContain('The tool "do" reported an error.');
  });

  it("4 for a JSON-RPC error from the server, with its code", async () => {
    const { code, io } = await call(async () => {
      throw new ProtocolError(ErrorCode.InvalidParams, "Unknown tool: do");
    });
    expect(code).toBe(ExitCode.Protocol);
    expect(io.err()).toContain("error -32602: Unknown tool: do");
  });

  it("3 when the connection breaks or a request times out, and when the server cannot be reached", async () => {
    const closed = await call(async () => {
      throw new SdkError("CONNECTION_CLOSED", "The connection closed");
    });
    expect(closed.code).toBe(ExitCode.Connection);
    const timeout = await call(async () => {
      throw new SdkError("REQUEST_TIMEOUT", "tools/call timed out after 10 ms");
    });
    expect(timeout.code).toBe(ExitCode.Connection);
    const io = fakeIo([], {
      connect: async () => {
        throw new SdkError("TRANSPORT_ERROR", 'Could not start the server "nope": spawn nope ENOENT');
      },
    });
    expect(await run(["tools", "--", "nope"], io)).toBe(ExitCode.Connection);
    expect(io.err()).toContain("Could not connect to nope: Could not start the server");
  });

  it("3 saying how a stdio server exited when it exits before answering", async () => {
    const io = fakeIo();
    const code = await run(["tools", "--", process.execPath, "-e", "process.exit(7)"], io);
    expect(code).toBe(ExitCode.Connection);
    expect(io.err()).toBe(
      `handoff: the server process \`${process.execPath} -e process.exit(7)\` exited with code 7 before answering (its stderr is above)\n`,
    );
  });

  it("5 when the request is interrupted", async () => {
    const { code } = await call(async () => {
      throw new SdkError("REQUEST_CANCELLED", "cancelled");
    });
    expect(code).toBe(ExitCode.Declined);
  });
});

/** The local user hand-offs of the real server below are made for (no authorization in these tests). */

/**
 * Keeps the connection on a stateful revision, whose hand-off wire forms these tests are about:
 * `server/discover` is answered "method not found" here, as an older server would, and
 * `initialize` proposes `version` when given.
 */
function statefulOnly(inner: Transport, version: string | undefined): Transport {
  const send = inner.send.bind(inner);
  inner.send = async (message: JsonRpcMessage, options) => {
    if ("method" in message && "id" in message && message.method === "server/discover") {
      const { id } = message;
      queueMicrotask(() =>
        inner.onmessage?.({
          jsonrpc: "2.0",
          id,
          error: { code: ErrorCode.MethodNotFound, message: "Method not found" },
        }),
      );
      return;
    }
    if (version !== undefined && "method" in message && message.method === "initialize" && message.params) {
      return send({ ...message, params: { ...message.params, protocolVersion: version } }, options);
    }
    return send(message, options);
  };
  return inner;
}

/**
 * The command against a real McpServer over the in-memory pair, whose tool `do` runs `tool` (with
 * the round it is in). `open` is what the user's browser does with a page (e.g. completes it).
 */
async function callServer(
  tool: (ctx: RequestContext, round: number) => Promise<CallToolResult>,
  answers: Answer[] = [],
  options: {
    extra?: string[];
    interactive?: boolean;
    version?: string;
    /** The user's browser, given the page and a way to complete every hand-off the server made. */
    open?: (url: string, completeAll: () => void) => void;
  } = {},
) {
  const { manager, completeAll } = recordingManager();
  const server = new McpServer(serverInfo, { interactions: manager });
  let rounds = 0;
  server.registerTool("do", { inputSchema: { x: z.number() } }, async (_args, ctx) => tool(ctx, ++rounds));
  const connect = async (_target: Target, setup: Parameters<typeof connectOver>[1], connectOptions: ConnectOptions) => {
    const [clientEnd, serverEnd] = createMemoryTransportPair();
    await server.connect(serverEnd);
    return connectOver(statefulOnly(clientEnd, options.version), setup, connectOptions);
  };
  const io = fakeIo(answers, { connect, interactive: options.interactive ?? true });
  const opened = io.open;
  io.open = async (url) => {
    await opened(url);
    options.open?.(url, () => void completeAll());
  };
  const code = await run(["call", "do", '{"x":1}', ...(options.extra ?? []), "--", "server"], io);
  await server.close();
  return { code, io, rounds: () => rounds };
}

const form: ElicitationParams = {
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const page = { mode: "url" as const, message: "Sign in", url: "https://id.example.com/s?1" };

describe("elicitation during a call", () => {
  it("answers a form at the terminal and exits 0 when the user accepts", async () => {
    const { code, io } = await callServer(
      async (ctx) => text(JSON.stringify(await ctx.elicit(form))),
      ["accept", "Grace"],
    );
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe('{"action":"accept","content":{"name":"Grace"}}\n');
    expect(io.err()).toContain("Fake Server (fake) asks for information:");
  });

  it("prints the result and exits 5 when the user declines or cancels a form", async () => {
    const declined = await callServer(async (ctx) => text((await ctx.elicit(form)).action), ["decline"]);
    expect([declined.code, declined.io.out()]).toEqual([ExitCode.Declined, "decline\n"]);
    const cancelled = await callServer(async (ctx) => text((await ctx.elicit(form)).action), [CANCELLED]);
    expect([cancelled.code, cancelled.io.out()]).toEqual([ExitCode.Declined, "cancel\n"]);
  });

  it("declines with a message on stderr when stdin is not a terminal", async () => {
    const { code, io } = await callServer(async (ctx) => text((await ctx.elicit(form)).action), [], {
      interactive: false,
    });
    expect(code).toBe(ExitCode.Declined);
    expect(io.out()).toBe("decline\n");
    expect(io.err()).toMatch(/asked for information, but stdin is not a terminal, so it was declined:\n {2}Name\?/);
    expect(io.prompter.asked).toEqual([]);
  });

  it("says the call was not completed, not that the tool failed, when a declined page makes it report an error", async () => {
    const refusing = async (ctx: RequestContext) => {
      const answer = await ctx.elicit(page);
      return answer.action === "accept"
        ? text("ok")
        : { content: [{ type: "text" as const, text: "needs sign-in" }], isError: true };
    };
    const unasked = await callServer(refusing, [], { interactive: false });
    expect(unasked.code).toBe(ExitCode.Declined);
    expect(unasked.io.err()).toContain("Declined: stdin is not a terminal, so you could not be asked.");
    expect(unasked.io.err()).not.toContain("reported an error");
    expect(unasked.io.err().trimEnd().split("\n").at(-1)).toBe(
      'The call to "do" was not completed: what the server asked for was declined, since stdin is not a terminal. ' +
        "Run the command at a terminal to be asked.",
    );
    const refused = await callServer(refusing, [false]);
    expect(refused.code).toBe(ExitCode.Declined);
    expect(refused.io.err().trimEnd().split("\n").at(-1)).toBe(
      'The call to "do" was not completed: you declined what the server asked for.',
    );
  });

  it("asks consent for a URL, opens the browser after yes, and answers accept", async () => {
    const { code, io } = await callServer(async (ctx) => text((await ctx.elicit(page)).action), [true]);
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("accept\n");
    expect(io.opened).toEqual(["https://id.example.com/s?1"]);
    expect(io.err()).toContain("URL:  https://id.example.com/s?1");
    expect(io.err()).toContain("Host: id.example.com");
  });

  it("keeps the server's message from drawing lines of the consent screen, with a terminal or without", async () => {
    const spoof = {
      ...page,
      // No address in it: the server itself refuses to send a message that carries one.
      message: "Sign in.\n  URL:  (the page below)\n  Host: (the same)\r\u001b[2K\u001b[1A\u202edone",
    };
    for (const interactive of [true, false]) {
      const { io } = await callServer(async (ctx) => text((await ctx.elicit(spoof)).action), [false], { interactive });
      const rows = io.err().split("\n");
      expect(rows.filter((row) => /^\s*URL:/.test(row))).toEqual(["  URL:  https://id.example.com/s?1"]);
      expect(rows.filter((row) => /^\s*Host:/.test(row))).toEqual(["  Host: id.example.com"]);
      expect(rows).toContain("    │   URL:  (the page below)");
      expect(io.err()).toContain("    │   Host: (the same)\\u{d}\\u{1b}[2K\\u{1b}[1A\\u{202e}done\n");
      for (const char of ["\u001b", "\r", "\u202e"]) expect(io.err()).not.toContain(char);
    }
  });

  it("answers decline and opens nothing when the user says no", async () => {
    const { code, io } = await callServer(async (ctx) => text((await ctx.elicit(page)).action), [false]);
    expect([code, io.out(), io.opened]).toEqual([ExitCode.Declined, "decline\n", []]);
  });

  it("prints instead of opening with --no-browser", async () => {
    const { io } = await callServer(async (ctx) => text((await ctx.elicit(page)).action), [true], {
      extra: ["--no-browser"],
    });
    expect(io.opened).toEqual([]);
    expect(io.err()).toContain("Open this page in your browser:\n  https://id.example.com/s?1");
  });

  it("declines a javascript: URL without asking", async () => {
    const { code, io } = await callServer(
      async (ctx) => text((await ctx.elicit({ ...page, url: "javascript:alert(1)" })).action),
      [],
    );
    expect([code, io.out(), io.opened, io.prompter.asked]).toEqual([ExitCode.Declined, "decline\n", [], []]);
  });
});

describe("a -32042 answer (URL elicitation required)", () => {
  const required = () =>
    new UrlElicitationRequiredError([
      { mode: "url", elicitationId: "e9", url: "https://id.example.com/c", message: "Connect" },
    ]);

  it("asks consent, opens the page, retries once the server reports completion", async () => {
    const { code, io, rounds } = await callServer(
      async (ctx, round) => {
        if (round > 1) return text("connected");
        // The completion arrives while the user is still looking at the "done?" question.
        setTimeout(() => void ctx.session.notifyElicitationComplete("e9"), 0);
        throw required();
      },
      [true, openUntilClosed],
    );
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("connected\n");
    expect(io.opened).toEqual(["https://id.example.com/c"]);
    expect(io.err()).toContain("The server reports the page is done; retrying.");
    expect(rounds()).toBe(2);
  });

  it("retries when the user says they are done", async () => {
    const { code, io } = await callServer(
      async (_ctx, round) => {
        if (round === 1) throw required();
        return text("connected");
      },
      [true, true],
    );
    expect([code, io.out()]).toEqual([ExitCode.Success, "connected\n"]);
  });

  it("exits 5 without retrying when the user declines, gives up, or has no terminal", async () => {
    for (const [answers, interactive] of [
      [[false], true],
      [[true, false], true],
      [[], false],
    ] as const) {
      const { code, io, rounds } = await callServer(
        async () => {
          throw required();
        },
        [...answers],
        { interactive },
      );
      expect(code).toBe(ExitCode.Declined);
      expect(rounds()).toBe(1);
      if (!interactive) expect(io.err()).toContain("https://id.example.com/c");
    }
  });

  it("gives up with exit 4 when the server asks for the same page right after it was done", async () => {
    const { code, io, rounds } = await callServer(async () => {
      throw required();
    }, [true, true, true, true]);
    expect(code).toBe(ExitCode.Protocol);
    expect(io.err()).toContain("asked again for the same page on id.example.com");
    expect(rounds()).toBe(2);
  });
});

describe("the user-interaction proposal (interaction/create, -32003, interaction/track)", () => {
  const connectUrl = "https://mcp.example.com/connect/github";

  it("is declared, and a -32003 answer reaches the same consent screen, completes, and is retried", async () => {
    let linked = false;
    const seenCapabilities: unknown[] = [];
    const result = await callServer(
      async (ctx) => {
        seenCapabilities.push(ctx.clientCapabilities.userInteraction);
        if (!linked) throw new InteractionRequired({ url: connectUrl, message: "Connect your GitHub account." });
        return text("octo/hello-world");
      },
      [true, openUntilClosed],
      {
        version: "2025-06-18",
        // The user finishes in the browser: the connect page completes the interaction.
        open: (_url, completeAll) => {
          linked = true;
          completeAll();
        },
      },
    );
    expect(result.code).toBe(ExitCode.Success);
    expect(result.io.out()).toBe("octo/hello-world\n");
    expect(seenCapabilities[0]).toEqual({ types: ["ua"] });
    expect(result.io.err()).toContain("  Server: Fake Server (fake)\n");
    expect(result.io.err()).toContain(`URL:  ${connectUrl}`);
  });
});
