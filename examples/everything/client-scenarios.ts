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
  // The suite names the revision each scenario runs at; the client pins it rather than probing.
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const client = new McpClient(
    { name: "mcp-handoff-everything-client", version: "1.0.0" },
    version ? { protocolVersion: version } : {},
  );
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
  "request-metadata": (url) => exerciseEverything(url),
  "sep-2322-client-request-state": (url) => exerciseEverything(url),
  "http-standard-headers": (url) => exerciseEverything(url),
  "http-custom-headers": (url) => exerciseEverything(url),
  "http-invalid-tool-headers": (url) => exerciseEverything(url),
  "json-schema-ref-no-deref": (url) => exerciseEverything(url),

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

/** Example argument values by property name, chosen to exercise the header encoding rules. */
const SAMPLE_VALUES: Record<string, unknown> = {
  region: "us-west1",
  priority: 42,
  verbose: true,
  debug: false,
  query: "SELECT 1",
  non_ascii_val: "Hello, 世界",
  whitespace_val: " padded ",
  leading_space_val: " leading",
  trailing_space_val: "trailing ",
  internal_space_val: "inner space",
  control_char_val: "bell\u0007here",
  crlf_val: "line1\r\nline2",
  tab_val: "\ttabbed",
  method_val: "=?base64?literal?=",
  a: 2,
  b: 3,
};

/**
 * Arguments for a tool: every property with a sample value, or one that fits its type. A tool
 * named `*_null` tests null arguments: its optional properties get `null`.
 */
function argumentsFor(
  tool: string,
  inputSchema: { properties?: Record<string, { type?: unknown }>; required?: string[] },
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(inputSchema.properties ?? {})) {
    if (tool.endsWith("_null") && !inputSchema.required?.includes(name)) args[name] = null;
    else if (name in SAMPLE_VALUES) args[name] = SAMPLE_VALUES[name];
    else if (property.type === "string") args[name] = "sample";
    else if (property.type === "integer") args[name] = 7;
    else if (property.type === "number") args[name] = 1.5;
    else if (property.type === "boolean") args[name] = true;
  }
  return args;
}

/**
 * The stateless-era scenarios: list and call every tool (arguments from their schemas), read the
 * first resource and get the first prompt, answering any InputRequiredResult with an accepting
 * elicitation handler (schema defaults filled in) and empty roots.
 */
export const exerciseEverything: Scenario = (url) =>
  withClient(
    url,
    async (client) => {
      const caps = client.serverCapabilities ?? {};
      for (const tool of await listTools(client)) {
        const result = await client.callTool({ name: tool.name, arguments: argumentsFor(tool.name, tool.inputSchema) });
        say(`${tool.name}: ${textOf(result)}`);
      }
      if (caps.resources !== undefined) {
        const { resources } = await client.listResources();
        const first = resources[0];
        if (first) say(`read ${first.uri}: ${(await client.readResource({ uri: first.uri })).contents.length} part(s)`);
      }
      if (caps.prompts !== undefined) {
        const { prompts } = await client.listPrompts();
        const first = prompts[0];
        if (first)
          say(`prompt ${first.name}: ${(await client.getPrompt({ name: first.name })).messages.length} message(s)`);
      }
    },
    (client) => {
      client.setElicitationHandler((params) =>
        params.mode === "form" ? { action: "accept", content: { confirmed: true } } : { action: "accept" },
      );
      client.setRoots([]);
    },
  );
