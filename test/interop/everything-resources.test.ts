/**
 * Our McpClient reading the official everything server's resources, resource templates and
 * prompts, with argument completion, over stdio and Streamable HTTP; and closing the stdio
 * server process.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProtocolError } from "../../src/client/index.js";
import { connectEverything, type EverythingPeer, startEverything, type TransportKind } from "./everything.js";
import type { HttpServerProcess } from "./support.js";

const DOCUMENTS = [
  "architecture.md",
  "extension.md",
  "features.md",
  "how-it-works.md",
  "instructions.md",
  "startup.md",
  "structure.md",
];

describe.each<TransportKind>(["stdio", "http"])(
  "our client -> everything server over %s: resources, prompts",
  (kind) => {
    let http: HttpServerProcess | undefined;
    let peer: EverythingPeer | undefined;

    beforeAll(async () => {
      http = await startEverything(kind);
      return async () => {
        await http?.stop();
      };
    });

    afterEach(async () => {
      await peer?.close();
      peer = undefined;
    });

    async function connect(): Promise<EverythingPeer> {
      peer = await connectEverything(kind, http);
      return peer;
    }

    it("lists the static documents and reads each one as markdown", async () => {
      const { client } = await connect();
      const resources = await client.listAllResources();
      const documents = resources.filter((resource) => resource.uri.startsWith("demo://resource/static/document/"));
      expect(documents.map((resource) => resource.name).sort()).toEqual(DOCUMENTS);
      for (const document of documents) {
        expect(document.mimeType).toBe("text/markdown");
        const { contents } = await client.readResource({ uri: document.uri });
        expect(contents).toEqual([{ uri: document.uri, mimeType: "text/markdown", text: expect.stringMatching(/\S/) }]);
      }
    });

    it("lists the two resource templates and reads text and blob resources through them", async () => {
      const { client } = await connect();
      const templates = await client.listAllResourceTemplates();
      expect(templates.map((template) => template.uriTemplate).sort()).toEqual([
        "demo://resource/dynamic/blob/{resourceId}",
        "demo://resource/dynamic/text/{resourceId}",
      ]);
      const text = await client.readResource({ uri: "demo://resource/dynamic/text/3" });
      expect(text.contents).toEqual([
        {
          uri: "demo://resource/dynamic/text/3",
          mimeType: "text/plain",
          text: expect.stringMatching(/^Resource 3: This is a plaintext resource created at /),
        },
      ]);
      const blob = await client.readResource({ uri: "demo://resource/dynamic/blob/4" });
      const [contents] = blob.contents;
      expect(contents).toMatchObject({ uri: "demo://resource/dynamic/blob/4", mimeType: "text/plain" });
      const data = contents && "blob" in contents ? contents.blob : "";
      expect(Buffer.from(data, "base64").toString()).toMatch(/^Resource 4: This is a base64 blob created at /);
    });

    it("gets a protocol error when reading a resource that does not exist", async () => {
      const { client } = await connect();
      await expect(client.readResource({ uri: "demo://resource/nowhere" })).rejects.toBeInstanceOf(ProtocolError);
      await expect(client.readResource({ uri: "demo://resource/dynamic/text/0" })).rejects.toBeInstanceOf(
        ProtocolError,
      );
    });

    it("completes a resource template variable", async () => {
      const { client } = await connect();
      const { completion } = await client.complete({
        ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
        argument: { name: "resourceId", value: "12" },
      });
      expect(completion.values).toEqual(["12"]);
    });

    it("lists the four prompts with their arguments", async () => {
      const { client } = await connect();
      const prompts = await client.listAllPrompts();
      expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
        "args-prompt",
        "completable-prompt",
        "resource-prompt",
        "simple-prompt",
      ]);
      expect(prompts.find((prompt) => prompt.name === "args-prompt")?.arguments).toEqual([
        expect.objectContaining({ name: "city", required: true }),
        expect.objectContaining({ name: "state", required: false }),
      ]);
    });

    it("gets each prompt's messages", async () => {
      const { client } = await connect();
      expect((await client.getPrompt({ name: "simple-prompt" })).messages).toEqual([
        { role: "user", content: { type: "text", text: "This is a simple prompt without arguments." } },
      ]);
      const weather = await client.getPrompt({ name: "args-prompt", arguments: { city: "Boston", state: "MA" } });
      expect(weather.messages).toEqual([
        { role: "user", content: { type: "text", text: "What's weather in Boston, MA?" } },
      ]);
      const team = await client.getPrompt({
        name: "completable-prompt",
        arguments: { department: "Sales", name: "Eve" },
      });
      expect(team.messages).toEqual([
        { role: "user", content: { type: "text", text: "Please promote Eve to the head of the Sales team." } },
      ]);
      const embedded = await client.getPrompt({
        name: "resource-prompt",
        arguments: { resourceType: "Text", resourceId: "2" },
      });
      expect(embedded.messages).toEqual([
        expect.objectContaining({ role: "user", content: expect.objectContaining({ type: "text" }) }),
        {
          role: "user",
          content: {
            type: "resource",
            resource: expect.objectContaining({ uri: "demo://resource/dynamic/text/2", mimeType: "text/plain" }),
          },
        },
      ]);
    });

    it("gets a protocol error for a prompt without its required argument", async () => {
      const { client } = await connect();
      await expect(client.getPrompt({ name: "args-prompt", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it("completes prompt arguments, using the arguments already chosen as context", async () => {
      const { client } = await connect();
      const ref = { type: "ref/prompt" as const, name: "completable-prompt" };
      const departments = await client.complete({ ref, argument: { name: "department", value: "S" } });
      expect(departments.completion.values).toEqual(["Sales", "Support"]);
      const names = await client.complete({
        ref,
        argument: { name: "name", value: "" },
        context: { arguments: { department: "Engineering" } },
      });
      expect(names.completion.values).toEqual(["Alice", "Bob", "Charlie"]);
    });

    if (kind === "stdio") {
      it("ends the server process when it closes", async () => {
        const connected = await connect();
        const pid = connected.pid;
        expect(pid).toBeTypeOf("number");
        await connected.close();
        peer = undefined;
        expect(() => process.kill(pid ?? 0, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
      });
    }
  },
);
