/**
 * Quitting at once (a second Ctrl-C, SIGTERM, SIGHUP) without leaving a server behind: each stdio
 * server the command started, with the processes of its group, is sent SIGTERM, and SIGKILL when it
 * has not exited after `graceMs`.
 */

import type { Transport } from "../jsonrpc/transport.js";
import { StdioClientTransport } from "../transports/stdio/index.js";

/** ms a server gets to exit after SIGTERM before SIGKILL, when the command quits at once. */
export const QUIT_GRACE_MS = 1000;

/** The stdio servers started and not yet closed. */
export class StartedServers {
  private readonly running = new Set<StdioClientTransport>();

  /** For `ConnectOptions.started`: remembers a stdio server until its transport closes. */
  readonly add = (transport: Transport): void => {
    if (!(transport instanceof StdioClientTransport)) return;
    this.running.add(transport);
  };

  /** Stops every server still running; resolves once each has exited or was sent SIGKILL. */
  async stopNow(graceMs = QUIT_GRACE_MS): Promise<void> {
    await Promise.all([...this.running].map((server) => stop(server, graceMs)));
    this.running.clear();
  }
}

async function stop(server: StdioClientTransport, graceMs: number): Promise<void> {
  if (server.exitStatus !== undefined || server.pid === undefined) return;
  const pid = server.pid;
  const closed = server.close();
  signal(pid, "SIGTERM");
  const exited = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
  ]);
  if (!exited || server.exitStatus === undefined) signal(pid, "SIGKILL");
}

/** To the server's process group on POSIX (the transport makes it lead one), else to the server. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, name);
  } catch {
    // ESRCH: it has exited already.
  }
}
