/**
 * A Redis server of the test's own, on a free port, that a test may stop and start again on the
 * same port (the shared server is never stopped). It keeps nothing on disk, and asks for
 * `password` when one is given.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

export interface PrivateRedis {
  url(password?: string): string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * A new server, started.
 * @throws when redis-server is missing or does not start (the message says which).
 */
export async function startPrivateRedis(password?: string): Promise<PrivateRedis> {
  execFileSync("redis-server", ["--version"], { stdio: "pipe" });
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  if (password !== undefined) args.push("--requirepass", password);
  let child: ChildProcess | undefined;
  const server: PrivateRedis = {
    port,
    url: (given) => `redis://${given === undefined ? "" : `:${given}@`}127.0.0.1:${port}`,
    async start() {
      const started = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
      child = started;
      let output = "";
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("Ready to accept connections")) {
            started.stdout?.off("data", onData);
            started.stdout?.resume();
            resolve();
          }
        };
        started.stdout?.on("data", onData);
        started.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      });
    },
    async stop() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      running.kill("SIGKILL");
      await once(running, "exit");
    },
    remove: () => server.stop(),
  };
  await server.start();
  return server;
}
