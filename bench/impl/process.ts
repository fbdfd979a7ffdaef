/**
 * Starting server entries as child processes: the command line for a stdio server, and a
 * Streamable HTTP server process whose resident memory can be read over its IPC channel.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnswerForm, Command } from "./types.js";

/** The nearest folder above `from` holding a package.json. */
function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return `${dir}/`;
}

/**
 * The repository root, whether this file runs from bench/ through tsx or compiled under
 * bench/.build: every child runs there, so `mcp-handoff/*` resolves to the package itself.
 */
export const ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

/** Whether the bench runs as compiled JavaScript (`npm run bench`) rather than through tsx. */
export const COMPILED = extname(fileURLToPath(import.meta.url)) === ".js";

/** The installed version of a package, from its package.json under node_modules. */
export function packageVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(`${ROOT}node_modules/${name}/package.json`, "utf8")) as { version: string };
  return manifest.version;
}

/** The entry's path, from a module URL next to it: `x.ts` names `x.js` when the bench runs compiled. */
export function entry(name: string, base: string): string {
  return fileURLToPath(new URL(COMPILED ? name.replace(/\.ts$/, ".js") : name, base));
}

/**
 * How a server entry starts: compiled JavaScript runs on plain `node`, as users run a published
 * server (ours resolves `mcp-handoff/*` to dist/, the SDKs to their published files); a `.ts`
 * entry runs through `node --import tsx`. Every implementation starts the same way.
 */
export function serverCommand(path: string, nodeFlags: string[] = []): Command {
  const loader = path.endsWith(".ts") ? ["--import", "tsx"] : [];
  return { command: process.execPath, args: [...nodeFlags, ...loader, path] };
}

export interface ResidentMemory {
  rss: number;
  youngGeneration: number;
}

export interface HttpServerProcess {
  /** http://127.0.0.1:<port>/mcp */
  readonly url: URL;
  /** Bytes of resident memory, read by the server after a full GC. */
  /**
   * Bytes resident after a full GC, and of them the bytes of V8's young generation, which is
   * empty then (see http-host.ts).
   */
  memory(): Promise<ResidentMemory>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Runs an HTTP server entry with `--expose-gc` and resolves once it printed its port; `answers`
 * says how it answers a POST (see `AnswerForm`); `extra` goes at the end of its command line.
 */
export function startHttpServer(
  path: string,
  answers: AnswerForm = "default",
  extra: readonly string[] = [],
): Promise<HttpServerProcess> {
  const command = serverCommand(path, ["--expose-gc"]);
  const args = answers === "default" ? command.args : [...command.args, "--answers", answers];
  return spawnHttpServer(path, command.command, [...args, ...extra]);
}

function spawnHttpServer(path: string, command: string, args: string[]): Promise<HttpServerProcess> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise<HttpServerProcess>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => fail(new Error(`${path} did not print its port within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const onEarlyExit = (code: number | null) => fail(new Error(`${path} exited with code ${code} before listening`));
    child.once("exit", onEarlyExit);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const line = out.split("\n").find((l, i, all) => i < all.length - 1 && /^\d+$/.test(l));
      if (line === undefined) return;
      clearTimeout(timer);
      child.off("exit", onEarlyExit);
      child.stdout?.removeAllListeners("data");
      child.stdout?.resume();
      resolve({
        url: new URL(`http://127.0.0.1:${line}/mcp`),
        memory: () => askMemory(child),
        stop: () => stop(child, exited),
      });
    });
  });
}

function askMemory(child: ChildProcess): Promise<ResidentMemory> {
  return new Promise<ResidentMemory>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not report its memory")), 30_000);
    child.once("message", (message: { rss?: unknown; youngGeneration?: unknown }) => {
      clearTimeout(timer);
      const { rss, youngGeneration } = message;
      if (typeof rss === "number" && typeof youngGeneration === "number") resolve({ rss, youngGeneration });
      else reject(new Error("the server sent no rss"));
    });
    child.send("rss");
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
