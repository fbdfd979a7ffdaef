/**
 * One instance of a fleet of our Streamable HTTP servers: the bench's `McpServer` definition plus
 * a `link` tool that hands the user off (`InteractionRequired`), with the interaction store, event
 * store, bus and session directory on Redis (`--redis <url> --key-prefix <prefix>`). Every
 * request's user is `Bearer <name>`. `POST /callback/<interaction id>` stands for the provider's
 * redirect after the user granted access: it completes the interaction for that user, as the
 * connect pages do once they hold the credential (the code exchange with a real provider and the
 * vault write are left out), and answers 204.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHttpServer, toNodeHandler } from "mcp-handoff/http";
import { InteractionManager } from "mcp-handoff/interaction";
import { connectRedis } from "mcp-handoff/redis";
import { InteractionRequired } from "mcp-handoff/server";
import { serveHttp } from "../http-host.js";
import { FLEET_USER_ISSUER, HANDOFF_MESSAGE, HANDOFF_PAGE, LINK_TOOL } from "../shared.js";
import { MAX_MESSAGE_BYTES } from "../types.js";
import { buildServer } from "./tools.js";

function option(name: string): string {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? undefined : process.argv[at + 1];
  if (value === undefined) throw new Error(`fleet-server needs ${name}`);
  return value;
}

function userOf(req: IncomingMessage) {
  const subject = /^Bearer (\w+)$/.exec(req.headers.authorization ?? "")?.[1];
  return subject === undefined ? undefined : { token: subject, issuer: FLEET_USER_ISSUER, subject };
}

const redis = await connectRedis({ url: option("--redis"), keyPrefix: option("--key-prefix") });
const manager = new InteractionManager({ store: redis.interactions, bus: redis.bus, sweepIntervalMs: 0 });
const mcp = buildServer(undefined, { interactions: manager });
mcp.registerTool(LINK_TOOL, { description: "Needs the user to link an account first." }, () => {
  throw new InteractionRequired({ url: HANDOFF_PAGE, message: HANDOFF_MESSAGE });
});
const endpoint = new StreamableHttpServer({
  onsession: (transport) => void mcp.connect(transport),
  onrequest: (transport) => void mcp.connect(transport),
  eventStore: redis.eventStore,
  fleet: { sessions: redis.sessions, bus: redis.bus },
  maxBodyBytes: MAX_MESSAGE_BYTES,
});
const handle = toNodeHandler(endpoint, { authInfo: userOf });

async function callback(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  req.resume();
  const user = userOf(req);
  if (user === undefined) {
    res.writeHead(401).end();
    return;
  }
  try {
    await manager.complete(decodeURIComponent(id), { user });
    res.writeHead(204).end();
  } catch (error) {
    process.stderr.write(`fleet-server: the callback failed: ${String(error)}\n`);
    res.writeHead(409).end();
  }
}

await serveHttp((req, res) => {
  const callbackId = req.method === "POST" ? /^\/callback\/([^/?]+)$/.exec(req.url ?? "")?.[1] : undefined;
  if (callbackId !== undefined) void callback(req, res, callbackId);
  else void handle(req, res);
});
