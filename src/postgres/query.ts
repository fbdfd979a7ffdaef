/** Queries and transactions of the PostgreSQL stores, each failure turned into a clear error (`storeError`). */
import type { PostgresPool, PostgresPoolClient, PostgresQueryable, PostgresQueryResult } from "./driver.js";
import { storeError } from "./errors.js";

/** Runs one parameterized query; `operation` (such as `"interactions.get"`) names it in errors. */
export async function query<Row = Record<string, unknown>>(
  db: PostgresQueryable,
  operation: string,
  text: string,
  values?: unknown[],
): Promise<PostgresQueryResult<Row>> {
  try {
    return await db.query<Row>(text, values);
  } catch (error) {
    throw storeError(error, operation);
  }
}

/** A connection of its own from `pool`, for work that spans several queries. */
export async function takeClient(pool: PostgresPool, operation: string): Promise<PostgresPoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw storeError(error, operation);
  }
}

/**
 * Runs `work` inside one transaction on a connection of its own: committed when `work` resolves,
 * rolled back when it throws (its error is rethrown). A connection that broke is closed, not
 * given back to the pool.
 */
export async function transaction<T>(
  pool: PostgresPool,
  operation: string,
  work: (client: PostgresPoolClient) => Promise<T>,
): Promise<T> {
  const client = await takeClient(pool, operation);
  let broken = false;
  // A connection lost between two queries is reported here; the next query rejects with it as well.
  const onError = (): void => {
    broken = true;
  };
  client.on("error", onError);
  try {
    await query(client, operation, "BEGIN");
    const result = await work(client);
    await query(client, operation, "COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw storeError(error, operation);
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}
