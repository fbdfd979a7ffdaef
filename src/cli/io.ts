/**
 * Everything a command touches outside itself, passed in so that tests can drive commands
 * in-process: output streams, prompts, the browser opener, and how to reach a server.
 */
import type { Writable } from "node:stream";
import type { TokenStore } from "../auth/client/index.js";
import type { Transport } from "../jsonrpc/transport.js";
import type { CliClient, ClientSetup, ConnectOptions } from "./client.js";
import type { Prompter } from "./prompter.js";
import type { Target } from "./target.js";

export interface CliIo {
  /** Results. Nothing else is written here, so it can be piped. */
  stdout: (text: string) => void;
  /** Messages, warnings, the server's questions. */
  stderr: (text: string) => void;
  prompter: Prompter;
  /** Opens a URL in the system browser; rejects when it cannot. */
  open: (url: string) => Promise<void>;
  /** Whether stdin is a terminal, so that the user can be asked. */
  interactive: boolean;
  /** Whether stderr is a terminal, so that the consent screen may set the page's domain in bold. */
  tty?: boolean;
  /**
   * stderr as a stream when it is a terminal: the progress of a call, the server's log messages
   * and the wait for a page are drawn on it. Without it they are plain lines through `stderr`.
   */
  terminal?: Writable;
  /** The width of stderr's terminal in columns, when it is one; the consent screen wraps to it. */
  columns?: () => number | undefined;
  /** Aborted when the user interrupts the command (Ctrl-C outside a prompt). */
  signal?: AbortSignal;
  /** Where `login` keeps tokens and other commands find them; by default the user's token file. */
  tokens?: TokenStore;
  /** Told of each transport `connect` makes, before it starts (see `StartedServers`). */
  started?: (transport: Transport) => void;
  /** Connects to a target; by default an `McpClient` over the target's transport. */
  connect?: (target: Target, setup: ClientSetup, options: ConnectOptions) => Promise<CliClient>;
}
