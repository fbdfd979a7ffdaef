import { SdkError } from "../jsonrpc/errors.js";
import { consoleLogger, type Logger } from "../jsonrpc/logger.js";
import { KeyTurns, type LeaveTurn, lockTimeout } from "../stores/key-turns.js";
import type { KeyedLock, LockOptions } from "../stores/types.js";
import type { PostgresPool, PostgresPoolClient } from "./driver.js";
import { storeError } from "./errors.js";
import { query, takeClient } from "./query.js";
import { type PostgresLocation, tablesOf } from "./tables.js";

export interface PostgresKeyedLockOptions extends PostgresLocation {
  /**
   * A pg `Pool`; each held lock keeps one of its connections until the task settles, so give the
   * pool room for the locks held at once and for the queries their tasks run.
   */
  pool: PostgresPool;
  /** Told when a held lock's connection breaks (the lock is lost then). Default `consoleLogger()`. */
  logger?: Logger;
}

const OPERATION = "locks.withLock";
/** ms between the first two tries; each wait doubles, up to `MAX_RETRY_MS`, with some jitter. */
const FIRST_RETRY_MS = 5;
const MAX_RETRY_MS = 200;

/**
 * A `KeyedLock` across every instance that shares one PostgreSQL database: a session-level advisory
 * lock (`pg_try_advisory_lock`) on a connection of its own, held while the task runs. A holder
 * that dies frees it with its connection; a lease that runs out closes that connection, which
 * frees it too. Since a lock belongs to its connection, a release can only ever free its own.
 * The callers of one instance wait in the order they asked, and only the first of them asks
 * PostgreSQL, again and again with growing pauses until it has the lock or `waitMs` has passed.
 * Keys are hashed to 64 bits (with the schema and table prefix), so two keys may rarely share one
 * lock: they then only wait for each other.
 */
export class PostgresKeyedLock implements KeyedLock {
  readonly #pool: PostgresPool;
  readonly #namespace: string;
  readonly #logger: Logger;
  readonly #turns = new KeyTurns();

  /** @throws SdkError "INVALID_ARGUMENT" when `schema` or `tablePrefix` is not a plain lower-case identifier. */
  constructor(options: PostgresKeyedLockOptions) {
    this.#pool = options.pool;
    this.#namespace = `mcp-handoff lock ${tablesOf(options).label}`;
    this.#logger = options.logger ?? consoleLogger();
  }

  /**
   * @throws SdkError "LOCK_TIMEOUT" when another holder kept the lock for all of `options.waitMs`;
   *   SdkError "STORE_UNAVAILABLE" when PostgreSQL cannot be reached (the task did not run);
   *   SdkError "INVALID_ARGUMENT" when `leaseMs` or `waitMs` is not a finite number of ms `>= 0`.
   */
  async withLock<T>(key: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
    for (const [name, value] of [
      ["leaseMs", options?.leaseMs],
      ["waitMs", options?.waitMs],
    ] as const) {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new SdkError("INVALID_ARGUMENT", `LockOptions.${name} must be a finite number of ms, at least 0.`);
      }
    }
    const lockKey = `${this.#namespace} ${key}`;
    const deadline = Date.now() + options.waitMs;
    const leave = await this.#turns.enter(key, deadline, options.waitMs);
    let client: PostgresPoolClient;
    try {
      client = await this.#acquire(key, lockKey, deadline, options.waitMs);
    } catch (error) {
      leave();
      throw error;
    }
    const holding = new Holding(client, key, lockKey, this.#logger, leave);
    const lease = setTimeout(() => holding.endLease(options.leaseMs), options.leaseMs);
    lease.unref?.();
    try {
      return await task();
    } finally {
      clearTimeout(lease);
      await holding.release();
    }
  }

  /** A connection holding the lock, tried again with growing waits until `waitMs` has passed. */
  async #acquire(key: string, lockKey: string, deadline: number, waitMs: number): Promise<PostgresPoolClient> {
    let wait = FIRST_RETRY_MS;
    for (;;) {
      // A connection only while trying: a waiter does not keep one from the holder's task.
      const client = await takeClient(this.#pool, OPERATION);
      let got = false;
      // A connection that breaks now fails the query in flight too, which reports it.
      const heard = (): void => {};
      client.on("error", heard);
      try {
        const { rows } = await query<{ got: boolean }>(
          client,
          OPERATION,
          "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got",
          [lockKey],
        );
        got = rows[0]?.got === true;
      } catch (error) {
        client.release(true);
        throw error;
      } finally {
        client.removeListener("error", heard);
      }
      if (got) return client;
      client.release();
      const left = deadline - Date.now();
      if (left <= 0) throw lockTimeout(key, waitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, wait * (0.5 + Math.random()))));
      wait = Math.min(wait * 2, MAX_RETRY_MS);
    }
  }
}

/** One held lock: its connection, until the task settles, the lease ends, or the connection breaks. */
class Holding {
  #ended = false;
  /** Stays on a connection that is closed rather than given back, so a late socket error is still heard. */
  readonly #onError = (error: Error): void => {
    if (this.#ended) return;
    this.logger.error(
      { err: error, lock: this.key },
      `The PostgreSQL connection holding the lock "${this.key}" broke; the lock is lost while its task runs.`,
    );
    this.#close();
  };

  constructor(
    readonly client: PostgresPoolClient,
    readonly key: string,
    readonly lockKey: string,
    readonly logger: Logger,
    /** The turn of this process's callers of the key, ended with the holding. */
    readonly leave: LeaveTurn,
  ) {
    client.on("error", this.#onError);
  }

  /** Frees the lock while the task still runs, by closing its connection. */
  endLease(leaseMs: number): void {
    if (this.#ended) return;
    this.logger.warn(
      { lock: this.key },
      `The lock "${this.key}" was held past its lease of ${leaseMs} ms and is freed; its task still runs.`,
    );
    this.#close();
  }

  /** Unlocks and gives the connection back; a connection that fails to unlock is closed instead. */
  async release(): Promise<void> {
    if (this.#ended) return;
    try {
      await this.client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [this.lockKey]);
    } catch (error) {
      this.logger.warn(
        { err: storeError(error, OPERATION), lock: this.key },
        `The lock "${this.key}" could not be unlocked; its connection is closed, which frees it.`,
      );
      this.#close();
      return;
    }
    if (this.#ended) return;
    this.#ended = true;
    this.client.removeListener("error", this.#onError);
    this.client.release();
    this.leave();
  }

  /** Closing the connection frees every lock it held. */
  #close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.client.release(true);
    this.leave();
  }
}
