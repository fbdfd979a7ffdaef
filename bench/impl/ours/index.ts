/** mcp-handoff, client and server, through its public subpaths. */
import { McpClient } from "mcp-handoff/client";
import { StreamableHttpClientTransport } from "mcp-handoff/http";
import { StdioClientTransport } from "mcp-handoff/stdio";
import { entry, ROOT } from "../process.js";
import {
  ASK_TOOL,
  CLIENT_INFO,
  ECHO_TOOL,
  ELICIT_ANSWER,
  firstText,
  PROTOCOL_VERSION,
  STATELESS_VERSION,
} from "../shared.js";
import { type HttpSession, type Implementation, MAX_MESSAGE_BYTES } from "../types.js";

/** Pinned to one revision, as the SDK clients are: no `server/discover` probe before `initialize`. */
function newClient(protocolVersion: string): McpClient {
  const client = new McpClient(CLIENT_INFO, { protocolVersion });
  client.setElicitationHandler(() => ELICIT_ANSWER);
  return client;
}

/** A client over Streamable HTTP with its default HTTP path (node:http on Node). */
async function openHttp(url: URL, protocolVersion: string): Promise<HttpSession> {
  const client = newClient(protocolVersion);
  await client.connect(new StreamableHttpClientTransport(url, { maxMessageBytes: MAX_MESSAGE_BYTES }));
  return {
    echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
    close: () => client.close(),
  };
}

const httpServer = entry("./http-server.ts", import.meta.url);

export const ours: Implementation = {
  name: "ours",
  label: "mcp-handoff (this repository)",
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  stdioZodServer: entry("./stdio-server-zod.ts", import.meta.url),
  httpServer,
  statelessServer: httpServer,
  async openStdio({ command, args }) {
    const client = newClient(PROTOCOL_VERSION);
    await client.connect(new StdioClientTransport({ command, args, cwd: ROOT }));
    return {
      echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
      listTools: async () => (await client.listTools({})).tools.length,
      ask: async () => firstText(await client.callTool({ name: ASK_TOOL, arguments: {} })),
      close: () => client.close(),
    };
  },
  openHttp: (url) => openHttp(url, PROTOCOL_VERSION),
  openStateless: (url) => openHttp(url, STATELESS_VERSION),
};
