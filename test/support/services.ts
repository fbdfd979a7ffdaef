/**
 * Reaching the services some tests need (Redis, PostgreSQL). Their address comes from the
 * environment; a service that does not answer skips those tests with the reason, except in CI
 * (`CI` set), where it fails them, so a green CI run has really run them.
 */

/** The Redis the tests use: `MCP_HANDOFF_TEST_REDIS_URL`, default `redis://127.0.0.1:6379`. */
export function redisUrl(): string {
  return process.env.MCP_HANDOFF_TEST_REDIS_URL || "redis://127.0.0.1:6379";
}

/**
 * The PostgreSQL the tests use: `MCP_HANDOFF_TEST_DATABASE_URL`, default
 * `postgres://postgres@127.0.0.1:5432/postgres`.
 */
export function databaseUrl(): string {
  return process.env.MCP_HANDOFF_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

/** A random suffix for the key prefix or schema of one test run, so that runs never share data. */
export function runId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Whether `name` answers: `probe` resolves when it does. When it does not, the reason is printed
 * and `false` returned (the caller skips its tests); in CI that throws instead.
 * @throws Error in CI when the service does not answer.
 */
export async function requireService(name: string, probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env.CI) throw new Error(`${name} is needed in CI and does not answer: ${reason}`, { cause: error });
    console.warn(`Skipping the tests that need ${name}: it does not answer (${reason}).`);
    return false;
  }
}
