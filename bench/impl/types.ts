/** The seam between the workloads and the four implementations they measure. */

export type ImplName = "bare" | "ours" | "sdk-v1" | "sdk-v2";

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

/** A client with its own Streamable HTTP session. */
export interface HttpSession {
  echo(text: string): Promise<string>;
  /** Ends the session on the server (DELETE) and the client. */
  close(): Promise<void>;
}

/** How to run a server entry: a command and its arguments, with the repository root as cwd. */
export interface Command {
  command: string;
  args: string[];
}

export interface Implementation {
  name: ImplName;
  /** For the report, with the version measured. */
  label: string;
  /** The stdio server entry, a path under bench/impl. */
  stdioServer: string;
  /** The Streamable HTTP server entry: listens on 127.0.0.1, prints its port, answers "rss" over IPC. */
  httpServer: string;
  /** Starts `command` as a child process and connects (handshake included). */
  openStdio(command: Command): Promise<StdioSession>;
  /** Opens a new session at `url` (handshake included). */
  openHttp(url: URL): Promise<HttpSession>;
}
