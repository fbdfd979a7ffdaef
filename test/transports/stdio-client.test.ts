import { readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { StdioClientTransport, type StdioClientTransportOptions } from "../../src/transports/stdio/index.js";
import { Inbox } from "./transport.contract.js";

const echo = "process.stdin.pipe(process.stdout)";

const started: StdioClientTransport[] = [];

/** Runs `script` with this Node binary as the server. */
async function startNode(script: string, options: Partial<StdioClientTransportOptions> = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: ["-e", script], ...options });
  const inbox = new Inbox(transport);
  started.push(transport);
  await transport.start();
  return { transport, inbox };
}

/** Processes a test started beside the server, killed afterwards should the test fail. */
const strays: number[] = [];

afterEach(async () => {
  for (const pid of strays.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  await Promise.all(started.splice(0).map((transport) => transport.close()));
});

/** Whether `pid` is a live process (a zombie waiting to be reaped has ended). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ...", where Z is a zombie (Linux only).
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/**
 * A shell server that starts `sleep 1000` in the background, with the shell's stdin and stdout,
 * writes its pid to stderr, then runs `rest`. The sleep holds the pipes open after the shell is
 * gone, as a server's own child does. `childPid` resolves once the pid is known.
 */
function shellWithChild(rest: string, options: Partial<StdioClientTransportOptions> = {}) {
  const transport = new StdioClientTransport({
    command: "sh",
    args: ["-c", `sleep 1000 & echo "$!" >&2; ${rest}`],
    stderr: "pipe",
    ...options,
  });
  started.push(transport);
  const childPid = new Promise<number>((resolve) => {
    let text = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (!text.includes("\n")) return;
      const pid = Number.parseInt(text, 10);
      strays.push(pid);
      resolve(pid);
    });
  });
  return { transport, childPid };
}

async function startShellWithChild(rest: string, options: Partial<StdioClientTransportOptions> = {}) {
  const { transport, childPid } = shellWithChild(rest, options);
  const inbox = new Inbox(transport);
  await transport.start();
  const pid = await childPid;
  expect(isRunning(pid)).toBe(true);
  return { transport, inbox, pid };
}

const ping = (id: number): JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "ping" });

