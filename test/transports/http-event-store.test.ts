import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { EventsEvictedError, MemoryEventStore } from "../../src/transports/http/event-store.js";
import { replay, runEventStoreContract } from "./event-store.contract.js";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/n", params: { n } });

runEventStoreContract("memory", (limits) => new MemoryEventStore(limits && { maxEvents: limits.keep }));

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

describe("MemoryEventStore: a resumption after events it dropped", () => {
  it("is refused with EventsEvictedError when an event after the Last-Event-ID was dropped", async () => {
    const store = new MemoryEventStore({ maxEvents: 3 });
    const first = await store.storeEvent("s", note(1));
    const second = await store.storeEvent("s", note(2));
    await store.storeEvent("other", note(100));
    await store.storeEvent("s", note(3));
    await store.storeEvent("s", note(4));
    // Events 1 and 2 are gone: after the first, the second would be missing from the replay.
    await expect(replay(store, first)).rejects.toBeInstanceOf(EventsEvictedError);
    // After the second nothing is missing, though it is gone itself.
    expect((await replay(store, second)).messages).toEqual([note(3), note(4)]);
  });

  it("is refused for a stream whose events were all dropped, and replays nothing after its last one", async () => {
    const store = new MemoryEventStore({ maxEvents: 1 });
    const primed = await store.primingEventId("s");
    const only = await store.storeEvent("s", note(1));
    await store.storeEvent("other", note(2));
    await expect(replay(store, primed)).rejects.toBeInstanceOf(EventsEvictedError);
    expect(await replay(store, only)).toMatchObject({ streamId: "s", messages: [] });
  });

  it("still refuses an id it never gave as unknown, not as evicted", async () => {
    const store = new MemoryEventStore({ maxEvents: 1 });
    await store.storeEvent("s", note(1));
    await store.storeEvent("s", note(2));
    const refusal = await replay(store, "nothing/1").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal).not.toBeInstanceOf(EventsEvictedError);
  });
});
