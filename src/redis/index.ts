/**
 * The Redis engines of a fleet of instances behind one load balancer: the interaction store, the
 * SSE event store (on Redis streams), the message bus (pub/sub), the directory of Streamable HTTP
 * sessions, a keyed lock, the `state` of third-party grants and short expiring notes, all built on
 * one connection by `connectRedis`. ioredis is an optional peer dependency, loaded only when
 * `connectRedis` opens a connection from a URL.
 * @module mcp-handoff/redis
 */

export { DEFAULT_KEY_PREFIX, type RedisStoreOptions } from "./commands.js";
export { type ConnectRedisOptions, connectRedis, type RedisStores } from "./connect.js";
export type { RedisClient } from "./driver.js";
export { RedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
export { RedisExpiringNotes } from "./expiring-notes.js";
export { RedisGrantStateStore, type RedisGrantStateStoreOptions } from "./grant-state-store.js";
export { RedisInteractionStore, type RedisInteractionStoreOptions } from "./interaction-store.js";
export { RedisKeyedLock, type RedisKeyedLockOptions } from "./keyed-lock.js";
export { RedisMessageBus, type RedisMessageBusOptions } from "./message-bus.js";
export { RedisSessionDirectory } from "./session-directory.js";
