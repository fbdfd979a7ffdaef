/**
 * Shared by the interop tests: where the servers live, and how to start one that serves
 * Streamable HTTP on 127.0.0.1 in a child process and stop it again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, the working directory of every child process. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Our fixture server (run through tsx). */
export const FIXTURE_SERVER = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));

/** Pins the everything server's HTTP listener to 127.0.0.1 and a free port. */
const LOOPBACK_PRELOAD = fileURLToPath(new URL("./fixtures/loopback.ts", import.meta.url));

/** The official everything server's entry (its `mcp-server-everything` bin). */
export const EVERYTHING_ENTRY = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

/** `command` and `args` that run our fixture server on stdio. */
export const FIXTURE_STDIO = { command: process.execPath, args: ["--import", "tsx", FIXTURE_SERVER, "--stdio"] };

/** `command` and `args` that run the everything server on stdio. */
export const EVERYTHING_STDIO = { command: process.execPath, args: [EVERYTHING_ENTRY, "stdio"] };

/** A server process serving Streamable HTTP. */
export interface HttpServerProcess {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp. */
  readonly url: URL;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Ends the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Our fixture server on Streamable HTTP. */
export function startFixtureHttp(): Promise<HttpServerProcess> {
  return startHttpProcess(["--import", "tsx", FIXTURE_SERVER, "--http", "0"]);
}

/** The everything server on Streamable HTTP (its own `streamableHttp` mode). */
export function startEverythingHttp(): Promise<HttpServerProcess> {
  return startHttpProcess(["--import", "tsx", "--import", LOOPBACK_PRELOAD, EVERYTHING_ENTRY, "streamableHttp"]);
}

/** Runs `node <args>` and resolves once it printed its port, a line of digits, on stdout. */
function startHttpProcess(args: string[]): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise<HttpServerProcess>((resolve, reject) => {
    let stdout = "";
    const onData = (chunk: string) => {
      stdout += chunk;
      const port = stdout.split("\n").find((line, index, lines) => index < lines.length - 1 && /^\d+$/.test(line));
      if (port === undefined) return;
      child.stdout?.off("data", onData);
      // Keep draining stdout so that a chatty server never blocks on a full pipe.
      child.stdout?.resume();
      child.off("exit", onEarlyExit);
      resolve({
        url: new URL(`http://127.0.0.1:${port}/mcp`),
        stderr: () => stderr,
        stop: () => stop(child, exited),
      });
    };
    const onEarlyExit = (code: number | null) => {
      reject(new Error(`The server exited (code ${code}) before listening:\n${stderr}`));
    };
    child.stdout?.setEncoding("utf8").on("data", onData);
    child.once("exit", onEarlyExit);
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  await exited;
}

/** A promise with its resolve function, for waiting on a callback. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
