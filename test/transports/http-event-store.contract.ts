/** The contract every `EventStore` keeps, run against each implementation. */
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { EventStore } from "../../src/transports/http/event-store.js";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/n", params: { n } });

export async function replay(store: EventStore, lastEventId: string) {
  const sent: [string, JsonRpcMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, async (id, message) => {
    sent.push([id, message]);
  });
  return { streamId, ids: sent.map(([id]) => id), messages: sent.map(([, message]) => message) };
}

/** What any EventStore must do, whatever keeps the events. */
export function runEventStoreContract(name: string, make: () => EventStore): void {
  describe(`${name} event store`, () => {
    it("replays, in order, only the later events of the same stream, and names that stream", async () => {
      const store = make();
      const a1 = await store.storeEvent("a", note(1));
      await store.storeEvent("b", note(100));
      const a2 = await store.storeEvent("a", note(2));
      const a3 = await store.storeEvent("a", note(3));
      const result = await replay(store, a1);
      expect(result.streamId).toBe("a");
      expect(result.messages).toEqual([note(2), note(3)]);
      expect(result.ids).toEqual([a2, a3]);
      expect(await replay(store, a3)).toMatchObject({ streamId: "a", messages: [] });
    });

    it("gives ids unique across streams and free of line breaks", async () => {
      const store = make();
      const ids = [
        await store.storeEvent("x", note(1)),
        await store.storeEvent("y", note(1)),
        await store.storeEvent("x", note(2)),
      ];
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id).not.toMatch(/[\r\n\0]/);
    });

    it("gives a priming id, before or between messages, after which exactly the later messages replay", async () => {
      const store = make();
      const start = await store.primingEventId("p");
      expect(await replay(store, start)).toMatchObject({ streamId: "p", messages: [] });
      await store.storeEvent("p", note(1));
      const middle = await store.primingEventId("p");
      await store.storeEvent("p", note(2));
      expect((await replay(store, start)).messages).toEqual([note(1), note(2)]);
      expect((await replay(store, middle)).messages).toEqual([note(2)]);
      expect(new Set([start, middle, await store.primingEventId("q")]).size).toBe(3);
    });

    it("rejects an unknown event id", async () => {
      const store = make();
      await expect(replay(store, "nothing-like-this")).rejects.toThrow();
    });
  });
}
