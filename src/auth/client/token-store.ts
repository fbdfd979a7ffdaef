/**
 * Where the tokens of `handoff login` are kept: one JSON file under the user's configuration
 * folder, readable by the user only (mode 0600), keyed by authorization server issuer and
 * resource. Writes go to a temporary file that is renamed over the old one, so a crash or a
 * second process never leaves half a file.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** What a login leaves behind for one resource. */
export interface StoredToken {
  /** The authorization server's issuer identifier. */
  issuer: string;
  /** The protected resource (the MCP server's URL) the token was issued for (RFC 8707). */
  resource: string;
  /** The client the token was issued to: refreshing uses it again. */
  clientId: string;
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms after which the access token is no longer used; absent when the server said nothing. */
  expiresAt?: number;
  /** Space-separated scopes granted, when the server said. */
  scope?: string;
}

/** Tokens by issuer and resource. */
export interface TokenStore {
  /** The token for `resource`, from whichever issuer granted it last; `undefined` when none. */
  find(resource: string): Promise<StoredToken | undefined>;
  /** Replaces the token of `token.issuer` + `token.resource`. */
  put(token: StoredToken): Promise<void>;
  /** Forgets the token of `issuer` + `resource`. */
  delete(issuer: string, resource: string): Promise<void>;
}

/**
 * The default file: `$XDG_CONFIG_HOME/mcp-handoff/tokens.json`, else `%APPDATA%` on Windows, else
 * `~/.config/mcp-handoff/tokens.json`.
 */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME || (process.platform === "win32" ? env.APPDATA : undefined) || join(homedir(), ".config");
  return join(base, "mcp-handoff", "tokens.json");
}

interface TokenFile {
  tokens: Record<string, StoredToken>;
}

function keyOf(issuer: string, resource: string): string {
  return `${issuer} ${resource}`;
}

/** A {@link TokenStore} in one JSON file (see {@link defaultTokenFile}). */
export class FileTokenStore implements TokenStore {
  /** Serializes writes of this process, so two updates never race on the temporary file. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string = defaultTokenFile()) {}

  async find(resource: string): Promise<StoredToken | undefined> {
    const tokens = Object.values((await this.#read()).tokens).filter((token) => token.resource === resource);
    return tokens.at(-1);
  }

  put(token: StoredToken): Promise<void> {
    return this.#update((file) => {
      const key = keyOf(token.issuer, token.resource);
      // Deleting first moves the entry to the end, so `find` prefers the latest login.
      delete file.tokens[key];
      file.tokens[key] = token;
    });
  }

  delete(issuer: string, resource: string): Promise<void> {
    return this.#update((file) => {
      delete file.tokens[keyOf(issuer, resource)];
    });
  }

  async #read(): Promise<TokenFile> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { tokens: {} };
      throw error;
    }
    const parsed = JSON.parse(text) as Partial<TokenFile>;
    return { tokens: typeof parsed.tokens === "object" && parsed.tokens !== null ? parsed.tokens : {} };
  }

  #update(change: (file: TokenFile) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const file = await this.#read();
      change(file);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: "wx" });
        // The mode of a new file is masked by the umask; set it explicitly.
        await chmod(temporary, 0o600);
        await rename(temporary, this.path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }
}

/** A {@link TokenStore} that lives as long as the process: nothing is written anywhere. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();

  async find(resource: string): Promise<StoredToken | undefined> {
    return [...this.#tokens.values()].filter((token) => token.resource === resource).at(-1);
  }

  async put(token: StoredToken): Promise<void> {
    const key = keyOf(token.issuer, token.resource);
    this.#tokens.delete(key);
    this.#tokens.set(key, { ...token });
  }

  async delete(issuer: string, resource: string): Promise<void> {
    this.#tokens.delete(keyOf(issuer, resource));
  }
}
