/**
 * HAProxy in front of the fleet, on 127.0.0.1: round robin over the instances with no stickiness,
 * each request balanced on its own; by default one request per connection to a backend
 * (`option http-server-close`), or with `reuseConnections` idle backend connections kept and
 * reused (`option http-keep-alive`, `http-reuse safe`). Long server and tunnel timeouts for SSE
 * streams. Every response names the instance that served it in `X-Served-By`. A request with
 * `X-Fleet-Pin: <name>` goes to that instance while it is up (the tests use it to choose who
 * serves a step). An instance that stops answering is taken out of the rotation by the health
 * check, or at its first refused connection (`observe layer4`); a request sent to it before that
 * is retried on another instance (`retry-on conn-failure empty-response`, `option redispatch 1`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The response header naming the instance that served a request. */
export const SERVED_BY = "x-served-by";
/** The request header that sends a request to the named instance while it is up. */
export const PIN = "x-fleet-pin";

export interface Backend {
  /** The instance's name, e.g. "A": letters and digits. */
  name: string;
  /** Its port on 127.0.0.1. */
  port: number;
}

export interface HaproxyOptions {
  /** The port HAProxy listens on, 127.0.0.1. */
  port: number;
  backends: readonly Backend[];
  /**
   * Keep idle connections to the instances and send later requests over them (`option
   * http-keep-alive`, `http-reuse safe`); every request is still balanced on its own. Default
   * false: one request per backend connection (`option http-server-close`).
   */
  reuseConnections?: boolean;
  /** Where HAProxy's own messages go (one line each); default: dropped. */
  log?: (line: string) => void;
}

export interface Haproxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Stops HAProxy and removes its configuration. */
  stop(): Promise<void>;
}

/** The configuration for `options`. */
export function haproxyConfig(options: HaproxyOptions): string {
  const pins = options.backends.map((b) => `  use-server ${b.name} if { req.hdr(${PIN}) -m str ${b.name} }`);
  const servers = options.backends.map(
    (b) =>
      `  server ${b.name} 127.0.0.1:${b.port} check inter 200ms fall 1 rise 1 observe layer4 error-limit 1 on-error mark-down`,
  );
  return [
    "global",
    "  maxconn 256",
    "defaults",
    "  mode http",
    ...(options.reuseConnections === true
      ? ["  option http-keep-alive", "  http-reuse safe"]
      : ["  option http-server-close"]),
    // A refused connection, or one closed before any answer (an instance killed a moment ago),
    // is retried on another instance at once.
    "  retry-on conn-failure empty-response",
    "  option redispatch 1",
    "  retries 3",
    "  timeout connect 2s",
    "  timeout client 10m",
    "  timeout server 10m",
    "  timeout tunnel 10m",
    "  timeout http-request 10s",
    "frontend fleet",
    `  bind 127.0.0.1:${options.port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    ...pins,
    "  http-response set-header X-Served-By %s",
    ...servers,
    "",
  ].join("\n");
}

/**
 * Writes the configuration to a temporary directory, starts `haproxy -f <cfg> -db` and resolves
 * once its port answers.
 * @throws Error when haproxy is not installed, exits, or does not answer within 10 s.
 */
export async function startHaproxy(options: HaproxyOptions): Promise<Haproxy> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-fleet-haproxy-"));
  const file = join(dir, "haproxy.cfg");
  await writeFile(file, haproxyConfig(options));
  const child = spawn("haproxy", ["-f", file, "-db"], { stdio: ["ignore", "pipe", "pipe"] });
  const log = options.log ?? (() => {});
  let exited: string | undefined;
  child.on("error", (error) => {
    exited = error.message;
  });
  child.on("exit", (code, signal) => {
    exited ??= `haproxy exited (${signal ?? code})`;
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim() !== "") log(line);
    });
  }
  const origin = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await answering(origin, () => exited);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

/** Resolves once `origin` answers HTTP (any status). */
async function answering(origin: string, failed: () => string | undefined): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const reason = failed();
    if (reason !== undefined) throw new Error(`HAProxy did not start: ${reason}`);
    try {
      await (await fetch(`${origin}/`)).body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`HAProxy did not answer at ${origin} within 10 s`);
}

/** SIGTERM, then SIGKILL if the child has not exited after 5 s; resolves once it has. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
