/**
 * The client end of stdio (spec: basic/transports § stdio): starts the server as a child
 * process and talks to it over the child's stdin and stdout.
 */
import type { ChildProcess } from "node:child_process";
import { PassThrough, type Readable } from "node:stream";
import { SdkError } from "../../jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../jsonrpc/messages.js";
import type { MessageExtra, Transport } from "../../jsonrpc/transport.js";
import { StdioStreamTransport } from "./stream.js";

/** Options of `new StdioClientTransport(options)`. */
export interface StdioClientTransportOptions {
  /** The program to run. No shell is involved: arguments are passed as they are. */
  command: string;
  /** Its arguments, each passed as one argument (no shell splitting or expansion). */
  args?: string[];
  /** Added to {@link defaultEnvironment}; the rest of `process.env` is not passed on. */
  env?: Record<string, string>;
  /** The child's working directory; default this process's. */
  cwd?: string;
  /**
   * The child's stderr: `"inherit"` (default) shares this process's stderr, `"pipe"` exposes
   * it as {@link StdioClientTransport.stderr}, `"ignore"` discards it.
   */
  stderr?: "inherit" | "pipe" | "ignore";
  /**
   * Ms to wait at each step of `close()`: after ending the server's stdin, after SIGTERM and
   * after SIGKILL. Default 2000, so `close()` returns within about three times this. Also how
   * long the pipes may stay open after the server exited by itself before `close()` begins.
   */
  closeGraceMs?: number;
  /** Largest accepted line from the server, in bytes. Default 64 MiB. */
  maxLineBytes?: number;
}

const POSIX_ENV = ["HOME", "LOGNAME", "USER", "PATH", "SHELL", "TERM", "LANG", "LC_ALL", "TMPDIR", "TZ"];
const WINDOWS_ENV = [
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PATHEXT",
  "PROCESSOR_ARCHITECTURE",
  "PROGRAMFILES",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "USERNAME",
  "USERPROFILE",
  "WINDIR",
];

/**
 * The part of `process.env` a server gets without asking: what a program needs to run (path,
 * home, user, locale, temp folder), never tokens or keys the client happens to hold.
 */
export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of process.platform === "win32" ? WINDOWS_ENV : POSIX_ENV) {
    const value = process.env[name];
    // A value starting with "()" is an exported shell function, which a shell would run.
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return env;
}

/** How a child process ended: `code` when it exited, `signal` when a signal ended it. */
export interface ChildExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A {@link Transport} that runs an MCP server as a child process. `start()` spawns it and
 * rejects with `SdkError("TRANSPORT_ERROR")` when it cannot be started (for instance ENOENT).
 * `onclose` fires once, when the child has exited and its output has been read; by then
 * {@link StdioClientTransport.exitStatus} says how it exited.
 *
 * On POSIX the server leads a process group of its own, and the signals of `close()` go to that
 * group: a process the server started that still holds the pipes ends with it, instead of
 * keeping `close()` (and a `connect()` that gave up) waiting until it exits. A process that left
 * the group (`setsid`) is not signalled; once the bound passed, the pipes are let go of.
 */
