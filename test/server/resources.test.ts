import { describe, expect, it } from "vitest";
import { ErrorCode, ProtocolError } from "../../src/jsonrpc/errors.js";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { connectClient, flush, until } from "./support.js";

const USERS: Record<string, string> = { "1": "Ada", "2": "Grace" };

function libraryServer(options: { pageSize?: number } = {}) {
  const server = new McpServer({ name: "library", version: "1" }, options);
  server.registerResource(
    "readme",
    "docs://readme",
    { title: "Read me", mimeType: "text/markdown", size: 5 },
    (uri) => ({ contents: [{ uri, mimeType: "text/markdown", text: "# Hi" }] }),
  );
  const users = new ResourceTemplate("users://{id}/profile", {
    list: () => Object.entries(USERS).map(([id, name]) => ({ uri: `users://${id}/profile`, name })),
    complete: { id: (value) => Object.keys(USERS).filter((id) => id.startsWith(value)) },
  });
  server.registerResource("user", users, { mimeType: "application/json", description: "A user" }, (uri, vars) => {
    const name = USERS[vars.id as string];
    if (name === undefined) throw new ProtocolError(ErrorCode.ResourceNotFound, "No such user", { uri });
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ name }) }] };
  });
  server.registerResource("file", new ResourceTemplate("file:///{+path}"), {}, (uri, vars) => ({
    contents: [{ uri, text: `contents of ${vars.path as string}` }],
  }));
  return server;
}

describe("resources", () => {
  it("lists static resources and those a template lists, with the template's metadata", async () => {
    const { client } = await connectClient(libraryServer());
    const { resources } = await client.request("resources/list");
    expect(resources).toEqual([
      { uri: "docs://readme", name: "readme", title: "Read me", mimeType: "text/markdown", size: 5 },
      { uri: "users://1/profile", name: "Ada", mimeType: "application/json", description: "A user" },
      { uri: "users://2/profile", name: "Grace", mimeType: "application/json", description: "A user" },
    ]);
  });

  it("lists templates", async () => {
    const { client } = await connectClient(libraryServer());
    const { resourceTemplates } = await client.request("resources/templates/list");
    expect(resourceTemplates).toEqual([
      { uriTemplate: "users://{id}/profile", name: "user", mimeType: "application/json", description: "A user" },
      { uriTemplate: "file:///{+path}", name: "file" },
    ]);
  });

  it("paginates the combined list", async () => {
    const { client } = await connectClient(libraryServer({ pageSize: 2 }));
    const first = await client.request("resources/list");
    expect(first.resources).toHaveLength(2);
    const second = await client.request("resources/list", { cursor: first.nextCursor });
    expect(second).toEqual({ resources: [expect.objectContaining({ uri: "users://2/profile" })] });
    await expect(client.request("resources/list", { cursor: "@@" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  it("reads a static resource and template matches with their variables", async () => {
    const { client } = await connectClient(libraryServer());
    await expect(client.request("resources/read", { uri: "docs://readme" })).resolves.toEqual({
      contents: [{ uri: "docs://readme", mimeType: "text/markdown", text: "# Hi" }],
    });
    await expect(client.request("resources/read", { uri: "users://2/profile" })).resolves.toEqual({
      contents: [{ uri: "users://2/profile", mimeType: "application/json", text: '{"name":"Grace"}' }],
    });
    await expect(client.request("resources/read", { uri: "file:///etc/hosts.txt" })).resolves.toMatchObject({
      contents: [{ text: "contents of etc/hosts.txt" }],
    });
  });

  it("answers -32002 for a URI nothing matches, and passes a handler's own -32002", async () => {
    const { client } = await connectClient(libraryServer());
    await expect(client.request("resources/read", { uri: "nothing://here" })).rejects.toMatchObject({
      code: -32002,
      data: { uri: "nothing://here" },
    });
    await expect(client.request("resources/read", { uri: "users://9/profile" })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it("sends resources/updated only to the sessions subscribed to that URI", async () => {
    const server = libraryServer();
    const alice = await connectClient(server);
    const bob = await connectClient(server);
    await alice.client.request("resources/subscribe", { uri: "users://1/profile" });
    await bob.client.request("resources/subscribe", { uri: "docs://readme" });

    await server.notifyResourceUpdated("users://1/profile");
    await until(() => alice.notifications("notifications/resources/updated")[0]);
    expect(alice.notifications("notifications/resources/updated")).toEqual([{ uri: "users://1/profile" }]);
    expect(bob.notifications("notifications/resources/updated")).toEqual([]);

    await alice.client.request("resources/unsubscribe", { uri: "users://1/profile" });
    await server.notifyResourceUpdated("users://1/profile");
    await flush();
    expect(alice.notifications("notifications/resources/updated")).toHaveLength(1);
  });

  it("sends resources/list_changed when a resource is registered or removed after connect", async () => {
    const server = libraryServer();
    const { client, notifications } = await connectClient(server);
    const handle = server.registerResource("late", "docs://late", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await until(() => notifications("notifications/resources/list_changed")[0]);
    expect((await client.request("resources/list")).resources).toContainEqual({ uri: "docs://late", name: "late" });
    handle.remove();
    await until(() => notifications("notifications/resources/list_changed")[1]);
    await expect(client.request("resources/read", { uri: "docs://late" })).rejects.toMatchObject({ code: -32002 });
  });
});

describe("ResourceTemplate", () => {
  it("names its variables, expands and matches levels 1 to 3", () => {
    const template = new ResourceTemplate("search://{kind}/items{?q,limit}");
    expect(template.variableNames).toEqual(["kind", "q", "limit"]);
    expect(template.expand({ kind: "books", q: "a b" })).toBe("search://books/items?q=a%20b");
    expect(template.match("search://books/items?q=a%20b")).toEqual({ kind: "books", q: "a b" });
    expect(template.match("search://books/items?limit=3&q=x")).toEqual({ kind: "books", limit: "3", q: "x" });
    expect(template.match("search://books/other")).toBeUndefined();
  });

  it("does not let a simple variable span a path segment", () => {
    const template = new ResourceTemplate("users://{id}/profile");
    expect(template.match("users://42/profile")).toEqual({ id: "42" });
    expect(template.match("users://4/2/profile")).toBeUndefined();
  });

  it("refuses an invalid template", () => {
    expect(() => new ResourceTemplate("users://{id")).toThrow(/Invalid URI template/);
  });
});
