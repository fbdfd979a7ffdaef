import { describe, expect, it } from "vitest";
import type { CliClient, ClientSetup, ConnectOptions } from "../../src/cli/client.js";
import { ExitCode } from "../../src/cli/exit-codes.js";
import { run } from "../../src/cli/run.js";
import type { Target } from "../../src/cli/target.js";
import type { CallToolResult, ElicitationParams, ElicitResult } from "../../src/client/types.js";
import { ErrorCode, ProtocolError, SdkError, UrlElicitationRequiredError } from "../../src/jsonrpc/errors.js";
import { type Answer, CANCELLED, fakeIo } from "./helpers.js";

const serverInfo = { name: "fake", version: "1.0.0", title: "Fake Server" };

/**
 * A client double: `callTool` runs `tool`, which may ask the user through the elicitation
 * handler the command installed, as a server would during a request.
 */
function fakeClient(
  tool: (ask: (p: ElicitationParams) => Promise<ElicitResult>, setup: ClientSetup) => Promise<CallToolResult>,
) {
  const seen: { target?: Target; options?: ConnectOptions; closed: boolean; calls: unknown[] } = {
    closed: false,
    calls: [],
  };
  const connect = async (target: Target, setup: ClientSetup, options: ConnectOptions): Promise<CliClient> => {
    seen.target = target;
    seen.options = options;
    const ask = (params: ElicitationParams) =>
      Promise.resolve(
        setup.elicitationHandler(params, { requestId: 1, signal: new AbortController().signal, serverInfo }),
      );
    const client: Partial<CliClient> = {
      serverInfo,
      callTool: async (params, options) => {
        seen.calls.push({ params, options });
        return tool(ask, setup);
      },
      close: async () => {
        seen.closed = true;
      },
    };
    return client as CliClient;
  };
  return { connect, seen };
}

async function call(
  tool: Parameters<typeof fakeClient>[0],
  answers: Answer[] = [],
  extra: string[] = [],
  interactive = true,
) {
  const { connect, seen } = fakeClient(tool);
  const io = fakeIo(answers, { connect, interactive });
  const code = await run(["call", "do", '{"x":1}', ...extra, "--", "server"], io);
  return { code, io, seen };
}

