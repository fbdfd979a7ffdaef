/** The seam between the workloads and the four implementations they measure. */

export type ImplName = "bare" | "ours" | "sdk-v1" | "sdk-v2";

/** A column of the report: an implementation, or a split `<client>@<server>`. */
export type ContestantName = ImplName | "ours@bare" | "bare@ours";

/** Who runs a workload: the client of one implementation against the server of another (or its own). */
export interface Contestant {
  name: ContestantName;
  /** The client side: its `openHttp` / `openStateless` / `openStdio`. */
  client: Implementation;
  /** The server side: its server entries. */
  server: Implementation;
}

/** A client connected to a stdio server it started. */
export interface StdioSession {
  /** `tools/call` of `echo`; resolves with the echoed text. */
  echo(text: string): Promise<string>;
  /** `tools/list`; resolves with the number of tools. */
  listTools(): Promise<number>;
  /** `tools/call` of `ask`, which asks this client for a form elicitation; resolves with the answer's text. */
  ask(): Promise<string>;
  /** Ends the connection and the child process. */
  close(): Promise<void>;
}

/** A client of a Streamable HTTP server: its own session (2025-11-25), or stateless requests (2026-07-28). */
export interface HttpSession {
  /** `tools/call` of `echo`; resolves with the echoed text. */
  echo(text: string): Promise<string>;
  /** Ends the session on the server (DELETE) and the client. */
  close(): Promise<void>;
}

/** How to run a server entry: a command and its arguments, with the repository root as cwd. */
export interface Command {
  command: string;
  args: string[];
}

/**
 * How a Streamable HTTP server entry answers a POST that carries a request: `"default"` as the
 * implementation does out of the box (SSE for ours and the SDKs, JSON for bare), or always one
 * JSON body, or always an SSE stream. Passed to the entry as `--answers <form>`.
 */
export type AnswerForm = "default" | "json" | "sse";

export interface Implementation {
  name: ImplName;
  /** For the report, with the version measured. */
  label: string;
  /** The stdio server entry, a path under bench/impl. */
  stdioServer: string;
  /**
   * The stdio server entry whose `echo` tool declares its input as a zod schema, where
   * `stdioServer` declares it otherwise (ours: plain JSON Schema). Undefined: `stdioServer`
   * serves for that row too (SDK v1 already uses zod; bare and SDK v2 load no zod).
   */
  stdioZodServer?: string;
  /**
   * The Streamable HTTP server entry for sessions (2025-11-25): listens on 127.0.0.1, prints its
   * port, answers "rss" over IPC, accepts bodies and messages up to 64 MiB.
   */
  httpServer: string;
  /** The entry serving revision 2026-07-28 (stateless POSTs); undefined without that revision. */
  statelessServer: string | undefined;
  /** Starts `command` as a child process and connects (handshake included). */
  openStdio(command: Command): Promise<StdioSession>;
  /** Opens a new session at `url` (handshake included); the client accepts messages up to 64 MiB. */
  openHttp(url: URL): Promise<HttpSession>;
  /** A 2026-07-28 client of `url`, one stateless POST per call; undefined without that revision. */
  openStateless: ((url: URL) => Promise<HttpSession>) | undefined;
}

/** 64 MiB: the largest message every bench client and server is set to accept (payload rows go to 32 MiB). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
