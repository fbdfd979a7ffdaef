import { describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { Inbox, runTransportContract } from "./transport.contract.js";

runTransportContract("memory", createMemoryTransportPair);

describe("memory transport", () => {
  it("delivers in a later microtask, never during send", async () => {
    const [a, b] = createMemoryTransportPair();
    const inbox = new Inbox(b);
    await a.start();
    await b.start();
    const sending = a.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(inbox.messages).toEqual([]);
    await sending;
    await inbox.take(1);
    await a.close();
  });

  it("holds messages that arrive before start and delivers them on start", async () => {
    const [a, b] = createMemoryTransportPair();
    const inbox = new Inbox(b);
    await a.start();
    await a.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(inbox.messages).toEqual([]);
    await b.start();
    expect(inbox.messages).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    await a.close();
  });

  it("refuses a message that cannot be copied", async () => {
    const [a, b] = createMemoryTransportPair();
    await a.start();
    await b.start();
    const message = { jsonrpc: "2.0" as const, method: "x", params: { f: () => 1 } };
    await expect(a.send(message)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await a.close();
  });
});
