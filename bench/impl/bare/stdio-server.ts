/**
 * The bare baseline on stdio: parse each line, answer it. No validation, no negotiation, only
 * the messages the workloads send, so the figure is the cost of the pipe and of JSON.
 */
import { ASK_TOOL, ECHO_TOOL, ELICIT_MESSAGE, ELICIT_SCHEMA, PROTOCOL_VERSION, SERVER_INFO } from "../shared.js";
import { readLines, writeLine } from "./lines.js";

type Message = Record<string, unknown>;

const waiting = new Map<unknown, (result: Message) => void>();
let asked = 0;

const reply = (id: unknown, result: unknown) => writeLine(process.stdout, { jsonrpc: "2.0", id, result });

function callTool(id: unknown, params: Message): void {
  const args = (params.arguments ?? {}) as Message;
  if (params.name === ECHO_TOOL) {
    reply(id, { content: [{ type: "text", text: args.text }] });
  } else if (params.name === ASK_TOOL) {
    const askId = `s${++asked}`;
    waiting.set(askId, (result) => {
      const content = (result.content ?? {}) as Message;
      reply(id, { content: [{ type: "text", text: String(content.colour) }] });
    });
    const elicit = { mode: "form", message: ELICIT_MESSAGE, requestedSchema: ELICIT_SCHEMA };
    writeLine(process.stdout, { jsonrpc: "2.0", id: askId, method: "elicitation/create", params: elicit });
  } else {
    writeLine(process.stdout, { jsonrpc: "2.0", id, error: { code: -32602, message: "Unknown tool" } });
  }
}

readLines(process.stdin, (message) => {
  const { id, method } = message;
  const params = (message.params ?? {}) as Message;
  if (method === undefined) {
    waiting.get(id)?.((message.result ?? {}) as Message);
    waiting.delete(id);
    return;
  }
  if (id === undefined) return;
  if (method === "initialize") {
    reply(id, { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: SERVER_INFO });
  } else if (method === "tools/list") {
    reply(id, {
      tools: [
        { name: ECHO_TOOL, inputSchema: { type: "object", properties: { text: { type: "string" } } } },
        { name: ASK_TOOL, inputSchema: { type: "object" } },
      ],
    });
  } else if (method === "tools/call") {
    callTool(id, params);
  } else {
    writeLine(process.stdout, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
});
process.stdin.once("end", () => process.exit(0));
