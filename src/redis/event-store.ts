import { SdkError } from "../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../jsonrpc/messages.js";
import { type EventStore, EventsEvictedError, streamIdBeforeSlash } from "../transports/http/event-store.js";
import { luaScript, RedisCommands, type RedisStoreOptions } from "./commands.js";

export interface RedisEventStoreOptions extends RedisStoreOptions {
  /**
   * Events kept per stream at least; older ones are trimmed as new ones come. With the default
   * `trim: "approximate"`, Redis trims in whole blocks (of `stream-node-max-entries`, 100 by
   * default), so a stream may hold a block or so more. Default 1,000.
   */
  maxEventsPerStream?: number;
  /** `"exact"` keeps exactly `maxEventsPerStream` (`MAXLEN =`), at some cost per write. Default `"approximate"` (`MAXLEN ~`). */
  trim?: "approximate" | "exact";
  /** ms a stream is kept after its last write, so streams of ended sessions go by themselves. Default 86,400,000 (a day). */
  ttlMs?: number;
}

/**
 * Appends an entry that names the entry before it (`prev`), so a replay can tell whether anything
 * between a `Last-Event-ID` and the oldest entry kept was trimmed. A message entry has the field
 * `m`; a priming entry has none.
 */
const APPEND = luaScript(`
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local prev = '0-0'
if #last > 0 then prev = last[1][1] end
local id
if ARGV[4] == 'm' then
  id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], ARGV[1], '*', 'prev', prev, 'm', ARGV[5])
else
  id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], ARGV[1], '*', 'prev', prev)
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return id
`);

/** The oldest entry kept (`false` when the stream is gone), and the entries from `ARGV[1]` on. */
const FIRST_PAGE = luaScript(`
local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #first == 0 then return {false, {}} end
return {first[1][1], redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])}
`);

const PAGE = 200;
const ENTRY_ID = /^(\d+)-(\d+)$/;
/** The `prev` of a stream's first entry. */
const NO_ENTRY = "0-0";

type Entry = [id: string, fields: string[]];

/**
 * An `EventStore` on Redis streams (spec: basic/transports § Resumability and Redelivery), so a
 * client can resume an SSE stream on any instance of a fleet. Each SSE stream is one Redis stream
 * under `<keyPrefix>events:<streamId>`, appended with `XADD … MAXLEN` and read with `XRANGE`; an
 * event id is `<streamId>/<entry id>` (such as `abc/1700000000000-0`), unique across streams and
 * free of line breaks. A priming id is an entry of its own without a message. A replay after an id
 * whose following events were trimmed rejects with `EventsEvictedError`; an id the store never
 * gave (or of a stream gone after its TTL) with SdkError "INVALID_ARGUMENT". Every call rejects
 * with SdkError "STORE_UNAVAILABLE" while Redis cannot be reached.
 */
export class RedisEventStore implements EventStore {
  readonly #redis: RedisCommands;
  readonly #maxLen: number;
  readonly #trim: "~" | "=";
  readonly #ttlMs: number;

