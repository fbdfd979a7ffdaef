import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { MemoryEventStore } from "../../src/transports/http/event-store.js";
import { replay, runEventStoreContract } from "./http-event-store-contract.js";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/n", params: { n } });

runEventStoreContract("memory", () => new MemoryEventStore());

describe("MemoryEventStore", () => {
  it("drops the oldest events beyond maxEvents", async () => {
    const store = new MemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent("s", note(1));
    const second = await store.storeEvent("s", note(2));
    await store.storeEvent("s", note(3));
    expect((await replay(store, second)).messages).toEqual([note(3)]);
    // The first event is gone, but its stream still replays what is left after it.
    expect((await replay(store, first)).messages).toEqual([note(2), note(3)]);
  });
});
