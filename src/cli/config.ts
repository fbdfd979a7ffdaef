/**
 * Reads a server from the `mcpServers` JSON format many MCP hosts share:
 * `{ "mcpServers": { "<name>": { "command", "args", "env", "cwd" } | { "url", "type": "http", "headers" } } }`.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { UsageError } from "./exit-codes.js";

/** One server entry, checked and normalised. */
export type ServerConfig =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string | undefined }
  | { kind: "http"; url: string; headers: Record<string, string> };

/** The `type` values taken to mean Streamable HTTP; `sse` (the 2024-11-05 transport) is not supported. */
const HTTP_TYPES = new Set(["http", "streamable-http", "streamableHttp"]);

/**
 * Loads `file` and returns the server called `name`; without a name, the only server in the
 * file. A relative `cwd` is taken relative to the file's folder.
 * @throws UsageError when the file cannot be read or is not JSON, has no `mcpServers` object,
 *   has no server of that name (the message lists the names it has), or the entry is malformed.
 */
export async function loadServerConfig(
  file: string,
  name: string | undefined,
  read: (path: string) => Promise<string> = (path) => readFile(path, "utf8"),
): Promise<ServerConfig> {
  let text: string;
  try {
    text = await read(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : String(error);
    throw new UsageError(`Cannot read the config file ${file}: ${reason}`, { cause: error });
  }
  return parseServerConfig(text, file, name);
}

/** The pure half of {@link loadServerConfig}: `text` is the file's content, `file` its path. */
export function parseServerConfig(text: string, file: string, name: string | undefined): ServerConfig {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const servers = isObject(document) ? document.mcpServers : undefined;
  if (!isObject(servers)) throw new UsageError(`${file} has no "mcpServers" object`);
  const names = Object.keys(servers);
  const known = names.length > 0 ? `; it has ${names.map((n) => JSON.stringify(n)).join(", ")}` : "; it has none";
  if (name === undefined) {
    const [only] = names;
    if (names.length !== 1 || only === undefined) throw new UsageError(`Choose a server with --server NAME${known}`);
    name = only;
  }
  if (!Object.hasOwn(servers, name)) throw new UsageError(`${file} has no server "${name}"${known}`);
  return readEntry(servers[name], `${file}: server "${name}"`, dirname(resolve(file)));
}

function readEntry(entry: unknown, where: string, folder: string): ServerConfig {
  if (!isObject(entry)) throw new UsageError(`${where} is not an object`);
  const type = entry.type;
  if (type !== undefined && typeof type !== "string") throw new UsageError(`${where}: "type" must be a string`);
  if (type === "sse") {
    throw new UsageError(`${where}: the "sse" transport is not supported; use a Streamable HTTP endpoint`);
  }
  if (entry.url !== undefined || (type !== undefined && HTTP_TYPES.has(type))) {
    if (typeof entry.url !== "string" || !/^https?:\/\//i.test(entry.url)) {
      throw new UsageError(`${where}: "url" must be an http(s) URL`);
    }
    return { kind: "http", url: entry.url, headers: stringRecord(entry.headers, `${where}: "headers"`) };
  }
  if (type !== undefined && type !== "stdio") throw new UsageError(`${where}: unknown "type" ${JSON.stringify(type)}`);
  if (typeof entry.command !== "string" || entry.command === "") {
    throw new UsageError(`${where} needs "command" (stdio) or "url" (http)`);
  }
  const args = entry.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) {
    throw new UsageError(`${where}: "args" must be an array of strings`);
  }
  if (entry.cwd !== undefined && typeof entry.cwd !== "string")
    throw new UsageError(`${where}: "cwd" must be a string`);
  return {
    kind: "stdio",
    command: entry.command,
    args,
    env: stringRecord(entry.env, `${where}: "env"`),
    cwd: entry.cwd === undefined ? undefined : resolve(folder, entry.cwd),
  };
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value) || !Object.values(value).every((v) => typeof v === "string")) {
    throw new UsageError(`${where} must be an object of strings`);
  }
  return { ...(value as Record<string, string>) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
