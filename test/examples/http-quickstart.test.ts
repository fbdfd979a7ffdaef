/**
 * The README's Streamable HTTP snippet, run as it is: one endpoint that serves a 2026-07-28 client
 * statelessly and a 2025-11-25 client in a session, with the same form elicitation for both.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";

let http: Server;
let url: URL;

beforeAll(async () => {
  process.env.PORT = "0";
  ({ http } = await import("../../examples/quickstart/http-server.js"));
  if (!http.listening) await once(http, "listening");
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

async function signUp(protocolVersion?: string) {
  const client = new McpClient({ name: "readme-test", version: "1.0.0" }, protocolVersion ? { protocolVersion } : {});
  const asked: string[] = [];
  client.setElicitationHandler(
    (params) => {
      asked.push(String(params.message));
      return { action: "accept", content: { email: "ada@example.com" } };
    },
    { modes: ["form"] },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  try {
    const result = await client.callTool({ name: "sign_up", arguments: { list: "news" } });
    return { version: client.protocolVersion, asked, result };
  } finally {
    await client.close();
  }
}

describe("README: the Streamable HTTP server", () => {
  it("serves a 2026-07-28 client without a session, the form answered through an input round", async () => {
    const { version, asked, result } = await signUp();
    expect(version).toBe("2026-07-28");
    expect(asked).toEqual(["Which address should receive news?"]);
    expect(result.content).toEqual([{ type: "text", text: "Signed up ada@example.com to news." }]);
  });

  it("serves a 2025-11-25 client in a session, the form sent as elicitation/create", async () => {
    const { version, asked, result } = await signUp("2025-11-25");
    expect(version).toBe("2025-11-25");
    expect(asked).toEqual(["Which address should receive news?"]);
    expect(result.content).toEqual([{ type: "text", text: "Signed up ada@example.com to news." }]);
  });
});
