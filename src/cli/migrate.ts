/**
 * `handoff migrate`: brings the PostgreSQL tables of the fleet stores up to date, as each instance
 * does when it starts, for deployments that migrate before they roll out. pg and the PostgreSQL
 * engines are loaded only when this command runs.
 */
import { parseArgs } from "node:util";
import { ExitCode, UsageError } from "./exit-codes.js";
import type { CliIo } from "./io.js";

const OPTIONS = {
  "database-url": { type: "string" },
  schema: { type: "string" },
  "table-prefix": { type: "string" },
} as const;

/**
 * Runs `handoff migrate` with the arguments after `migrate`; prints each step applied, or that
 * none was needed, on stdout.
 * @throws UsageError for an unknown option, an operand, or no database URL (neither
 *   `--database-url` nor `DATABASE_URL`); SdkError as `migrateDatabase` throws it.
 */
export async function runMigrate(
  argv: readonly string[],
  io: CliIo,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<ExitCode> {
  let values: { "database-url"?: string; schema?: string; "table-prefix"?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: false, strict: true }));
  } catch (error) {
    // parseArgs quotes the argument it refused, which may be the URL with its password.
    const unknown = error instanceof Error ? /^Unknown option '(--[\w-]+)/.exec(error.message)?.[1] : undefined;
    throw new UsageError(
      unknown !== undefined
        ? `Unknown option ${unknown} for migrate: it takes --database-url, --schema and --table-prefix`
        : "migrate takes only --database-url URL, --schema NAME and --table-prefix PREFIX",
    );
  }
  const url = values["database-url"] ?? environment.DATABASE_URL;
  if (url === undefined || url === "") {
    throw new UsageError("migrate needs --database-url postgres://user:password@host/database (or DATABASE_URL)");
  }
  const { migrateDatabase } = await import("../postgres/index.js");
  const location = { schema: values.schema, tablePrefix: values["table-prefix"] };
  const applied = await migrateDatabase(url, location);
  const where = `${values.schema ?? "public"}.${values["table-prefix"] ?? "mcp_handoff_"}`;
  if (applied.length === 0) io.stdout(`Up to date: no migration to apply in ${where}\n`);
  for (const step of applied) io.stdout(`Applied migration ${step.version} (${step.name}) in ${where}\n`);
  return ExitCode.Success;
}
