/**
 * The fleet demo's world on 127.0.0.1: the MCP authorization server and the third-party service
 * (as in the full demo), a Redis key prefix and a PostgreSQL schema of this run's own (the schema
 * migrated before any instance starts), three instance processes (A, B, C; instance.ts) and
 * HAProxy in front of them. `close` stops everything and deletes the run's Redis keys and schema,
 * also after a failed start.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { connectPostgres, type PostgresStores } from "../../src/postgres/index.js";
import { startThirdParty } from "../demo/full/authorization-servers.js";
import { startMcpAuthorizationServer } from "../demo/full/mcp-authorization-server.js";
import { THIRD_PARTY_CLIENT } from "../demo/full/world.js";
import { type Haproxy, startHaproxy, stopChild } from "./haproxy.js";
import { CONFIG_VARIABLE, type InstanceConfig } from "./instance-config.js";

export const NAMES = ["A", "B", "C"] as const;
export type InstanceName = (typeof NAMES)[number];

export interface FleetWorldOptions {
  redisUrl: string;
  databaseUrl: string;
  /** Narration; the instances' lines come prefixed with their name. */
  say(line: string): void;
  /**
   * Instances given `requestStateKeys` of their own instead of the fleet's shared list (to show
   * what sharing them is for: such an instance refuses a `requestState` another one sealed). Default none.
   */
  keysOfTheirOwn?: readonly InstanceName[];
}

export interface FleetWorld {
  /** The MCP endpoint behind HAProxy. */
  resource: string;
  /** HAProxy's origin, which is also the connect pages' origin. */
  origin: string;
  mcpIssuer: string;
  /** Names of the servers by `host:port`, for narrating the browser's requests. */
  labels: ReadonlyMap<string, string>;
  /** Ends the instance's process at once (default SIGKILL: no goodbye to anyone). */
  kill(name: InstanceName, signal?: NodeJS.Signals): Promise<void>;
  /** Starts the instance again on its port, with the same configuration. */
  restart(name: InstanceName): Promise<void>;
  /** The third-party token the shared vault holds for `subject`, if any. */
  storedSecret(subject: string): Promise<string | undefined>;
  close(): Promise<void>;
}

const INSTANCE = fileURLToPath(new URL("./instance.ts", import.meta.url));

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns one instance and resolves once it prints `ready`. */
function spawnInstance(config: InstanceConfig, say: (line: string) => void): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", INSTANCE], {
    env: { ...process.env, [CONFIG_VARIABLE]: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let ready = false;
    let rest = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!ready && line === "ready") {
          ready = true;
          resolve(child);
        } else say(`[${config.name}] ${line}`);
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim() !== "") say(`[${config.name}] ${line}`);
    });
    child.once("exit", (code, signal) => {
      if (!ready) reject(new Error(`instance ${config.name} exited before it was ready (${signal ?? code})`));
    });
  });
}

export async function startFleetWorld(options: FleetWorldOptions): Promise<FleetWorld> {
  const { say } = options;
  const run = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const keyPrefix = `mcp-handoff-fleet-${run}:`;
  const schema = `fleet_${run}`;
  const cleanups: (() => Promise<unknown>)[] = [];
  const children = new Map<InstanceName, ChildProcess>();
  let haproxy: Haproxy | undefined;
  const close = async () => {
    await haproxy?.stop();
    for (const child of children.values()) await stopChild(child);
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        say(`cleanup  failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  try {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const resource = `${origin}/mcp`;
    const mcpAs = await startMcpAuthorizationServer(origin, resource);
    cleanups.push(() => mcpAs.close());
    say(`setup    MCP authorization server (oidc-provider) at ${mcpAs.issuer}`);
    const thirdParty = await startThirdParty(origin, "items", { host: "127.0.0.1" });
    cleanups.push(() => thirdParty.close());
    say(`setup    third-party service (oidc-provider + /api/items) at ${thirdParty.issuer}`);

    const vaultKey = randomBytes(32).toString("hex");
    cleanups.push(() => dropKeys(options.redisUrl, keyPrefix));
    cleanups.push(() => dropSchema(options.databaseUrl, schema));
    const postgres: PostgresStores = await connectPostgres({
      connectionString: options.databaseUrl,
      schema,
      vault: { encryption: { keys: { k1: Uint8Array.from(Buffer.from(vaultKey, "hex")) }, currentKeyId: "k1" } },
    });
    cleanups.push(() => postgres.close());
    say(`setup    PostgreSQL schema ${schema} (migrated), Redis key prefix ${keyPrefix}`);

    const shared = {
      origin,
      redisUrl: options.redisUrl,
      keyPrefix,
      databaseUrl: options.databaseUrl,
      schema,
      requestStateKeys: [randomBytes(32).toString("hex"), randomBytes(32).toString("hex")],
      vaultKey,
      cookieSecret: randomBytes(32).toString("hex"),
      mcpIssuer: mcpAs.issuer,
      thirdParty: { issuer: thirdParty.issuer, ...THIRD_PARTY_CLIENT },
    };
    const configs = new Map<InstanceName, InstanceConfig>();
    for (const name of NAMES) {
      const own = options.keysOfTheirOwn?.includes(name) ? { requestStateKeys: [randomBytes(32).toString("hex")] } : {};
      configs.set(name, { ...shared, ...own, name, port: await freePort() });
    }
    const start = async (name: InstanceName) => {
      const config = configs.get(name) as InstanceConfig;
      children.set(name, await spawnInstance(config, say));
      say(`setup    instance ${name} at 127.0.0.1:${config.port}`);
    };
    await Promise.all(NAMES.map(start));
    haproxy = await startHaproxy({
      port,
      backends: NAMES.map((name) => ({ name, port: (configs.get(name) as InstanceConfig).port })),
      log: (line) => say(`[haproxy] ${line}`),
    });
    say(`setup    HAProxy at ${origin}: round robin over A, B, C, no stickiness; MCP at ${resource}`);
    return {
      resource,
      origin,
      mcpIssuer: mcpAs.issuer,
      labels: new Map([
        [new URL(mcpAs.issuer).host, "MCP authorization server"],
        [new URL(thirdParty.issuer).host, "third party"],
        [new URL(origin).host, "MCP server (HAProxy)"],
      ]),
      async kill(name, signal = "SIGKILL") {
        const child = children.get(name);
        if (child !== undefined) await stopChild(child, signal);
        children.delete(name);
      },
      restart: start,
      storedSecret: async (subject) => (await postgres.vault.get({ issuer: mcpAs.issuer, subject }, "items"))?.secret,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Deletes every Redis key under `prefix`. */
async function dropKeys(url: string, prefix: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}

/** Drops the run's schema and everything in it. */
async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
