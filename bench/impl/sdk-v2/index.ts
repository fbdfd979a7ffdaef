/** The official TypeScript SDK v2 (`@modelcontextprotocol/client` and `/server`). */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { entry, packageVersion, ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText } from "../shared.js";
import type { Implementation } from "../types.js";

function newClient(): Client {
  const client = new Client(CLIENT_INFO, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", () => ELICIT_ANSWER);
  return client;
}

export const sdkV2: Implementation = {
  name: "sdk-v2",
  label: `@modelcontextprotocol/server + client ${packageVersion("@modelcontextprotocol/server")}`,
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer: entry("./http-server.ts", import.meta.url),
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
