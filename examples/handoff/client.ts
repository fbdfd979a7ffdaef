import { accessTokenFor, FileTokenStore } from "mcp-handoff/auth";
import { McpClient } from "mcp-handoff/client";
import { StreamableHttpClientTransport } from "mcp-handoff/http";
import { createConsentPolicy, HandoffClient } from "mcp-handoff/interaction";
import open from "open";

const url = new URL(process.env.MCP_URL ?? "https://mcp.example.com/mcp");
// The access token `npx handoff login <url>` stored, renewed first if it has expired.
const token = await accessTokenFor(url, { store: new FileTokenStore() });

const client = new McpClient({ name: "my-agent", version: "1.0.0" });
// One handler for every wire form of a hand-off: it shows the server, the full URL, its registrable
// domain and any warning, asks for consent at the terminal, and only then opens the browser (with
// the `open` package; without `open` it prints the URL for the user to open).
const consent = createConsentPolicy({ open: async (page) => void (await open(page)) });
const handoff = new HandoffClient(client, { onInteraction: consent, serverUrl: url });

await client.connect(new StreamableHttpClientTransport(url, { headers: { authorization: `Bearer ${token}` } }));
// Retried once the server reports the hand-off complete (or you say you are done).
const result = await handoff.callTool({ name: "list_repos", arguments: {} });
console.log(result.content);
await client.close();
