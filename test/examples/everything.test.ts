import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/messages.js";
import type { Transport } from "../../src/jsonrpc/transport.js";
import { LATEST_STATELESS_VERSION, LATEST_VERSION } from "../../src/revisions/index.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/index.js";
import { StdioClientTransport } from "../../src/transports/stdio/index.js";

const SERVER = ["--import", "tsx", "examples/everything/server.ts"];

/** Starts the server with `--http 0` and reads the endpoint it prints once it listens. */
async function startHttpServer(): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [...SERVER, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
  for await (const line of lines) {
    const match = /everything server: (http:\/\/\S+)/.exec(line);
    if (match?.[1]) return { child, url: new URL(match[1]) };
  }
  throw new Error("The HTTP server exited before listening");
}

const RECONNECTION_TEXT: Record<string, string> = {
  stdio: "Completed; this transport keeps the connection open",
  http: "Reconnection test completed successfully",
};

let httpServer: Promise<{ child: ChildProcess; url: URL }> | undefined;

const transports: Record<string, () => Promise<Transport>> = {
  stdio: async () =>
    new StdioClientTransport({ command: process.execPath, args: [...SERVER, "--stdio"], stderr: "ignore" }),
  // Started on first use, then shared: each connection is its own session on it.
  http: async () => {
    httpServer ??= startHttpServer();
    return new StreamableHttpClientTransport((await httpServer).url);
  },
};

afterAll(async () => {
  const started = await httpServer;
  if (started && started.child.exitCode === null) {
    started.child.kill("SIGTERM");
    await once(started.child, "exit");
  }
});

describe.each(Object.keys(transports))("the everything example over %s", (name) => {
  it("lists its tools, resources and prompts, and runs tools that answer, ask the client's model, or reconnect", async () => {
    // Pinned to the stateful era: the reconnect tool resumes an SSE stream, which only that era has.
    const client = new McpClient({ name: "everything-test", version: "1.0.0" }, { protocolVersion: LATEST_VERSION });
    client.setSamplingHandler((params) => {
      const first = params.messages[0]?.content;
      const prompt = first && !Array.isArray(first) && first.type === "text" ? first.text : "";
      return { role: "assistant", content: { type: "text", text: `echo: ${prompt}` }, model: "test-model" };
    });
    await client.connect(await (transports[name] as () => Promise<Transport>)());
    try {
      const tools = (await client.listAllTools()).map((tool) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(["test_simple_text", "test_sampling", "test_elicitation"]));
      const resources = (await client.listAllResources()).map((resource) => resource.uri);
      expect(resources).toEqual(["test://static-text", "test://static-binary", "test://watched-resource"]);
      const templates = await client.listAllResourceTemplates();
      expect(templates.map((template) => template.uriTemplate)).toEqual(["test://template/{id}/data"]);
      const prompts = (await client.listAllPrompts()).map((prompt) => prompt.name);
      expect(prompts).toContain("test_prompt_with_arguments");

      const simple = await client.callTool({ name: "test_simple_text" });
      expect(simple.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
      const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "Hello" } });
      expect(sampled.content).toEqual([{ type: "text", text: "LLM response: echo: Hello" }]);

      // Over HTTP the tool closes its connection mid-call and the client resumes the stream.
      const reconnected = await client.callTool({ name: "test_reconnection" });
      expect(reconnected.content).toEqual([{ type: "text", text: RECONNECTION_TEXT[name] }]);

      const read = await client.readResource({ uri: "test://template/42/data" });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
        id: "42",
        templateTest: true,
        data: "Data for ID: 42",
      });
    } finally {
      await client.close();
    }
  });
});

/** Every decline or cancel `transport` sends carries `content` anyway, as a careless or hostile client's might. */
function withContentOnRefusals(transport: Transport, content: Record<string, unknown>): Transport {
  const tamper = (answer: unknown) => {
    const action = (answer as { action?: unknown } | null)?.action;
    return action === "decline" || action === "cancel" ? { ...(answer as object), content } : answer;
  };
  const send = (message: JsonRpcMessage, options?: Parameters<Transport["send"]>[1]) => {
    let sent = message;
    // 2025-11-25: the answer to elicitation/create; 2026-07-28: the retry's inputResponses.
    if ("result" in message) sent = { ...message, result: tamper(message.result) as Record<string, unknown> };
    else if ("method" in message && typeof message.params?.inputResponses === "object") {
      const responses = message.params.inputResponses as Record<string, unknown>;
      const inputResponses = Object.fromEntries(Object.entries(responses).map(([key, value]) => [key, tamper(value)]));
      sent = { ...message, params: { ...message.params, inputResponses } };
    }
    return transport.send(sent, options);
  };
  return new Proxy(transport, {
    get(target, property) {
      if (property === "send") return send;
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(Object.keys(transports))("the everything example over %s, with a declined form", (name) => {
  it.each([LATEST_VERSION, LATEST_STATELESS_VERSION])(
    "greets a stranger on %s, never the name the client sent beside its decline",
    async (protocolVersion) => {
      const client = new McpClient({ name: "everything-test", version: "1.0.0" }, { protocolVersion });
      client.setElicitationHandler(() => ({ action: "decline" }));
      const transport = await (transports[name] as () => Promise<Transport>)();
      await client.connect(withContentOnRefusals(transport, { name: "Mallory" }));
      try {
        const greeted = await client.callTool({ name: "test_input_required_result_elicitation" });
        expect(greeted.content).toEqual([{ type: "text", text: "Hello, stranger!" }]);
        const reported = await client.callTool({ name: "test_elicitation", arguments: { message: "Who?" } });
        expect(reported.content).toEqual([{ type: "text", text: "User response: action=decline, content={}" }]);
      } finally {
        await client.close();
      }
    },
  );
});
