/**
 * A PostgreSQL server of the test's own, in a temporary folder on a free port, that a test may
 * stop and start again (the shared server is never stopped). Run as the `postgres` user when the
 * tests run as root, since PostgreSQL refuses to run as root.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PrivateServer {
  url(password?: string): string;
  stop(): void;
  start(): void;
  remove(): void;
}

/** The folder of initdb and pg_ctl: `MCP_HANDOFF_TEST_PG_BIN`, or the newest /usr/lib/postgresql/N/bin. */
function binDir(): string | undefined {
  if (process.env.MCP_HANDOFF_TEST_PG_BIN) return process.env.MCP_HANDOFF_TEST_PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const newest = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : join(root, newest, "bin");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A new server, started.
 * @throws when initdb or pg_ctl is missing or fails (the message says which).
 */
export async function startPrivateServer(): Promise<PrivateServer> {
  const bin = binDir();
  if (bin === undefined || !existsSync(join(bin, "initdb"))) {
    throw new Error("initdb and pg_ctl were not found (set MCP_HANDOFF_TEST_PG_BIN to their folder)");
  }
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, tool), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, tool), args, { stdio: "pipe" });
  const dir = mkdtempSync(join(tmpdir(), "handoff-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const server: PrivateServer = {
    url: (password) => `postgres://postgres${password === undefined ? "" : `:${password}`}@127.0.0.1:${port}/postgres`,
    start: () => run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]),
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    remove: () => {
      try {
        server.stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  server.start();
  return server;
}