  /**
   * @throws SdkError "INVALID_ARGUMENT" for a bad `keyPrefix`, a `maxEventsPerStream` that is not
   *   a whole number of at least 1, or a `ttlMs` that is not a positive number of ms.
   */
  constructor(options: RedisEventStoreOptions) {
    this.#redis = new RedisCommands(options);
    const { maxEventsPerStream = 1_000, trim = "approximate", ttlMs = 86_400_000 } = options;
    if (!Number.isSafeInteger(maxEventsPerStream) || maxEventsPerStream < 1) {
      throw new SdkError("INVALID_ARGUMENT", "maxEventsPerStream must be a whole number of at least 1.");
    }
    if (trim !== "approximate" && trim !== "exact") {
      throw new SdkError("INVALID_ARGUMENT", 'trim must be "approximate" or "exact".');
    }
    if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new SdkError("INVALID_ARGUMENT", "The event store's ttlMs must be a positive number of ms.");
    }
    this.#maxLen = maxEventsPerStream;
    this.#trim = trim === "exact" ? "=" : "~";
    this.#ttlMs = Math.ceil(ttlMs);
  }

  async storeEvent(streamId: string, message: JsonRpcMessage): Promise<string> {
    return this.#append("events.storeEvent", streamId, JSON.stringify(message));
  }

  async primingEventId(streamId: string): Promise<string> {
    return this.#append("events.primingEventId", streamId, undefined);
  }

  streamIdOf(eventId: string): string | undefined {
    return streamIdBeforeSlash(eventId);
  }

  /**
   * @throws EventsEvictedError when an event after `lastEventId` was trimmed; SdkError
   *   "INVALID_ARGUMENT" when the id names no stream the store holds, or no entry it gave.
   */
  async replayEventsAfter(
    lastEventId: string,
    send: (eventId: string, message: JsonRpcMessage) => Promise<void>,
  ): Promise<string> {
    const slash = lastEventId.lastIndexOf("/");
    const streamId = lastEventId.slice(0, Math.max(0, slash));
    const after = lastEventId.slice(slash + 1);
    // `0-0` is the `prev` of a stream's first entry, never an id the store gave.
    if (slash < 0 || !ENTRY_ID.test(after) || after === NO_ENTRY) throw unknownId(lastEventId);
    const key = this.#redis.key("events", streamId);
    const [first, page] = (await this.#redis.script("events.replayEventsAfter", FIRST_PAGE, [key], [after, PAGE])) as [
      string | null,
      Entry[],
    ];
    if (first === null) throw unknownId(lastEventId);
    let entries = page;
    if (entries[0]?.[0] === after) {
      entries = entries.slice(1);
    } else {
      const next = entries[0];
      // No entry follows an id the store gave: the newest entry is never trimmed.
      if (next === undefined) throw unknownId(lastEventId);
      if (fieldOf(next, "prev") !== after) {
        // Before the oldest entry of a stream never trimmed, nothing was ever given.
        if (compareIds(after, first) < 0 && fieldOf(next, "prev") !== NO_ENTRY) {
          throw new EventsEvictedError(lastEventId);
        }
        throw unknownId(lastEventId);
      }
    }
    let full = page.length === PAGE;
    for (;;) {
      for (const entry of entries) {
        const json = fieldOf(entry, "m");
        if (json !== undefined) await send(`${streamId}/${entry[0]}`, JSON.parse(json) as JsonRpcMessage);
      }
      const last = entries.at(-1);
      if (!full || last === undefined) return streamId;
      // Entries are only ever trimmed from the front, so those after `last` are all still there.
      entries = (await this.#redis.run(
        "events.replayEventsAfter",
        "XRANGE",
        key,
        `(${last[0]}`,
        "+",
        "COUNT",
        PAGE,
      )) as Entry[];
      full = entries.length === PAGE;
    }
  }

  async #append(operation: string, streamId: string, json: string | undefined): Promise<string> {
    const key = this.#redis.key("events", streamId);
    const id = (await this.#redis.script(
      operation,
      APPEND,
      [key],
      [this.#maxLen, this.#trim, this.#ttlMs, json === undefined ? "p" : "m", json ?? ""],
    )) as string;
    return `${streamId}/${id}`;
  }
}

function fieldOf([, fields]: Entry, name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function compareIds(a: string, b: string): number {
  const [, aMs = "0", aSeq = "0"] = ENTRY_ID.exec(a) ?? [];
  const [, bMs = "0", bSeq = "0"] = ENTRY_ID.exec(b) ?? [];
  const ms = BigInt(aMs) - BigInt(bMs);
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const seq = BigInt(aSeq) - BigInt(bSeq);
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}

function unknownId(lastEventId: string): SdkError {
  return new SdkError("INVALID_ARGUMENT", `Unknown event id "${lastEventId}"`);
}
