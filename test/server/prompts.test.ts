import { describe, expect, it } from "vitest";
import * as z from "zod";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer, ResourceTemplate } from "../../src/server/index.js";
import { connectClient, until } from "./support.js";

const LANGUAGES = ["python", "perl", "php", "rust", "ruby"];

function reviewServer() {
  const server = new McpServer({ name: "review", version: "1" });
  server.registerPrompt(
    "code_review",
    {
      title: "Code review",
      description: "Review a snippet",
      argsSchema: {
        code: z.string().describe("The code to review"),
        language: z.string().optional(),
      },
      complete: { language: (value) => LANGUAGES.filter((l) => l.startsWith(value)) },
    },
    ({ code, language }) => ({
      description: "A review request",
      messages: [{ role: "user", content: { type: "text", text: `Review this ${language ?? "code"}:\n${code}` } }],
    }),
  );
  server.registerPrompt("hello", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }] }));
  const repos = new ResourceTemplate("github://repos/{owner}/{repo}", {
    complete: {
      owner: (value) => ["anthropics", "modelcontextprotocol"].filter((o) => o.startsWith(value)),
      repo: (value, context) =>
        context.arguments.owner === "modelcontextprotocol"
          ? ["specification", "typescript-sdk"].filter((r) => r.startsWith(value))
          : [],
    },
  });
  server.registerResource("repo", repos, {}, (uri) => ({ contents: [{ uri, text: "" }] }));
  server.registerResource("static", "docs://static", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
  server.registerResource(
    "numbers",
    new ResourceTemplate("n://{n}", { complete: { n: () => Array.from({ length: 250 }, (_, i) => String(i)) } }),
    {},
    (uri) => ({ contents: [{ uri, text: "" }] }),
  );
  return server;
}

describe("prompts", () => {
  it("lists prompts with arguments derived from the schema", async () => {
    const { client } = await connectClient(reviewServer());
    const { prompts } = await client.request("prompts/list");
    expect(prompts).toEqual([
      {
        name: "code_review",
        title: "Code review",
        description: "Review a snippet",
        arguments: [
          { name: "code", description: "The code to review", required: true },
          { name: "language", required: false },
        ],
      },
      { name: "hello" },
    ]);
  });

  it("gets a prompt with validated arguments", async () => {
    const { client } = await connectClient(reviewServer());
    const result = await client.request("prompts/get", {
      name: "code_review",
      arguments: { code: "x = 1", language: "python" },
    });
    expect(result).toEqual({
      description: "A review request",
      messages: [{ role: "user", content: { type: "text", text: "Review this python:\nx = 1" } }],
    });
  });

  it("answers -32602 for missing required arguments and for an unknown prompt", async () => {
    const { client } = await connectClient(reviewServer());
    const missing = client.request("prompts/get", { name: "code_review", arguments: { language: "rust" } });
    await expect(missing).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(missing).rejects.toThrow(/Invalid arguments for prompt code_review: code/);
    await expect(client.request("prompts/get", { name: "nope" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: "Unknown prompt: nope",
    });
  });

  it("sends prompts/list_changed when a prompt is registered after connect", async () => {
    const server = reviewServer();
    const { notifications } = await connectClient(server);
    server.registerPrompt("later", {}, () => ({ messages: [] }));
    await until(() => notifications("notifications/prompts/list_changed")[0]);
  });
});

describe("completion/complete", () => {
  it("completes a prompt argument", async () => {
    const { client } = await connectClient(reviewServer());
    const result = await client.request("completion/complete", {
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "language", value: "p" },
    });
    expect(result).toEqual({ completion: { values: ["python", "perl", "php"], total: 3, hasMore: false } });
  });

  it("returns no values for an argument without a completer", async () => {
    const { client } = await connectClient(reviewServer());
    const result = await client.request("completion/complete", {
      ref: { type: "ref/prompt", name: "code_review" },
      argument: { name: "code", value: "" },
    });
    expect(result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("completes template variables using context.arguments", async () => {
    const { client } = await connectClient(reviewServer());
    const owner = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "github://repos/{owner}/{repo}" },
      argument: { name: "owner", value: "model" },
    });
    expect(owner.completion).toMatchObject({ values: ["modelcontextprotocol"] });
    const repo = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "github://repos/{owner}/{repo}" },
      argument: { name: "repo", value: "t" },
      context: { arguments: { owner: "modelcontextprotocol" } },
    });
    expect(repo.completion).toMatchObject({ values: ["typescript-sdk"] });
  });

  it("sends at most 100 values and says there are more", async () => {
    const { client } = await connectClient(reviewServer());
    const result = await client.request("completion/complete", {
      ref: { type: "ref/resource", uri: "n://{n}" },
      argument: { name: "n", value: "" },
    });
    const completion = result.completion as { values: string[]; total: number; hasMore: boolean };
    expect(completion.values).toHaveLength(100);
    expect(completion.total).toBe(250);
    expect(completion.hasMore).toBe(true);
  });

  it("answers -32602 for an unknown prompt or template, and nothing for a static resource", async () => {
    const { client } = await connectClient(reviewServer());
    await expect(
      client.request("completion/complete", {
        ref: { type: "ref/prompt", name: "nope" },
        argument: { name: "a", value: "" },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(
      client.request("completion/complete", {
        ref: { type: "ref/resource", uri: "nope://{x}" },
        argument: { name: "x", value: "" },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await expect(
      client.request("completion/complete", {
        ref: { type: "ref/resource", uri: "docs://static" },
        argument: { name: "x", value: "" },
      }),
    ).resolves.toMatchObject({ completion: { values: [] } });
  });
});
