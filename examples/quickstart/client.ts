import { McpClient } from "mcp-handoff/client";
import { StdioClientTransport } from "mcp-handoff/stdio";

const client = new McpClient({ name: "quickstart", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", "examples/quickstart/server.ts"] }),
);

const { tools } = await client.listTools({});
console.log(tools.map((tool) => tool.name)); // [ 'greet' ]

const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
console.log(result.content); // [ { type: 'text', text: 'Hello, Ada!' } ]

await client.close();
