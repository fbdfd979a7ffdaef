/** The official TypeScript SDK v2 (`@modelcontextprotocol/client` and `/server`). */
import { Client, type ClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { entry, packageVersion, ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText, STATELESS_VERSION } from "../shared.js";
import type { HttpSession, Implementation } from "../types.js";

function newClient(options: Omit<ClientOptions, "capabilities"> = {}): Client {
  const client = new Client(CLIENT_INFO, { ...options, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler("elicitation/create", () => ELICIT_ANSWER);
  return client;
}

async function openHttp(url: URL, options: Omit<ClientOptions, "capabilities"> = {}): Promise<HttpSession> {
  const client = newClient(options);
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return {
    echo: async (text) => firstText(await client.callTool({ name: ECHO_TOOL, arguments: { text } })),
    close: async () => {
      await transport.terminateSession();
      await client.close();
    },
  };
}

export const sdkV2: Implementation = {
  name: "sdk-v2",
  label: `@modelcontextprotocol/server + client ${packageVersion("@modelcontextprotocol/server")}`,
  stdioServer: entry("./stdio-server.ts", import.meta.url),
  httpServer: entry("./http-server.ts", import.meta.url),
  statelessServer: entry("./stateless-server.ts", import.meta.url),
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
  openHttp: (url) => openHttp(url),
  // Pinned to the stateless revision, as ours is: the connect-time server/discover must offer it.
  openStateless: (url) => openHttp(url, { versionNegotiation: { mode: { pin: STATELESS_VERSION } } }),
};
