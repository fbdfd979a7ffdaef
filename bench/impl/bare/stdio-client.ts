/** The bare baseline's stdio client: ids mapped to promises over a child's stdin and stdout. */
import { spawn } from "node:child_process";
import { ROOT } from "../process.js";
import { ASK_TOOL, CLIENT_INFO, ECHO_TOOL, ELICIT_ANSWER, firstText, PROTOCOL_VERSION } from "../shared.js";
import type { Command, StdioSession } from "../types.js";
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
