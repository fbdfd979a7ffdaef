/**
 * The command line of `handoff`, parsed with node's `util.parseArgs`. A URL target may stand
 * anywhere among the arguments (the first http(s) URL is the target). A stdio server is given
 * after `--`, which takes the rest of the line, so command arguments come before it:
 * `handoff call echo '{"text":"hi"}' -- node server.js`.
 */
import { parseArgs } from "node:util";
import { UsageError } from "./exit-codes.js";
import { printableLine } from "./text.js";

export const COMMANDS = ["tools", "resources", "prompts", "call", "read", "login"] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Where the server is, as written on the command line (see `resolveTarget` for the result). */
export type TargetSpec =
  | { kind: "url"; url: string }
  | {
      kind: "command";
      command: string;
      args: string[];
      /** `--env` variables for the server, added to the environment it always gets. */
      env?: Record<string, string>;
    }
  | {
      kind: "config";
      file: string;
      server: string | undefined;
      /** `--env` variables, added to (and overriding) the entry's `env`; stdio entries only. */
      env?: Record<string, string>;
    };

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
  env: { type: "string", multiple: true },
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
 *   or none, `--header` with a non-http target, `--env` with an http target or not `NAME=VALUE` /
 *   the `NAME` of a variable set in `environment`, or a `--timeout` that is not a positive integer.
 *   A message never shows an `--env` value.
 */
export function parseCommandLine(
  argv: readonly string[],
  /** Where `--env NAME` takes its value from. */
  environment: NodeJS.ProcessEnv = process.env,
): ParsedCommandLine {
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

  const { target, operands } = readTarget(name, rest, serverCommand, values.config, values.server);
  checkOperands(name, operands);
  const headers = (values.header ?? []).map(parseHeader);
  if (headers.length > 0 && target.kind === "command") {
    throw new UsageError("--header applies to http targets only; give a stdio server --env NAME=VALUE instead");
  }
  if (values.env !== undefined) {
    if (target.kind === "url") throw new UsageError("--env applies to stdio servers only; use --header for http");
    target.env = parseEnv(values.env, environment);
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
  command: CommandName,
  positionals: string[],
  serverCommand: string[] | undefined,
  config: string | undefined,
  server: string | undefined,
): { target: TargetSpec; operands: string[] } {
  if (server !== undefined && config === undefined) throw new UsageError("--server needs --config FILE");
  if (serverCommand !== undefined) {
    if (config !== undefined) throw new UsageError("Give either --config or `-- <command>`, not both");
    const [program, ...args] = serverCommand;
    if (program === undefined || program === "") throw new UsageError("Missing the server command after --");
    checkSecondTarget(command, positionals, `-- ${program}`);
    if (positionals.length < requiredOperands(command).length)
      throw misplacedOperands(command, positionals, serverCommand);
    return { target: { kind: "command", command: program, args }, operands: positionals };
  }
  if (config !== undefined) {
    checkSecondTarget(command, positionals, `--config ${config}`);
    return { target: { kind: "config", file: config, server }, operands: positionals };
  }
  // The target may come anywhere among the positionals: the first http(s) URL is taken.
  const at = positionals.findIndex(isHttpUrl);
  if (at === -1) throw missingTarget(command, positionals);
  const operands = positionals.filter((_, index) => index !== at);
  return { target: { kind: "url", url: positionals[at] as string }, operands };
}

function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

function requiredOperands(command: CommandName): string[] {
  return OPERANDS[command][0];
}

/** A URL among the operands of a command that already has a target (only `read` takes a URL operand). */
function checkSecondTarget(command: CommandName, positionals: string[], other: string): void {
  const url = command === "read" ? undefined : positionals.find(isHttpUrl);
  if (url !== undefined) throw new UsageError(`Two targets, ${url} and ${other}: give one`);
}

/**
 * `handoff call -- node server.js echo '{}'`: the operands went after `--`, into the server's
 * command line. Where that line ends cannot be told, so the advice shows the order, with the
 * operands filled in when the last arguments look like them (a JSON object, a URI).
 */
function misplacedOperands(command: CommandName, positionals: string[], serverCommand: string[]): UsageError {
  const missing = requiredOperands(command)[positionals.length];
  const [required, optional] = OPERANDS[command];
  const guess = guessOperands(command, serverCommand);
  const example =
    guess === undefined
      ? `handoff ${command} ${[...required.map((o) => `<${o}>`), ...optional.map((o) => `[${o}]`)].join(" ")} -- <command> [args...]`
      : `handoff ${command} ${shellLine(guess.operands)} -- ${shellLine(guess.server)}`;
  return new UsageError(
    `${command}: missing <${missing}>. Everything after -- is the server's command line (${shellLine(serverCommand)}), ` +
      `so the ${command === "call" ? "tool and its arguments" : `<${missing}>`} must come before --: ${example}`,
  );
}

function guessOperands(command: CommandName, line: string[]): { operands: string[]; server: string[] } | undefined {
  const last = line.at(-1) ?? "";
  const take =
    command === "call" && isJsonObject(last) ? 2 : command === "read" && /^[a-z][a-z0-9+.-]*:/i.test(last) ? 1 : 0;
  if (take === 0 || line.length <= take) return undefined;
  return { operands: line.slice(-take), server: line.slice(0, -take) };
}

/** No target at all: the positionals that are not the command's operands are taken for a server command. */
function missingTarget(command: CommandName, positionals: string[]): UsageError {
  const [required, optional] = OPERANDS[command];
  let count = required.length;
  if (command === "call" && isJsonObject(positionals[1] ?? "")) count += optional.length;
  const operands = positionals.slice(0, count);
  const rest = positionals.slice(count);
  const head = ["handoff", command, ...operands];
  if (rest.length === 0) {
    const example = shellLine([...head, "--", "node", "server.js"]);
    return new UsageError(
      `Missing target: an http(s) URL, \`-- <command> [args...]\` last, or --config FILE --server NAME; e.g. ${example}`,
    );
  }
  return new UsageError(
    `"${rest[0]}" is not an http(s) URL; to run a stdio server put its command last, after --: ${shellLine([...head, "--", ...rest])}`,
  );
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Arguments as they would be typed at a POSIX shell: quoted where needed. */
function shellLine(args: readonly string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(" ");
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

/** `--env NAME=VALUE` or `--env NAME` (passed through from `environment`), later ones winning. */
function parseEnv(items: readonly string[], environment: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const item of items) {
    const equals = item.indexOf("=");
    const name = equals === -1 ? item : item.slice(0, equals);
    // Only the name is ever quoted back: the value may be a secret.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UsageError(`--env "${printableLine(name)}${equals === -1 ? "" : "=…"}": expected NAME=VALUE or NAME`);
    }
    const value = equals === -1 ? environment[name] : item.slice(equals + 1);
    if (value === undefined) throw new UsageError(`--env ${name}: ${name} is not set here; give --env ${name}=VALUE`);
    env[name] = value;
  }
  return env;
}

function parseTimeout(text: string): number {
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new UsageError(`--timeout "${text}": expected a positive number of milliseconds`);
  }
  return ms;
}
