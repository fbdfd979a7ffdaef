/** mcp-handoff, client and server, through its public subpaths. */
import { McpClient } from "mcp-handoff/client";
import { StreamableHttpClientTransport } from "mcp-handoff/http";
import { StdioClientTransport } from "mcp-handoff/stdio";
import { entry, ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText, PROTOCOL_VERSION } from "../shared.js";
import type { Implementation } from "../types.js";

/** Pinned to the revision every implementation speaks, as the SDK clients are: no `server/discover` probe first. */
function newClient(): McpClient {
  const client = new McpClient(CLIENT_INFO, { protocolVersion: PROTOCOL_VERSION });
  client.setElicitationHandler(() => ELICIT_ANSWER);
  return client;
}

export const ours: Implementation = {
  name: "ours",
  label: "mcp-handoff (this repository)",
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer: entry("./http-server.ts", import.meta.url),
  async openStdio({ command, args }) {
    const client = newClient();
    await client.connect(new StdioClientTransport({ command, args, cwd: ROOT }));
    return {
      echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
      listTools: async () => (await client.listTools({})).tools.length,
      ask: async () => firstText(await client.callTool({ name: ASK_TOOL, arguments: {} })),
      close: () => client.close(),
    };
  },
  async openHttp(url) {
    const client = newClient();
    await client.connect(new StreamableHttpClientTransport(url));
    return {
      echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
      close: () => client.close(),
    };
  },
};