const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const form: ElicitationParams = {
  mode: "form",
  message: "Name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};
const page: ElicitationParams = {
  mode: "url",
  message: "Sign in",
  url: "https://id.example.com/s?1",
  elicitationId: "e1",
};

describe("exit codes", () => {
  it("0 with the result on stdout; the client is closed; call has no timeout unless given", async () => {
    const { code, io, seen } = await call(async () => text("done"));
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("done\n");
    expect(seen.closed).toBe(true);
    expect(seen.calls).toEqual([
      { params: { name: "do", arguments: { x: 1 } }, options: { timeoutMs: Number.POSITIVE_INFINITY } },
    ]);
    expect(seen.options).toEqual({ timeoutMs: 60_000 });
  });

  it("passes --timeout to the handshake and the call", async () => {
    const { seen } = await call(async () => text("done"), [], ["--timeout", "1500"]);
    expect(seen.options).toEqual({ timeoutMs: 1500 });
    expect(seen.calls).toEqual([expect.objectContaining({ options: { timeoutMs: 1500 } })]);
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

  it("5 when the request is interrupted", async () => {
    const { code } = await call(async () => {
      throw new SdkError("REQUEST_CANCELLED", "cancelled");
    });
    expect(code).toBe(ExitCode.Declined);
  });
});

describe("elicitation during a call", () => {
  it("answers a form at the terminal and exits 0 when the user accepts", async () => {
    const { code, io } = await call(async (ask) => text(JSON.stringify(await ask(form))), ["accept", "Grace"]);
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe('{"action":"accept","content":{"name":"Grace"}}\n');
    expect(io.err()).toContain("Fake Server (fake) asks for information:");
  });

  it("prints the result and exits 5 when the user declines or cancels a form", async () => {
    const declined = await call(async (ask) => text((await ask(form)).action), ["decline"]);
    expect([declined.code, declined.io.out()]).toEqual([ExitCode.Declined, "decline\n"]);
    const cancelled = await call(async (ask) => text((await ask(form)).action), [CANCELLED]);
    expect([cancelled.code, cancelled.io.out()]).toEqual([ExitCode.Declined, "cancel\n"]);
  });

  it("declines with a message on stderr when stdin is not a terminal", async () => {
    const { code, io } = await call(async (ask) => text((await ask(form)).action), [], [], false);
    expect(code).toBe(ExitCode.Declined);
    expect(io.out()).toBe("decline\n");
    expect(io.err()).toMatch(/asked for information, but stdin is not a terminal, so it was declined:\n {2}Name\?/);
    expect(io.prompter.asked).toEqual([]);
  });

  it("asks consent for a URL, opens the browser after yes, and answers accept", async () => {
    const { code, io } = await call(async (ask) => text((await ask(page)).action), [true]);
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("accept\n");
    expect(io.opened).toEqual(["https://id.example.com/s?1"]);
    expect(io.err()).toContain("URL:  https://id.example.com/s?1");
    expect(io.err()).toContain("Host: id.example.com");
  });

  it("answers decline and opens nothing when the user says no", async () => {
    const { code, io } = await call(async (ask) => text((await ask(page)).action), [false]);
    expect([code, io.out(), io.opened]).toEqual([ExitCode.Declined, "decline\n", []]);
  });

  it("prints instead of opening with --no-browser", async () => {
    const { io } = await call(async (ask) => text((await ask(page)).action), [true], ["--no-browser"]);
    expect(io.opened).toEqual([]);
    expect(io.err()).toContain("Open this page in your browser:\n  https://id.example.com/s?1");
  });

  it("answers an invalid form schema with -32602 instead of guessing", async () => {
    const bad = {
      ...form,
      requestedSchema: { type: "object", properties: { o: { type: "object" } } },
    } as unknown as ElicitationParams;
    const { code, io } = await call(
      async (ask) => {
        try {
          await ask(bad);
          return text("asked");
        } catch (error) {
          return text(`refused ${(error as ProtocolError).code}`);
        }
      },
      ["accept"],
    );
    expect([code, io.out()]).toEqual([ExitCode.Success, "refused -32602\n"]);
  });
});

describe("a -32042 answer (URL elicitation required)", () => {
  const required = () =>
    new UrlElicitationRequiredError([
      { mode: "url", elicitationId: "e9", url: "https://id.example.com/c", message: "Connect" },
    ]);

  it("asks consent, opens the page, retries once the server reports completion", async () => {
    let attempts = 0;
    const { code, io, seen } = await call(
      async (_ask, setup) => {
        attempts += 1;
        if (attempts === 1) {
          // The completion arrives while the user is still looking at the "done?" question.
          setTimeout(() => setup.onElicitationComplete("e9"), 0);
          throw required();
        }
        return text("connected");
      },
      [true, () => new Promise(() => {})],
    );
    expect(code).toBe(ExitCode.Success);
    expect(io.out()).toBe("connected\n");
    expect(io.opened).toEqual(["https://id.example.com/c"]);
    expect(io.err()).toContain("The server reports the page is done; retrying.");
    expect(seen.calls).toHaveLength(2);
  });

  it("retries when the user says they are done", async () => {
    let attempts = 0;
    const { code, io } = await call(async () => {
      attempts += 1;
      if (attempts === 1) throw required();
      return text("connected");
    }, [true, true]);
    expect([code, io.out()]).toEqual([ExitCode.Success, "connected\n"]);
  });

  it("exits 5 without retrying when the user declines, gives up, or has no terminal", async () => {
    for (const [answers, interactive] of [
      [[false], true],
      [[true, false], true],
      [[], false],
    ] as const) {
      const { code, io, seen } = await call(
        async () => {
          throw required();
        },
        [...answers],
        [],
        interactive,
      );
      expect(code).toBe(ExitCode.Declined);
      expect(seen.calls).toHaveLength(1);
      if (!interactive) expect(io.err()).toContain("https://id.example.com/c");
    }
  });

  it("gives up with exit 4 when the server keeps asking", async () => {
    const { code, seen } = await call(async () => {
      throw required();
    }, [true, true, true, true, true, true]);
    expect(code).toBe(ExitCode.Protocol);
    expect(seen.calls).toHaveLength(4);
  });
});
