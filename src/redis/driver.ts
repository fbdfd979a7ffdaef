/**
 * ioredis, an optional peer dependency: loaded when `connectRedis` opens a connection from a URL,
 * never by importing `mcp-handoff/redis`, so an application that passes its own client, or uses no
 * Redis engine, loads nothing. `RedisClient` below is the part of an ioredis `Redis` the engines
 * use, declared here so that the package's declarations do not depend on ioredis; a `Redis` of
 * ioredis 5 has this shape.
 */
import { SdkError } from "../jsonrpc/errors.js";

/** The package name, as the user installs it. */
export const REDIS_DRIVER = "ioredis";

/** A connection to Redis, as an ioredis `Redis` is one. */
export interface RedisClient {
  /** `"wait"`, `"connecting"`, `"connect"`, `"ready"`, `"reconnecting"`, `"close"` or `"end"`. */
  readonly status: string;
  /** Sends one command (`"SET"`, `"EVALSHA"`, ...) with its arguments and resolves with Redis's reply. */
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  /** Opens the connection of a client made with `lazyConnect`. */
  connect(): Promise<void>;
  /** A new connection with the same options, for `SUBSCRIBE` (a subscribed connection sends nothing else). */
  duplicate(): RedisClient;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  /** Closes the connection after the replies in flight. */
  quit(): Promise<unknown>;
  /** Closes the connection at once, without reconnecting. */
  disconnect(): void;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "ready" | "close" | "end", listener: () => void): unknown;
  removeListener(event: "message", listener: (channel: string, message: string) => void): unknown;
  removeListener(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: "ready" | "close" | "end", listener: () => void): unknown;
}

/** The options of a connection that `connectRedis` opens, as ioredis takes them. */
export interface RedisDriverOptions {
  lazyConnect: true;
  /** ms to wait for the TCP connection before the attempt fails. */
  connectTimeout: number;
  /** ms a command waits for its reply before it fails. */
  commandTimeout: number;
  /** Commands sent while the connection is down fail at once rather than wait for it. */
  enableOfflineQueue: false;
  /** Tries of a command whose connection broke before its reply came. */
  maxRetriesPerRequest: number;
  /** Resubscribe the channels of a subscribed connection when it reconnects. */
  autoResubscribe: true;
}

type RedisConstructor = new (url: string, options: RedisDriverOptions) => RedisClient;

/** Loads a module by name, as `import()` does; tests pass one that resolves from elsewhere. */
export type ModuleLoader = (name: string) => Promise<unknown>;

/**
 * The `Redis` class of ioredis, loaded with `load`.
 * @throws SdkError "DEPENDENCY_MISSING" when ioredis is not installed, saying how to install it;
 *   any other failure to load it as it is.
 */
export async function loadRedisDriver(load: ModuleLoader): Promise<RedisConstructor> {
  let loaded: { default?: unknown; Redis?: unknown };
  try {
    loaded = (await load(REDIS_DRIVER)) as { default?: unknown; Redis?: unknown };
  } catch (error) {
    throw isMissing(error) ? missingDriver(error) : error;
  }
  const Redis = loaded?.Redis ?? loaded?.default;
  if (typeof Redis !== "function") {
    throw new SdkError("DEPENDENCY_MISSING", `The package ${REDIS_DRIVER} that was found has no Redis class.`);
  }
  return Redis as RedisConstructor;
}

let driver: RedisConstructor | undefined;

/**
 * A new connection of ioredis (not yet open: call `connect()`), loaded on the first call.
 * @throws SdkError "DEPENDENCY_MISSING" when ioredis is not installed.
 */
export async function openRedisClient(url: string, options: RedisDriverOptions): Promise<RedisClient> {
  driver ??= await loadRedisDriver((name) => import(name));
  return new driver(url, options);
}

/** Whether `error` says that ioredis itself cannot be found (not a module it requires). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return false;
  const [first = ""] = error.message.split("\n");
  return first.includes(`'${REDIS_DRIVER}'`);
}

function missingDriver(cause: unknown): SdkError {
  return new SdkError(
    "DEPENDENCY_MISSING",
    `The Redis engines need the package ${REDIS_DRIVER}, an optional peer dependency of mcp-handoff that is not installed. Install it with \`npm install ${REDIS_DRIVER}\`, or pass a client of your own.`,
    { cause },
  );
}
