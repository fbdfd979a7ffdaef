/**
 * The bare baseline's clients: ids mapped to promises over a child's stdin and stdout, and
 * `fetch` POSTs with the session id header over HTTP (the same `fetch` the SDK clients use).
 */
import { spawn } from "node:child_process";
import { ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText, PROTOCOL_VERSION } from "../shared.js";
import type { Command, HttpSession, StdioSession } from "../types.js";
import { readLines, writeLine } from "./lines.js";

type Result = Record<string, unknown>;

const INITIALIZE = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: { elicitation: { form: {} } },
  clientInfo: CLIENT_INFO,
};

export async function openBareStdio({ command, args }: Command): Promise<StdioSession> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A server that died mid-write leaves EPIPE on its stdin; the exit below fails what was pending.
  child.stdin.on("error", () => {});
  const pending = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  let next = 0;
  child.once("exit", () => {
    for (const waiter of pending.values()) waiter.reject(new Error("the bare server exited"));
    pending.clear();
  });
  readLines(child.stdout, (message) => {
    if (message.method === "elicitation/create") {
      writeLine(child.stdin, { jsonrpc: "2.0", id: message.id, result: ELICIT_ANSWER });
      return;
    }
    const waiter = pending.get(message.id as number);
    if (waiter === undefined) return;
    pending.delete(message.id as number);
    if (message.error !== undefined) waiter.reject(new Error(JSON.stringify(message.error)));
    else waiter.resolve(message.result as Result);
  });
  const request = (method: string, params: Result) =>
    new Promise<Result>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      writeLine(child.stdin, { jsonrpc: "2.0", id, method, params });
    });
  await request("initialize", INITIALIZE);
  writeLine(child.stdin, { jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    echo: async (text) => firstText(await request("tools/call", { name: ECHO_TOOL, arguments: { text } })),
    listTools: async () => ((await request("tools/list", {})).tools as unknown[]).length,
    ask: async () => firstText(await request("tools/call", { name: ASK_TOOL, arguments: {} })),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

export async function openBareHttp(url: URL): Promise<HttpSession> {
  let sessionId: string | undefined;
  let next = 0;
  const post = async (message: Result): Promise<Response> => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (sessionId !== undefined) {
      headers["mcp-session-id"] = sessionId;
      headers["mcp-protocol-version"] = PROTOCOL_VERSION;
    }
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    if (!response.ok) throw new Error(`POST answered ${response.status}`);
    return response;
  };
  const request = async (method: string, params: Result): Promise<Result> => {
    const response = await post({ jsonrpc: "2.0", id: ++next, method, params });
    sessionId ??= response.headers.get("mcp-session-id") ?? undefined;
    return ((await response.json()) as { result: Result }).result;
  };
  await request("initialize", INITIALIZE);
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).body?.cancel();
  return {
    echo: async (text) => firstText(await request("tools/call", { name: ECHO_TOOL, arguments: { text } })),
    close: async () => {
      const response = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId ?? "" } });
      await response.body?.cancel();
    },
  };
}
