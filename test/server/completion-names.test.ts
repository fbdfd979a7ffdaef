import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { connectClient } from "./support.js";

describe("completion/complete: argument names", () => {
  it("completes nothing for a name that is only an Object.prototype member", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerPrompt("trip", { argsSchema: { city: z.string() }, complete: { city: () => ["Paris"] } }, () => ({
      messages: [],
    }));
    server.registerResource(
      "user",
      new ResourceTemplate("users://{id}", { complete: { id: () => ["1"] } }),
      {},
      () => ({
        contents: [],
      }),
    );
    const { client } = await connectClient(server);
    const refs = [
      { type: "ref/prompt", name: "trip" },
      { type: "ref/resource", uri: "users://{id}" },
    ];
    for (const ref of refs) {
      for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
        await expect(
          client.request("completion/complete", { ref, argument: { name, value: "a" } }),
          `${ref.type} ${name}`,
        ).resolves.toEqual({ completion: { values: [], total: 0, hasMore: false } });
      }
    }
    await expect(
      client.request("completion/complete", { ref: refs[0], argument: { name: "city", value: "P" } }),
    ).resolves.toEqual({ completion: { values: ["Paris"], total: 1, hasMore: false } });
    await server.close();
  });
});
