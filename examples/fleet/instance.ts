/**
 * One instance of the fleet demo's MCP server, a process of its own (`tsx examples/fleet/instance.ts`):
 * the full demo's server (items-server.ts: `/mcp`, the connect pages `/connect/*`, the third-party
 * callback) on `127.0.0.1:<port>`, behind the load balancer whose origin it serves under. Redis
 * holds the event store, the bus, the session directory, the interaction store and the renewal
 * notes; PostgreSQL the vault, the grant states and the locks. Configured by the JSON object in
 * the environment variable `FLEET_INSTANCE` (see `InstanceConfig`), which carries keys and so is
 * never printed. Prints `ready` once it listens; each narration line goes to stdout.
 */
import "../demo/quiet-dev-servers.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connectPostgres } from "../../src/postgres/index.js";
import { connectRedis } from "../../src/redis/index.js";
import { startItemsServer } from "../demo/full/items-server.js";
import { CONFIG_VARIABLE, type InstanceConfig } from "./instance-config.js";

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(config: InstanceConfig): Promise<void> {
  const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, "hex"));
  const redis = await connectRedis({ url: config.redisUrl, keyPrefix: config.keyPrefix });
  const postgres = await connectPostgres({
    connectionString: config.databaseUrl,
    schema: config.schema,
    // world.ts has migrated the schema before starting any instance.
    migrate: false,
    vault: { encryption: { keys: { k1: bytes(config.vaultKey) }, currentKeyId: "k1" } },
  });
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  const items = startItemsServer({
    web: {
      origin: config.origin,
      handle: (fn) => {
        handler = fn;
      },
    },
    mcpIssuer: config.mcpIssuer,
    thirdParty: config.thirdParty,
    say,
    // One log for the fleet: each instance appends the steps it served.
    audit: postgres.audit,
    shared: {
      interactions: redis.interactions,
      bus: redis.bus,
      eventStore: redis.eventStore,
      sessions: redis.sessions,
      notes: redis.notes,
      vault: postgres.vault,
      grantStates: postgres.grantStates,
      locks: postgres.locks,
      requestStateKeys: config.requestStateKeys.map(bytes),
      cookieSecret: bytes(config.cookieSecret),
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, "127.0.0.1", resolve);
  });
  const stop = async () => {
    server.closeAllConnections();
    await items.close();
    await new Promise((resolve) => server.close(resolve));
    await redis.close();
    await postgres.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
  say("ready");
}

try {
  await main(JSON.parse(process.env[CONFIG_VARIABLE] ?? "") as InstanceConfig);
} catch (error) {
  // The message only: a cause could carry a connection string.
  console.error(`instance failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
