/**
 * Turns what the command line names (a URL, a command after `--`, or a config entry) into one
 * server to connect to, and that into a transport.
 */

import type { Transport } from "../jsonrpc/transport.js";
import { StreamableHttpClientTransport } from "../transports/http/index.js";
import { StdioClientTransport } from "../transports/stdio/index.js";
import type { TargetSpec } from "./args.js";
import { loadServerConfig, type ServerConfig } from "./config.js";
import { UsageError } from "./exit-codes.js";

/** A server to connect to. */
export type Target =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string | undefined }
  | { kind: "http"; url: URL; headers: Record<string, string> };

/**
 * Resolves a target. `--header` values are added to (and override) a config entry's headers,
 * `--env` variables its `env`.
 * @throws UsageError for a URL that does not parse, a bad config file or entry, `--header`
 *   with a config entry that runs a command, or `--env` with one that is an http server.
 */
export async function resolveTarget(
  spec: TargetSpec,
  headers: readonly [string, string][],
  loadConfig: (file: string, server: string | undefined) => Promise<ServerConfig> = loadServerConfig,
): Promise<Target> {
  switch (spec.kind) {
    case "url":
      return { kind: "http", url: parseUrl(spec.url, spec.url), headers: headerRecord({}, headers) };
    case "command":
      return { kind: "stdio", command: spec.command, args: spec.args, env: { ...spec.env }, cwd: undefined };
    case "config": {
      const entry = await loadConfig(spec.file, spec.server);
      if (entry.kind === "http") {
        if (spec.env !== undefined)
          throw new UsageError("--env applies to stdio servers; this entry is an http server");
        return { kind: "http", url: parseUrl(entry.url, spec.file), headers: headerRecord(entry.headers, headers) };
      }
      if (headers.length > 0) throw new UsageError("--header applies to http servers; this entry runs a command");
      return {
        kind: "stdio",
        command: entry.command,
        args: entry.args,
        env: { ...entry.env, ...spec.env },
        cwd: entry.cwd,
      };
    }
  }
}

/** A short name for messages: the URL, or the command line. */
export function describeTarget(target: Target): string {
  return target.kind === "http" ? target.url.href : [target.command, ...target.args].join(" ");
}

/**
 * The transport for a target. A stdio server's stderr is shared with ours so its logs stay
 * visible; it gets only the environment a program needs plus the entry's `env` and `--env`.
 */
export function createTransport(target: Target): Transport {
  if (target.kind === "http") return new StreamableHttpClientTransport(target.url, { headers: target.headers });
  return new StdioClientTransport({
    command: target.command,
    args: target.args,
    env: target.env,
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: "inherit",
  });
}

function parseUrl(text: string, where: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
    // Reported below with the same message as a wrong scheme.
  }
  throw new UsageError(`${where}: "${text}" is not a valid http(s) URL`);
}

function headerRecord(base: Record<string, string>, extra: readonly [string, string][]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  // Header names are case-insensitive: a later "authorization" replaces an earlier "Authorization".
  for (const [name, value] of [...Object.entries(base), ...extra]) merged.set(name.toLowerCase(), [name, value]);
  return Object.fromEntries(merged.values());
}
