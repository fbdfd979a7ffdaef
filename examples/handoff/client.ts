import { McpClient } from "mcp-handoff/client";
import { StreamableHttpClientTransport } from "mcp-handoff/http";
import { createConsentPolicy, HandoffClient } from "mcp-handoff/interaction";

const client = new McpClient({ name: "my-agent", version: "1.0.0" });
// One handler for every wire form of a hand-off: it shows the server, the full URL, its registrable
// domain and any warning, asks for consent, and only then opens the browser.
const handoff = new HandoffClient(client, { onInteraction: createConsentPolicy() });

await client.connect(new StreamableHttpClientTransport(new URL("https://mcp.example.com/mcp")));
// Retried once the server reports the hand-off complete (or you say you are done).
const result = await handoff.callTool({ name: "list_repos", arguments: {} });
console.log(result.content);
