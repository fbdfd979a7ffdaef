/**
 * Keeps the credentials a request was handed out of what leaves the server for that request:
 * libraries quote tokens in their error texts, and a tool's error text goes to the client and
 * on to the model. Every secret value handed out through `ctx.credentials.require` is replaced
 * with `[redacted]` in the request's error results, JSON-RPC errors, log notifications and
 * logger entries.
 */
import type { StoredCredential } from "../interaction/model.js";
import { ProtocolError } from "../jsonrpc/errors.js";
import type { RequestContext } from "./context.js";

/** What a secret value becomes. */
export const REDACTED = "[redacted]";

/** Values shorter than this (characters) are left alone: replacing them would mangle ordinary words. */
export const MIN_REDACTED_LENGTH = 8;

/** The secret values one request has been handed, and the means to take them out of text. */
export class SecretRedactor {
  /** Made on the first credential: most requests are handed none, and then cost nothing here. */
  #secrets: Set<string> | undefined;

  /** Notes the credential's access token or secret and its refresh token. */
  remember(credential: StoredCredential): void {
    for (const value of [credential.secret, credential.refreshToken]) {
      if (typeof value === "string" && value.length >= MIN_REDACTED_LENGTH) {
        this.#secrets ??= new Set();
        this.#secrets.add(value);
      }
    }
  }

  /** Whether no value has been remembered yet. */
  get isEmpty(): boolean {
    return this.#secrets === undefined;
  }

  /** `text` with every remembered value replaced, longest first so that one inside another goes whole. */
  text(text: string): string {
    if (this.#secrets === undefined) return text;
    let out = text;
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  /** A copy of plain data (strings, arrays, objects) with each string redacted; the same value when nothing changed. */
  value<T>(value: T): T {
    return this.#secrets === undefined ? value : (this.#walk(value, new Set()) as T);
  }

  /**
   * The error with its message (and a ProtocolError's data) redacted, keeping its class where it
   * can be rebuilt; the same error when it quotes no secret.
   */
  error(error: unknown): unknown {
    if (this.#secrets === undefined) return error;
    if (!(error instanceof Error)) return this.value(error);
    const message = this.text(error.message);
    const stack = error.stack === undefined ? undefined : this.text(error.stack);
    if (error instanceof ProtocolError) {
      const data = this.value(error.data);
      if (message === error.message && data === error.data && stack === error.stack) return error;
      const copy = new ProtocolError(error.code, message, data);
      copy.stack = stack;
      return copy;
    }
    if (message === error.message && stack === error.stack) return error;
    // The same prototype keeps `instanceof TypeError` and the like true for the logger's reader.
    const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
    Object.defineProperties(copy, {
      name: { value: error.name, writable: true, configurable: true },
      message: { value: message, writable: true, configurable: true },
      stack: { value: stack, writable: true, configurable: true },
    });
    return copy;
  }

  #walk(value: unknown, seen: Set<object>): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value !== "object" || value === null || seen.has(value)) return value;
    seen.add(value);
    if (value instanceof Error) return this.error(value);
    if (Array.isArray(value)) {
      const items = value.map((item) => this.#walk(item, seen));
      return items.every((item, i) => item === value[i]) ? value : items;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = this.#walk(item, seen);
      if (copy[key] !== item) changed = true;
    }
    return changed ? copy : value;
  }
}

const redactors = new WeakMap<RequestContext, SecretRedactor>();

/** Ties a request's redactor to its context, for the code that turns its outcome into messages. */
export function attachRedactor(ctx: RequestContext, redactor: SecretRedactor): void {
  redactors.set(ctx, redactor);
}

/** The redactor of the request `ctx` belongs to; an empty one for a context made elsewhere. */
export function redactorOf(ctx: RequestContext): SecretRedactor {
  return redactors.get(ctx) ?? EMPTY;
}

const EMPTY = new SecretRedactor();
