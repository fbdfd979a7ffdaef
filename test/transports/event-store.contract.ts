/**
 * What every `EventStore` promises, run against each engine: replay in order of only the later
 * events of one stream, ids unique and free of line breaks, priming ids for a stream with or without
 * events, unknown ids refused, and a resumption across dropped events refused as such.
 */
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import { type EventStore, EventsEvictedError } from "../../src/transports/http/event-store.js";

/**
 * An empty store. With `limits`, it keeps at least the newest `keep` events of a stream and drops
 * older ones once a stream holds many more (an engine may trim in blocks, so "many" is a few hundred);
 * without, it keeps everything a test stores.
 */
export type OpenEventStore = (limits?: { keep: number }) => EventStore | Promise<EventStore>;

export const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/n", params: { n } });

export async function replay(store: EventStore, lastEventId: string) {
  const sent: [string, JsonRpcMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, async (id, message) => {
    sent.push([id, message]);
  });
  return { streamId, ids: sent.map(([id]) => id), messages: sent.map(([, message]) => message) };
}

/** The part of an event id after its stream's name, to forge an id of the same form for another stream. */
const tail = (id: string) => id.slice(id.lastIndexOf("/") + 1);

export function runEventStoreContract(name: string, open: OpenEventStore): void {
  describe(`${name} event store`, () => {
    it("replays, in order, only the later events of the same stream, and names that stream", async () => {
      const store = await open();
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

    it("keeps each message whole: a response, an error, text with line breaks and emoji", async () => {
      const store = await open();
      const start = await store.primingEventId("whole");
      const messages: JsonRpcMessage[] = [
        { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "line one\nline two\r\n🦊 ü" }] } },
        {
          jsonrpc: "2.0",
          id: "req-8",
          error: { code: -32042, message: "Needs a hand-off", data: { elicitations: [] } },
        },
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { nested: [1, null, {}] } } },
      ];
      for (const message of messages) await store.storeEvent("whole", message);
      expect((await replay(store, start)).messages).toStrictEqual(messages);
    });

    it("keeps streams apart: another stream's events never replay", async () => {
      const store = await open();
      const x = await store.primingEventId("x");
      const y = await store.primingEventId("y");
      await store.storeEvent("x", note(1));
      await store.storeEvent("y", note(2));
      await store.storeEvent("xy", note(3));
      await store.storeEvent("x", note(4));
      expect(await replay(store, x)).toMatchObject({ streamId: "x", messages: [note(1), note(4)] });
      expect(await replay(store, y)).toMatchObject({ streamId: "y", messages: [note(2)] });
    });

    it("gives ids unique across streams and free of line breaks", async () => {
      const store = await open();
      const ids = [
        await store.storeEvent("x", note(1)),
        await store.storeEvent("y", note(1)),
        await store.storeEvent("x", note(2)),
        await store.primingEventId("x"),
        await store.primingEventId("z"),
      ];
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).not.toMatch(/[\r\n\0]/);
    });

    it("gives a priming id, before or between messages, after which exactly the later messages replay", async () => {
      const store = await open();
      const start = await store.primingEventId("p");
      expect(await replay(store, start)).toMatchObject({ streamId: "p", messages: [] });
      await store.storeEvent("p", note(1));
      const middle = await store.primingEventId("p");
      await store.storeEvent("p", note(2));
      expect((await replay(store, start)).messages).toEqual([note(1), note(2)]);
      expect((await replay(store, middle)).messages).toEqual([note(2)]);
      expect(new Set([start, middle, await store.primingEventId("q")]).size).toBe(3);
    });

    it("rejects an unknown event id, and one of a stream it never had, as unknown rather than evicted", async () => {
      const store = await open();
      const known = await store.storeEvent("known", note(1));
      await expect(replay(store, "nothing-like-this")).rejects.toThrow();
      const forged = await replay(store, `never-stored/${tail(known)}`).catch((error: unknown) => error);
      expect(forged).toBeInstanceOf(Error);
      expect(forged).not.toBeInstanceOf(EventsEvictedError);
      expect((await replay(store, known)).messages).toEqual([]);
    });

    it("refuses with EventsEvictedError a resumption that would skip dropped events, and serves one that would not", async () => {
      const store = await open({ keep: 10 });
      const primed = await store.primingEventId("s");
      const first = await store.storeEvent("s", note(0));
      const ids: string[] = [];
      for (let n = 1; n <= 400; n += 1) ids.push(await store.storeEvent("s", note(n)));
      await expect(replay(store, primed)).rejects.toBeInstanceOf(EventsEvictedError);
      await expect(replay(store, first)).rejects.toBeInstanceOf(EventsEvictedError);
      const recent = await replay(store, ids[394] as string);
      expect(recent.messages).toEqual([note(396), note(397), note(398), note(399), note(400)]);
      expect(recent.ids).toEqual(ids.slice(395));
      expect(await replay(store, ids[399] as string)).toMatchObject({ streamId: "s", messages: [] });
    });
  });
}
