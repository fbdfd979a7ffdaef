/**
 * The command line of `handoff`, parsed with node's `util.parseArgs`. A stdio server is given
 * after `--`, which takes the rest of the line, so command arguments come before it:
 * `handoff call echo '{"text":"hi"}' -- node server.js`.
 */
import { parseArgs } from "node:util";
import { UsageError } from "./exit-codes.js";

export const COMMANDS = ["tools", "resources", "prompts", "call", "read", "login"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Where the server is, as written on the command line (see `resolveTarget` for the result). */
export type TargetSpec =
  | { kind: "url"; url: string }
  | { kind: "command"; command: string; args: string[] }
  | { kind: "config"; file: string; server: string | undefined };

export interface CommonOptions {
  /** Print the raw result objects as JSON instead of text. */
  json: boolean;
  /** Never open a browser; print URLs instead. */
  noBrowser: boolean;
  /** `--header "Name: value"`, in order; http targets only. */
  headers: [name: string, value: string][];
  /** ms per request (for `login`: to wait for the browser); `undefined` when not given. */
  timeoutMs: number | undefined;
  /** `--client-id`: the client registered at the authorization server, for `login`. */
  clientId: string | undefined;
}

export type ParsedCommandLine =
  | { kind: "help" }
  | { kind: "version" }
  | {
      kind: "command";
      command: CommandName;
      target: TargetSpec;
      /** The command's own positionals (tool name, JSON arguments, URI). */
      operands: string[];
      options: CommonOptions;
    };

const OPTIONS = {
  json: { type: "boolean" },
  "no-browser": { type: "boolean" },
  header: { type: "string", multiple: true },
  timeout: { type: "string" },
  "client-id": { type: "string" },
  config: { type: "string" },
  server: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

/** The positionals each command takes after the target, as [required, optional] names. */
const OPERANDS: Record<CommandName, [required: string[], optional: string[]]> = {
  tools: [[], []],
  resources: [[], []],
  prompts: [[], []],
  call: [["tool"], ["json-arguments"]],
  read: [["uri"], []],
  login: [[], []],
};

/**
 * Parses `argv` (without the node and script paths).
 * @throws UsageError for an unknown command or option, a missing or extra argument, two targets
 *   or none, `--header` with a non-http target, or a `--timeout` that is not a positive integer.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const split = argv.indexOf("--");
  const before = split === -1 ? [...argv] : argv.slice(0, split);
  const serverCommand = split === -1 ? undefined : argv.slice(split + 1);

  const { values, positionals } = parseOptions(before);
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };

  const [name, ...rest] = positionals;
  if (name === undefined) throw new UsageError(`Missing command: one of ${COMMANDS.join(", ")}`);
  if (name === "help") return { kind: "help" };
  if (!isCommand(name)) throw new UsageError(`Unknown command "${name}": use one of ${COMMANDS.join(", ")}`);

  const { target, operands } = readTarget(rest, serverCommand, values.config, values.server);
  checkOperands(name, operands);
  const headers = (values.header ?? []).map(parseHeader);
  if (headers.length > 0 && target.kind === "command") {
    throw new UsageError("--header applies to http targets only; pass environment variables to a stdio server");
  }
  if (name === "login" && target.kind === "command") {
    throw new UsageError("login applies to http servers; a stdio server takes its credentials from its environment");
  }
  if (values["client-id"] !== undefined && name !== "login") throw new UsageError("--client-id applies to login only");
  return {
    kind: "command",
    command: name,
    target,
    operands,
    options: {
      json: values.json ?? false,
      noBrowser: values["no-browser"] ?? false,
      headers,
      timeoutMs: values.timeout === undefined ? undefined : parseTimeout(values.timeout),
      clientId: values["client-id"],
    },
  };
}

function parseOptions(args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // node suggests `--` for a value that starts with a dash; here `--` starts the server command.
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    throw new UsageError(unknown === undefined ? message : `Unknown option ${unknown}`, { cause: error });
  }
}

function isCommand(name: string): name is CommandName {
  return (COMMANDS as readonly string[]).includes(name);
}

function readTarget(
  positionals: string[],
  serverCommand: string[] | undefined,
  config: string | undefined,
  server: string | undefined,
): { target: TargetSpec; operands: string[] } {
  if (server !== undefined && config === undefined) throw new UsageError("--server needs --config FILE");
  if (serverCommand !== undefined) {
    if (config !== undefined) throw new UsageError("Give either --config or `-- <command>`, not both");
    const [command, ...args] = serverCommand;
    if (command === undefined || command === "") throw new UsageError("Missing the server command after --");
    return { target: { kind: "command", command, args }, operands: positionals };
  }
  if (config !== undefined) return { target: { kind: "config", file: config, server }, operands: positionals };
  const [url, ...operands] = positionals;
  if (url === undefined) {
    throw new UsageError("Missing target: an http(s) URL, `-- <command> [args...]`, or --config FILE --server NAME");
  }
  if (!/^https?:\/\//i.test(url)) {
    throw new UsageError(
      `"${url}" is not an http(s) URL; to run a stdio server put it last, after --: handoff tools -- ${url}`,
    );
  }
  return { target: { kind: "url", url }, operands };
}

function checkOperands(command: CommandName, operands: string[]): void {
  const [required, optional] = OPERANDS[command];
  const missing = required[operands.length];
  if (missing !== undefined) throw new UsageError(`${command}: missing <${missing}>`);
  if (operands.length > required.length + optional.length) {
    const extra = operands.slice(required.length + optional.length);
    throw new UsageError(`${command}: unexpected argument${extra.length > 1 ? "s" : ""} ${extra.join(" ")}`);
  }
}

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon === -1 ? "" : text.slice(0, colon).trim();
  // An HTTP token (RFC 9110 § 5.6.2); anything else would be rejected by fetch later, less clearly.
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new UsageError(`--header "${text}": expected "Name: value"`);
  }
  return [name, text.slice(colon + 1).trim()];
}

function parseTimeout(text: string): number {
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new UsageError(`--timeout "${text}": expected a positive number of milliseconds`);
  }
  return ms;
}
