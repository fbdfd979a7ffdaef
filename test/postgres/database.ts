/**
 * The PostgreSQL of the tests (test/support/services.ts): a pool, and schemas of this test file's
 * own with random names, every one dropped (`DROP SCHEMA … CASCADE`, only those) after its tests.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll } from "vitest";
import { databaseUrl, requireService, runId } from "../support/services.js";

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  /** A new schema name for this file, dropped after its tests; `migrate` creates it. */
  freshSchema(): string;
}

/**
 * The database, or `undefined` (after saying why) when PostgreSQL does not answer outside CI.
 * @throws in CI when PostgreSQL does not answer.
 */
export async function testDatabase(): Promise<TestDatabase | undefined> {
  const url = databaseUrl();
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  pool.on("error", (error) => console.warn("An idle test connection to PostgreSQL failed:", error.message));
  const answers = await requireService("PostgreSQL", async () => {
    await pool.query("SELECT 1");
  });
  if (!answers) {
    await pool.end();
    return undefined;
  }
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });
  return {
    url,
    pool,
    freshSchema() {
      const schema = `test_${runId()}_${schemas.length}`;
      schemas.push(schema);
      return schema;
    },
  };
}

/** The script `querySync` runs in a child process: one query (or several, without values). */
const SCRIPT = `
import pg from "pg";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { url, sql, values, bytes } = JSON.parse(input);
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const result = await client.query(sql, values);
  const results = Array.isArray(result) ? result : [result];
  if (bytes) {
    const parts = results.flatMap((one) => one.rows.flatMap((row) => Object.values(row)));
    const buffers = parts.map((value) => Buffer.isBuffer(value) ? value : Buffer.from(typeof value === "string" ? value : JSON.stringify(value ?? null)));
    process.stdout.write(Buffer.concat(buffers));
  } else {
    process.stdout.write(JSON.stringify(results.map((one) => one.rowCount)));
  }
} finally {
  await client.end();
}
`;

/**
 * Runs SQL now, in a child process, for the harness methods the contracts call without awaiting:
 * `bytes` gives every value of every row read, each as it rests (`bytea` as its bytes, text as
 * UTF-8); otherwise the row counts of each statement.
 */
export function querySync(url: string, sql: string, values?: unknown[]): number[];
export function querySync(url: string, sql: string, values: unknown[] | undefined, bytes: true): Buffer;
export function querySync(url: string, sql: string, values?: unknown[], bytes = false): Buffer | number[] {
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], {
    input: JSON.stringify({ url, sql, values, bytes }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return bytes ? output : (JSON.parse(output.toString("utf8")) as number[]);
}
