/**
 * The everything client's part in the conformance suite's authorization scenarios (`auth/*`):
 * the server answers 401, and `McpAuthorization` discovers its authorization server, gets a
 * client identity (the pre-registered one of `MCP_CONFORMANCE_CONTEXT`, a client ID metadata
 * document, or dynamic registration), runs the authorization code flow and retries. The suite's
 * authorization server approves without a login page, so its redirects are followed directly
 * instead of opening a browser. Then the client lists the tools and calls the first one, which
 * is where a server asks for more scopes or points at a new authorization server.
 */
import { McpAuthorization, type PreRegisteredClient, redirectFollowingUserAgent } from "../../src/auth/client/index.js";
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

/** Where this client would publish its metadata document; the suite only checks that it is used. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Registered as the redirect URI; the suite's server redirects to it and it is never contacted. */
const REDIRECT_URI = "http://127.0.0.1/callback";

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The pre-registered client the suite hands over in `MCP_CONFORMANCE_CONTEXT`, if any. */
function contextClients(): PreRegisteredClient[] {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined) return [];
  const context = JSON.parse(raw) as { client_id?: unknown; client_secret?: unknown };
  if (typeof context.client_id !== "string") return [];
  return [
    {
      clientId: context.client_id,
      ...(typeof context.client_secret === "string" ? { clientSecret: context.client_secret } : {}),
    },
  ];
}

export async function authorizedScenario(url: URL): Promise<void> {
  const auth = new McpAuthorization(url, {
    userAgent: redirectFollowingUserAgent(REDIRECT_URI),
    clients: contextClients(),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: "mcp-handoff-everything-client",
    timeoutMs: 20_000,
  });
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const client = new McpClient(
    { name: "mcp-handoff-everything-client", version: "1.0.0" },
    version ? { protocolVersion: version } : {},
  );
  client.onerror = (error) => say(`client error: ${error.message}`);
  await client.connect(new StreamableHttpClientTransport(url, { authorization: auth }));
  try {
    const tools = client.serverCapabilities?.tools === undefined ? [] : await client.listAllTools();
    say(`tools: ${tools.map((tool) => tool.name).join(", ") || "(none)"}`);
    const first = tools[0];
    if (first !== undefined) await client.callTool({ name: first.name, arguments: {} });
  } finally {
    await client.close();
  }
}
