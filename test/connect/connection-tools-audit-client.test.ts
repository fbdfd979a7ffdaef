/**
 * The `connections_disconnect` tool names the client that asked in the disconnect's audit record:
 * a client that declares a name of any length, or an empty version, still gets its disconnect
 * recorded, its name cleaned as the hand-off records clean it.
 */
import { describe, expect, it } from "vitest";
import type { DisconnectedBy } from "../../src/connect/connections.js";
import { registerConnectionTools } from "../../src/connect/index.js";
import type { McpServer, RequestContext } from "../../src/server/index.js";
import { checkAuditEntry } from "../../src/stores/index.js";

const ALICE = { issuer: "https://login.example", subject: "alice" };

type Handler = (args: { provider: string }, ctx: RequestContext) => Promise<unknown>;

function tools() {
  const handlers = new Map<string, Handler>();
  const server = {
    registerTool: (name: string, _config: unknown, handler: Handler) => {
      handlers.set(name, handler);
      return {};
    },
  } as unknown as McpServer;
  const asked: DisconnectedBy[] = [];
  registerConnectionTools(server, {
    connections: {
      connections: async () => [],
      disconnect: async (_user, _provider, by = {}) => {
        asked.push(by);
        return { removed: true, upstream: "revoked" };
      },
    },
    userFor: () => ALICE,
  });
  const disconnect = (clientInfo: { name?: string; version?: string }) =>
    handlers.get("connections_disconnect")?.({ provider: "github" }, {
      session: { id: "session-7", clientInfo },
    } as unknown as RequestContext);
  return { disconnect, asked };
}

/** Whether the broker's record of this disconnect would be accepted by every audit log. */
const recordable = (by: DisconnectedBy) => () =>
  checkAuditEntry({
    at: 1,
    event: "grant.revoked",
    user: ALICE,
    ...(by.client === undefined ? {} : { client: by.client }),
    ...(by.sessionId === undefined ? {} : { sessionId: by.sessionId }),
    provider: "github",
    outcome: "ok",
  });

describe("connections_disconnect names its client in a form every audit log takes", () => {
  it("a name of 600 characters is cut, an empty version left out; a plain client is named as it is", async () => {
    const { disconnect, asked } = await tools();
    await disconnect({ name: `agent${"x".repeat(600)}`, version: "" });
    await disconnect({ name: "agent", version: "2.1.0" });
    expect(asked[0]?.client).toEqual({ name: `agent${"x".repeat(95)}` });
    expect(asked[1]).toEqual({ sessionId: "session-7", client: { name: "agent", version: "2.1.0" } });
    for (const by of asked) expect(recordable(by)).not.toThrow();
  });
});
