import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { closeOnSignals, StdioClientTransport } from "../../src/transports/stdio/index.js";
import { Inbox } from "./transport.contract.js";

describe("closeOnSignals", () => {
  let remove: (() => void) | undefined;
  afterEach(() => remove?.());

  it("closes once on the first signal and then lets go of the signals", async () => {
    let closes = 0;
    const closed = new Promise<void>((resolve) => {
      remove = closeOnSignals(
        {
          close: () => {
            closes += 1;
            resolve();
          },
        },
        { signals: ["SIGUSR2"], exit: false },
      );
    });
    const before = process.listenerCount("SIGUSR2");
    process.emit("SIGUSR2", "SIGUSR2");
    await closed;
    expect(closes).toBe(1);
    expect(process.listenerCount("SIGUSR2")).toBe(before - 1);
  });

  it("the returned function removes the listeners without closing", () => {
    const before = process.listenerCount("SIGUSR2");
    const stop = closeOnSignals({ close: () => expect.unreachable() }, { signals: ["SIGUSR2"], exit: false });
    expect(process.listenerCount("SIGUSR2")).toBe(before + 1);
    stop();
    expect(process.listenerCount("SIGUSR2")).toBe(before);
  });

  it.skipIf(process.platform === "win32")("shuts a real stdio server down on SIGTERM", async () => {
    const server = fileURLToPath(new URL("./fixtures/signal-server.ts", import.meta.url));
    const client = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", server],
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      stderr: "pipe",
    });
    let stderr = "";
    client.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const inbox = new Inbox(client);
    await client.start();
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(await inbox.take(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { method: "ping" } }]);
    process.kill(client.pid ?? 0, "SIGTERM");
    await inbox.until((i) => i.closes > 0);
    expect(stderr).toContain("closed cleanly\n");
  });
});