export class StdioClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage | JsonRpcMessage[], extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  readonly #options: StdioClientTransportOptions;
  readonly #stderr: PassThrough | null;
  #child: ChildProcess | undefined;
  #stream: StdioStreamTransport | undefined;
  /** Settles on the child's `close`: it exited and every pipe to it is closed. */
  #released: Promise<void> | undefined;
  #exitStatus: ChildExitStatus | undefined;
  #closing: Promise<void> | undefined;
  /** Settles once `start()` has spawned and wired up the child, or failed to. */
  #startup: Promise<void> | undefined;
  #closed = false;
  #starting = false;
  #closeFired = false;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
    this.#stderr = options.stderr === "pipe" ? new PassThrough() : null;
  }

  /**
   * The child's stderr with `stderr: "pipe"`, available before `start()`; otherwise `null`.
   * Read it: once its buffer is full, a child that keeps writing to stderr blocks.
   */
  get stderr(): Readable | null {
    return this.#stderr;
  }

  /**
   * How the child exited (its exit code, or the signal that ended it), once it has;
   * `undefined` while it runs or before `start()`.
   */
  get exitStatus(): ChildExitStatus | undefined {
    return this.#exitStatus;
  }

  /** The child's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the child process and resolves once it runs.
   * @throws SdkError "TRANSPORT_ERROR" when it cannot be started (e.g. command not found);
   *   "ALREADY_CONNECTED" on a second call; "CONNECTION_CLOSED" after close, or when `close()`
   *   was called before the child ran (that child is then stopped as `close()` stops one).
   */
  async start(): Promise<void> {
    if (this.#closed || this.#closing !== undefined) {
      throw new SdkError("CONNECTION_CLOSED", "The transport is closed");
    }
    if (this.#child || this.#starting) throw new SdkError("ALREADY_CONNECTED", "The transport was already started");
    this.#starting = true;
    const startup = this.#spawn();
    // A close() meanwhile waits for this, so that it finds the child it has to stop.
    this.#startup = startup.catch(() => {});
    await startup;
    if (this.#closing !== undefined) {
      throw new SdkError("CONNECTION_CLOSED", "The transport was closed while the server was starting");
    }
  }

  async #spawn(): Promise<void> {
    // Loaded here, so that a process that only serves stdio does not load it at start.
    const { spawn } = await import("node:child_process");
    if (this.#closed || this.#closing !== undefined) throw new SdkError("CONNECTION_CLOSED", "The transport is closed");
    const { command, args = [], cwd } = this.#options;
    const child = spawn(command, args, {
      env: { ...defaultEnvironment(), ...this.#options.env },
      cwd,
      stdio: ["pipe", "pipe", this.#stderr ? "pipe" : (this.#options.stderr ?? "inherit")],
      shell: false,
      windowsHide: true,
      // Its own process group (POSIX), so that close() can signal what it started as well.
      detached: GROUP_SIGNALS,
    });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        child.off("error", reject);
        resolve();
      });
      child.once("error", reject);
    }).catch((cause: unknown) => {
      this.#closed = true;
      this.#child = undefined;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new SdkError("TRANSPORT_ERROR", `Could not start the server "${command}": ${reason}`, { cause });
    });

    child.on("error", (error) => this.onerror?.(new SdkError("TRANSPORT_ERROR", error.message, { cause: error })));
    const exited = new Promise<void>((resolve) =>
      child.once("exit", (code, signal) => {
        this.#exitStatus = { code, signal };
        resolve();
      }),
    );
    this.#released = new Promise((resolve) => child.once("close", () => resolve()));
    void this.#released.then(() => this.#finish());
    // A server that exited by itself while something it started still holds the pipes is closed
    // as well, so that its group is signalled and onclose fires within the bound.
    const released = this.#released;
    void exited.then(async () => {
      if (!(await settlesWithin(released, this.#grace))) void this.close();
    });
    if (this.#stderr && child.stderr) child.stderr.pipe(this.#stderr);

    const { stdout, stdin } = child;
    if (!stdout || !stdin) throw new SdkError("TRANSPORT_ERROR", "The child process has no stdio pipes");
    const stream = new StdioStreamTransport(stdout, stdin, {
      answerInvalidFrames: false,
      ...(this.#options.maxLineBytes === undefined ? {} : { maxLineBytes: this.#options.maxLineBytes }),
    });
    stream.onmessage = (message, extra) => this.onmessage?.(message, extra);
    stream.onerror = (error) => this.onerror?.(error);
    // The pipes going away means the server is gone or going; make sure it is.
    stream.onclose = () => void this.close();
    this.#stream = stream;
    await stream.start();
  }

  /**
   * Writes one message to the server's stdin, waiting for `drain` when the pipe is full.
   * Rejects with `SdkError("NOT_CONNECTED")` before `start()` and
   * `SdkError("CONNECTION_CLOSED")` once the server is gone.
   */
  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new SdkError("CONNECTION_CLOSED", "The transport is closed"));
    if (!this.#stream) return Promise.reject(new SdkError("NOT_CONNECTED", "The transport has not been started"));
    return this.#stream.send(message);
  }

  /**
   * Stops the server: ends its stdin, sends SIGTERM if it or a process of its group still holds
   * the pipes after `closeGraceMs`, and SIGKILL after another `closeGraceMs`. Resolves once it
   * has exited and the pipes are closed, or after a third `closeGraceMs`, when the pipes are let
   * go of and `onerror` gets an `SdkError("TRANSPORT_ERROR")` saying so. Called while `start()`
   * runs, it first waits for the child to be spawned, then stops it the same way. Never rejects.
   */
  close(): Promise<void> {
    // Started in a later microtask so that a re-entrant close (the pipes closing) finds it set.
    this.#closing ??= Promise.resolve().then(() => this.#shutDown());
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    await this.#startup;
    const child = this.#child;
    const released = this.#released;
    if (!child || !released) {
      this.#finish();
      return;
    }
    await this.#stream?.close();
    // Nothing more is read, but what is left must be drained for the pipe to report its end.
    child.stdout?.resume();
    const grace = this.#grace;
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (await settlesWithin(released, grace)) return;
      this.#signal(child, signal);
    }
    if (await settlesWithin(released, grace)) return;
    // A process outside the group holds the pipes, or the server does not die even of SIGKILL.
    for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe?.destroy();
    const what = this.#exitStatus ? "a process it started still holds its pipes" : "it has not exited";
    this.onerror?.(
      new SdkError(
        "TRANSPORT_ERROR",
        `The server (pid ${child.pid}) was sent SIGKILL ${grace} ms ago and ${what}; its pipes were closed`,
      ),
    );
    this.#finish();
  }

  get #grace(): number {
    return this.#options.closeGraceMs ?? 2000;
  }

  /** Sends `signal` to the server's process group where there is one, else to the server. */
  #signal(child: ChildProcess, signal: NodeJS.Signals): void {
    if (GROUP_SIGNALS && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: every process of the group has already exited.
      }
      return;
    }
    child.kill(signal);
  }

  #finish(): void {
    this.#closed = true;
    if (this.#closeFired) return;
    this.#closeFired = true;
    void this.#stream?.close();
    this.onclose?.();
  }
}

/** Process groups exist on POSIX only; Windows has no such signals. */
const GROUP_SIGNALS = process.platform !== "win32";

/** True when `promise` settles within `ms`; the timer never keeps the process alive. */
function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
