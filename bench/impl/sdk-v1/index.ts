/** The official TypeScript SDK v1 (`@modelcontextprotocol/sdk`), client and server. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { entry, packageVersion, ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText } from "../shared.js";
import type { Implementation } from "../types.js";

function newClient(): Client {
  const client = new Client(CLIENT_INFO, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ELICIT_ANSWER);
  return client;
}

export const sdkV1: Implementation = {
  name: "sdk-v1",
  label: `@modelcontextprotocol/sdk ${packageVersion("@modelcontextprotocol/sdk")}`,
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer: entry("./http-server.ts", import.meta.url),
  // SDK v1 has no revision 2026-07-28.
  statelessServer: undefined,
  openStateless: undefined,
  async openStdio({ command, args }) {
    const client = newClient();
    await client.connect(new StdioClientTransport({ command, args, cwd: ROOT }));
    return {
      echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
      listTools: async () => (await client.listTools()).tools.length,
      ask: async () => firstText(await client.callTool({ name: ASK_TOOL, arguments: {} })),
      close: () => client.close(),
    };
  },
  async openHttp(url) {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(url);
    await client.connect(transport);
    return {
      echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
      close: async () => {
        await transport.terminateSession();
        await client.close();
      },
    };
  },
};