describe("stdio client", () => {
  it("talks to a real child process that echoes lines", async () => {
    const { transport, inbox } = await startNode(echo);
    expect(transport.pid).toEqual(expect.any(Number));
    await transport.send(ping(1));
    await transport.send({ jsonrpc: "2.0", method: "notifications/message", params: { text: "😀" } });
    expect(await inbox.take(2)).toEqual([
      ping(1),
      { jsonrpc: "2.0", method: "notifications/message", params: { text: "😀" } },
    ]);
  });

  it("close ends stdin, the child exits and onclose fires once", async () => {
    const { transport, inbox } = await startNode(echo);
    await transport.close();
    await transport.close();
    expect(inbox.closes).toBe(1);
    await expect(transport.send(ping(1))).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("fires onclose when the child exits by itself", async () => {
    const { inbox } = await startNode(`process.stdout.write(${JSON.stringify(`${JSON.stringify(ping(9))}\n`)})`);
    await inbox.until((i) => i.closes > 0);
    expect(inbox.messages).toEqual([ping(9)]);
    expect(inbox.closes).toBe(1);
  });

  it("says how the child exited once onclose has fired: its code, or the signal that ended it", async () => {
    const exits = await startNode("process.exit(7)");
    expect(exits.transport.exitStatus).toBeUndefined();
    await exits.inbox.until((i) => i.closes > 0);
    expect(exits.transport.exitStatus).toEqual({ code: 7, signal: null });
    const killed = await startNode("setInterval(() => {}, 1000)", { closeGraceMs: 20 });
    await killed.transport.close();
    expect(killed.transport.exitStatus).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("sends SIGTERM to a child that ignores the end of stdin", async () => {
    const { transport, inbox } = await startNode("setInterval(() => {}, 1000)", { closeGraceMs: 20 });
    await transport.close();
    expect(inbox.closes).toBe(1);
  });

  it("sends SIGKILL to a child that also ignores SIGTERM", async () => {
    const script = `process.on("SIGTERM", () => {}); process.stdout.write("ready\\n"); setInterval(() => {}, 1000)`;
    const { transport, inbox } = await startNode(script, { closeGraceMs: 20 });
    // Wait until the SIGTERM handler is installed; "ready" is not JSON and is reported as an error.
    await inbox.until((i) => i.errors.length > 0);
    await transport.close();
    expect(inbox.closes).toBe(1);
  });

  describe.skipIf(process.platform === "win32")("a server whose own child holds the pipes", () => {
    it("close() ends a server stuck in the foreground, and its child with it", async () => {
      const { transport, inbox, pid } = await startShellWithChild("wait", { closeGraceMs: 50 });
      await transport.close();
      expect(inbox.closes).toBe(1);
      expect(transport.exitStatus).toEqual({ code: null, signal: "SIGTERM" });
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false));
    });

    it("close() returns when the server exits at the end of stdin but its child lives on, and ends the child", async () => {
      const { transport, inbox, pid } = await startShellWithChild("read line; exit 3", { closeGraceMs: 50 });
      await transport.close();
      expect(inbox.closes).toBe(1);
      expect(transport.exitStatus).toEqual({ code: 3, signal: null });
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false));
    });

    it("onclose fires when the server exits by itself although its child holds the pipes", async () => {
      const { transport, inbox, pid } = await startShellWithChild("exit 4", { closeGraceMs: 50 });
      await inbox.until((i) => i.closes > 0);
      expect(transport.exitStatus).toEqual({ code: 4, signal: null });
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false));
    });

    it("close() lets go of the pipes after SIGKILL and its bound when a process outside the group holds them", async () => {
      // The grandchild starts a session of its own, which no signal to the server's group reaches.
      const script = `const { spawn } = require("node:child_process");
        const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "inherit", detached: true });
        console.log(JSON.stringify({ jsonrpc: "2.0", method: "child", params: { pid: child.pid } }));
        setInterval(() => {}, 1000);`;
      const { transport, inbox } = await startNode(script, { closeGraceMs: 50 });
      const [notification] = await inbox.take(1);
      const pid = (notification as unknown as { params: { pid: number } }).params.pid;
      strays.push(pid);
      await transport.close();
      expect(inbox.closes).toBe(1);
      expect(transport.exitStatus).toEqual({ code: null, signal: "SIGTERM" });
      expect(inbox.errors.map((e) => e.message)).toEqual([
        expect.stringMatching(
          /^The server \(pid \d+\) was sent SIGKILL 50 ms ago and a process it started still holds its pipes/,
        ),
      ]);
    });

    it("a connect() that times out closes such a server and rejects, instead of waiting for the child", async () => {
      const { transport, childPid } = shellWithChild("wait", { closeGraceMs: 50 });
      const client = new McpClient({ name: "test", version: "1" });
      const error = await client.connect(transport, { timeoutMs: 50 }).catch((e: unknown) => e);
      const pid = await childPid;
      expect(error).toMatchObject({ code: "REQUEST_TIMEOUT" });
      await vi.waitFor(() => expect(isRunning(pid)).toBe(false));
    });
  });

  it("exposes the child's stderr with stderr: pipe", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", 'console.error("diagnostics go here")'],
      stderr: "pipe",
    });
    started.push(transport);
    const stderr = transport.stderr;
    expect(stderr).not.toBeNull();
    let text = "";
    stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    const ended = new Promise((resolve) => stderr?.on("end", resolve));
    await transport.start();
    await ended;
    expect(text).toBe("diagnostics go here\n");
  });

  it("reports non-JSON output as an error without answering the server", async () => {
    const script = `process.stdout.write("not json\\n"); process.stdin.on("data", (d) => process.stderr.write(d))`;
    const { transport, inbox } = await startNode(script, { stderr: "pipe" });
    let heard = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      heard += chunk.toString("utf8");
    });
    await inbox.until((i) => i.errors.length > 0);
    expect(inbox.errors[0]).toMatchObject({ code: -32700 });
    await transport.close();
    expect(heard).toBe("");
  });

  it("passes a safe part of the environment plus the given variables", async () => {
    process.env.HANDOFF_TEST_SECRET = "do-not-leak";
    try {
      const script = `console.log(JSON.stringify({ jsonrpc: "2.0", method: "env", params: {
        secret: process.env.HANDOFF_TEST_SECRET ?? null,
        given: process.env.HANDOFF_TEST_GIVEN ?? null,
        hasPath: typeof process.env.PATH === "string",
      } }))`;
      const { inbox } = await startNode(script, { env: { HANDOFF_TEST_GIVEN: "yes" } });
      expect(await inbox.take(1)).toEqual([
        { jsonrpc: "2.0", method: "env", params: { secret: null, given: "yes", hasPath: true } },
      ]);
    } finally {
      delete process.env.HANDOFF_TEST_SECRET;
    }
  });

  it("runs the child in cwd, without a shell", async () => {
    const script = `console.log(JSON.stringify({ jsonrpc: "2.0", method: "where", params: { cwd: process.cwd(), arg: process.argv[1] } }))`;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", script, "$HOME; echo hi"],
      cwd: tmpdir(),
    });
    const inbox = new Inbox(transport);
    started.push(transport);
    await transport.start();
    expect(await inbox.take(1)).toEqual([
      { jsonrpc: "2.0", method: "where", params: { cwd: realpathSync(tmpdir()), arg: "$HOME; echo hi" } },
    ]);
  });

  it("rejects start with TRANSPORT_ERROR when the command does not exist", async () => {
    const transport = new StdioClientTransport({ command: "handoff-no-such-command-4b1e" });
    const error = await transport.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ code: "TRANSPORT_ERROR" });
    expect((error as Error).message).toMatch(/handoff-no-such-command-4b1e.*ENOENT/);
    await expect(transport.send(ping(1))).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("close() while start() is spawning the server stops that server, and start() rejects", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
    });
    started.push(transport);
    const inbox = new Inbox(transport);
    const starting = transport.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    // The child exists from spawn() on, a turn before it reports that it runs.
    for (let i = 0; i < 100_000 && transport.pid === undefined; i++) await Promise.resolve();
    const pid = transport.pid;
    expect(pid).toEqual(expect.any(Number));
    strays.push(pid as number);
    await transport.close();
    expect(isRunning(pid as number)).toBe(false);
    expect(await starting).toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(inbox.closes).toBe(1);
    await expect(transport.send(ping(1))).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });

  it("close() before start() leaves nothing to stop, and start() then refuses (positive control)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["-e", "setInterval(() => {}, 1000)"],
    });
    const inbox = new Inbox(transport);
    await transport.close();
    await expect(transport.start()).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(transport.pid).toBeUndefined();
    expect(inbox.closes).toBe(1);
  });

  it("refuses to send before start", async () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    await expect(transport.send(ping(1))).rejects.toMatchObject({ code: "NOT_CONNECTED" });
  });
});
