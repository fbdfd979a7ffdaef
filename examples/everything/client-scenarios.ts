/**
 * What the everything client does in each scenario of the conformance suite's client leg
 * (test/conformance/REQUIREMENTS.md § Client scenarios). Each scenario connects on its own,
 * does its part and closes; a thrown error makes the client exit non-zero.
 */
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

export type Scenario = (url: URL) => Promise<void>;

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Connects a client (configured by `setup` before the handshake), runs `body`, then closes. */
async function withClient(url: URL, body: (client: McpClient) => Promise<void>, setup?: (client: McpClient) => void) {
  const client = new McpClient({ name: "mcp-handoff-everything-client", version: "1.0.0" });
  client.onerror = (error) => say(`client error: ${error.message}`);
  setup?.(client);
  await client.connect(new StreamableHttpClientTransport(url));
  say(`connected to ${client.serverInfo?.name ?? "?"} (${client.protocolVersion ?? "?"})`);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

async function listTools(client: McpClient) {
  if (client.serverCapabilities?.tools === undefined) {
    say("the server offers no tools");
    return [];
  }
  const tools = await client.listAllTools();
  say(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
  return tools;
}

function textOf(result: { content?: Array<{ type: string; text?: string }> }): string {
  return (result.content ?? []).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/** Handshake, `tools/list`, close: also what an unknown scenario gets. */
export const connectAndList: Scenario = (url) => withClient(url, async (client) => void (await listTools(client)));

export const scenarios: Record<string, Scenario> = {
  initialize: connectAndList,

  tools_call: (url) =>
    withClient(url, async (client) => {
      const tools = await listTools(client);
      if (!tools.some((tool) => tool.name === "add_numbers")) throw new Error("The server lists no add_numbers tool");
      const result = await client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
      say(`add_numbers: ${textOf(result)}`);
    }),

  // The user accepts without typing anything; the client fills in the schema's defaults.
  "elicitation-sep1034-client-defaults": (url) =>
    withClient(
      url,
      async (client) => {
        await listTools(client);
        const result = await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
        say(`test_client_elicitation_defaults: ${textOf(result)}`);
      },
      (client) => client.setElicitationHandler(() => ({ action: "accept", content: {} })),
    ),

  // The server ends the call's stream early; the transport resumes it with Last-Event-ID.
  "sse-retry": (url) =>
    withClient(url, async (client) => {
      await listTools(client);
      const result = await client.callTool({ name: "test_reconnection", arguments: {} });
      say(`test_reconnection: ${textOf(result)}`);
    }),

  // Hands the focal tool's schema back unchanged, so the server sees what the client kept of it.
  "json-schema-2020-12-preservation": (url) =>
    withClient(url, async (client) => {
      const tools = await listTools(client);
      const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
      if (!focal) throw new Error("The server lists no json_schema_2020_12_tool");
      const result = await client.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
      say(`json_schema_echo: ${textOf(result)}`);
    }),
};
