/**
 * The README's snippet without sessions, run as it is: its web-standard handler serves a
 * 2025-11-25 client that initializes once and then sends every request on its own, and a
 * 2026-07-28 client, without ever issuing an `Mcp-Session-Id`.
 */
import { describe, expect, it } from "vitest";
import worker from "../../examples/quickstart/stateless-server.js";
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

async function forecast(protocolVersion?: string) {
  const sessionIds: (string | null)[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const response = await worker.fetch(new Request(input, init));
    sessionIds.push(response.headers.get("mcp-session-id"));
    return response;
  };
  const client = new McpClient({ name: "readme-test", version: "1.0.0" }, protocolVersion ? { protocolVersion } : {});
  await client.connect(new StreamableHttpClientTransport(new URL("https://weather.example/mcp"), { fetch: fetcher }));
  try {
    const { tools } = await client.listTools({});
    const result = await client.callTool({ name: "forecast", arguments: { city: "Lisbon" } });
    return { version: client.protocolVersion, tools: tools.map((tool) => tool.name), result, sessionIds };
  } finally {
    await client.close();
  }
}

describe("README: Streamable HTTP without sessions", () => {
  it("serves a 2025-11-25 client: initialize, then each request on its own", async () => {
    const { version, tools, result, sessionIds } = await forecast("2025-11-25");
    expect(version).toBe("2025-11-25");
    expect(tools).toEqual(["forecast"]);
    expect(result.content).toEqual([{ type: "text", text: "Lisbon: sunny, 21 °C" }]);
    expect(sessionIds.length).toBeGreaterThanOrEqual(4);
    expect(sessionIds.every((id) => id === null)).toBe(true);
  });

  it("serves a 2026-07-28 client the same", async () => {
    const { version, result, sessionIds } = await forecast();
    expect(version).toBe("2026-07-28");
    expect(result.content).toEqual([{ type: "text", text: "Lisbon: sunny, 21 °C" }]);
    expect(sessionIds.every((id) => id === null)).toBe(true);
  });
});
