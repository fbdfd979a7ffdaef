/** The one place the command makes an `McpClient`, and the part of it commands use. */
import { McpClient } from "../client/index.js";
import type { CallOptions, ElicitationHandler } from "../client/types.js";
import { createTransport, type Target } from "./target.js";
import { VERSION } from "./version.js";

export type { CallOptions };

/** What commands call on a connected client. */
export type CliClient = Pick<
  McpClient,
  | "listAllTools"
  | "listAllResources"
  | "listAllResourceTemplates"
  | "listAllPrompts"
  | "callTool"
  | "readResource"
  | "close"
  | "serverInfo"
>;

/** How the client answers the server: elicitations, and completions of URL-mode ones. */
export interface ClientSetup {
  elicitationHandler: ElicitationHandler;
  onElicitationComplete: (elicitationId: string) => void;
}

export interface ConnectOptions {
  /** ms to wait for the `initialize` result. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Starts the transport and runs the handshake, declaring both elicitation modes.
 * @throws SdkError "TRANSPORT_ERROR" when the server cannot be started or reached;
 *   ProtocolError when it refuses `initialize`.
 */
export async function connectClient(target: Target, setup: ClientSetup, options: ConnectOptions): Promise<CliClient> {
  const client = new McpClient({ name: "handoff", version: VERSION });
  client.onElicitationComplete = setup.onElicitationComplete;
  client.setElicitationHandler(setup.elicitationHandler, { modes: ["form", "url"] });
  await client.connect(createTransport(target), {
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return client;
}
