/**
 * `nextCursor: null`, which servers in the field send on the last page although the schema allows
 * only a string or nothing: the client reads it as "no more pages", for every paginated list and in
 * both eras, and hands its callers a page without the field.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { JsonRpcSession, type Params, type Result } from "../../src/jsonrpc/session.js";
import { createMemoryTransportPair } from "../../src/transports/memory.js";
import { connected } from "./support.js";

const MODERN = "2026-07-28";

/** Each paginated list: its method, the client's one-page and every-page calls, and one item. */
const LISTS = [
  {
    method: "tools/list",
    key: "tools",
    item: { name: "add", inputSchema: { type: "object" } },
    page: (c: McpClient) => c.listTools(),
    all: (c: McpClient) => c.listAllTools(),
  },
  {
    method: "prompts/list",
    key: "prompts",
    item: { name: "greet" },
    page: (c: McpClient) => c.listPrompts(),
    all: (c: McpClient) => c.listAllPrompts(),
  },
  {
    method: "resources/list",
    key: "resources",
    item: { uri: "file:///a", name: "a" },
    page: (c: McpClient) => c.listResources(),
    all: (c: McpClient) => c.listAllResources(),
  },
  {
    method: "resources/templates/list",
    key: "resourceTemplates",
    item: { uriTemplate: "file:///{name}", name: "files" },
    page: (c: McpClient) => c.listResourceTemplates(),
    all: (c: McpClient) => c.listAllResourceTemplates(),
  },
] as const;

/** A raw stateless peer: answers `server/discover` for 2026-07-28 and `method` with `page`. */
async function modernPeer(method: string, page: (params: Params) => Result) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const session = new JsonRpcSession();
  session.setRequestHandler("server/discover", () => ({
    resultType: "complete",
    supportedVersions: [MODERN],
    capabilities: { tools: {}, prompts: {}, resources: {} },
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "field", version: "1.0.0" } },
  }));
  let calls = 0;
  session.setRequestHandler(method, (params) => {
    calls++;
    return { resultType: "complete", ...page(params) };
  });
  await session.connect(serverSide);
  const client = new McpClient({ name: "test-client", version: "0.0.1" });
  await client.connect(clientSide);
  expect(client.isStateless).toBe(true);
  return { client, calls: () => calls };
}

describe("nextCursor: null ends the listing", () => {
  for (const list of LISTS) {
    it(`${list.method} on 2025-11-25: one page without nextCursor, and the listing ends`, async () => {
      const { client, server } = await connected();
      server.session.setRequestHandler(list.method, () => ({ [list.key]: [list.item], nextCursor: null }));
      const page = await list.page(client);
      expect(page).toEqual({ [list.key]: [list.item] });
      expect(page).not.toHaveProperty("nextCursor");
      await expect(list.all(client)).resolves.toEqual([list.item]);
      expect(server.sent(list.method)).toHaveLength(2);
      await client.close();
    });

    it(`${list.method} on 2026-07-28: one page without nextCursor, and the listing ends`, async () => {
      const { client, calls } = await modernPeer(list.method, () => ({ [list.key]: [list.item], nextCursor: null }));
      const page = await list.page(client);
      expect(page).toEqual({ [list.key]: [list.item] });
      expect(page).not.toHaveProperty("nextCursor");
      await expect(list.all(client)).resolves.toEqual([list.item]);
      expect(calls()).toBe(2);
      await client.close();
    });
  }

  it("still follows a string cursor to the page that ends with null", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", (params) =>
      params.cursor === undefined
        ? { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "2" }
        : { tools: [{ name: "b", inputSchema: { type: "object" } }], nextCursor: null },
    );
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["a", "b"]);
    await client.close();
  });

  it("still refuses a cursor of another type", async () => {
    const { client, server } = await connected();
    server.session.setRequestHandler("tools/list", () => ({ tools: [], nextCursor: 7 }));
    await expect(client.listTools()).rejects.toMatchObject({ code: "INVALID_RESULT" });
    await client.close();
  });
});
