/**
 * Keeps the credentials a request was handed out of what leaves the server for that request:
 * libraries quote tokens in their error texts, tools echo what they fetched with, and all of it
 * goes to the client and on to the model. Every secret value handed out through
 * `ctx.credentials.require` is replaced with `[redacted]` in the request's result (every string
 * of it, property names included: content text, `structuredContent`, `_meta`, resource contents,
 * prompt messages), its error
 * results and JSON-RPC errors, log and progress notifications, and logger entries; as it is and
 * in the spellings `secretForms` lists (percent-encoded, JSON-escaped, hex, inside base64 or
 * base64url).
 */

import { ProtocolError } from "../jsonrpc/errors.js";
import type { StoredCredential } from "../model/interaction.js";
import type { RequestContext } from "./handler-types.js";
import { InteractionRequired } from "./interactions.js";
import { type SecretForm, secretForms } from "./secret-forms.js";

/** What a secret value becomes. */
export const REDACTED = "[redacted]";
const REDACTED_IN_URL = encodeURIComponent(REDACTED);

/**
 * Values shorter than this (characters) are left alone, in every spelling: a value that short (a
 * PIN, a word) turns up in unrelated text, where replacing it would mangle what the client reads,
 * and it is guessed more easily than hidden. A secret of 8 characters or more has base64 forms of
 * at least 10 characters, which unrelated data does not contain by chance.
 */
export const MIN_REDACTED_LENGTH = 8;

/** The secret values one request has been handed, and the means to take them out of text. */
export class SecretRedactor {
  /** Made on the first credential: most requests are handed none, and then cost nothing here. */
  #secrets: Set<string> | undefined;
  /** The spellings of every remembered value, longest first so that one inside another goes whole. */
  #forms: SecretForm[] = [];

  /** Notes the credential's access token or secret and its refresh token. */
  remember(credential: StoredCredential): void {
    for (const value of [credential.secret, credential.refreshToken]) {
      if (typeof value === "string" && value.length >= MIN_REDACTED_LENGTH && !this.#secrets?.has(value)) {
        this.#secrets ??= new Set();
        this.#secrets.add(value);
        this.#forms = [...this.#forms, ...secretForms(value)].sort((a, b) => b.literal.length - a.literal.length);
      }
    }
  }

  /** Whether no value has been remembered yet. */
  get isEmpty(): boolean {
    return this.#secrets === undefined;
  }

  /** `text` with every spelling of every remembered value replaced by `[redacted]`. */
  text(text: string): string {
    return this.#replace(text, REDACTED);
  }

  /** A URL with every spelling replaced by `%5Bredacted%5D`, so that it stays a valid URL. */
  url(url: string): string {
    return this.#replace(url, REDACTED_IN_URL);
  }

  /**
   * A copy of `value` with each string and property name redacted, as JSON would send it (an
   * object with `toJSON`, such as a URL, or a class instance becomes what JSON makes of it, but
   * only where it spells a secret); the same value when nothing changed. A base64 string under a
   * `data` or `blob` key (image and audio content, blob resource contents) stays valid base64:
   * what spells a secret there becomes `A`s, zero bits.
   */
  value<T>(value: T): T {
    return this.#secrets === undefined ? value : (this.#walk(value, undefined, new Map()) as T);
  }

  #replace(text: string, replacement: string | ((match: string) => string)): string {
    let out = text;
    for (const form of this.#forms) {
      if (!out.includes(form.literal)) continue;
      out =
        form.pattern === undefined
          ? out.replaceAll(form.literal, replacement as string)
          : out.replace(form.pattern, replacement as string);
    }
    return out;
  }

  /**
   * The error with its message (and a ProtocolError's data) redacted, keeping its class where it
   * can be rebuilt; the same error when it quotes no secret.
   */
  error(error: unknown): unknown {
    if (this.#secrets === undefined) return error;
    if (!(error instanceof Error)) return this.value(error);
    if (error instanceof InteractionRequired) return this.handoff(error);
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

  /**
   * A hand-off the handler threw, with its message and URL redacted (both go to the client; the
   * purpose stays on the server); the same one when neither quotes a secret.
   */
  handoff(error: InteractionRequired): InteractionRequired {
    if (this.#secrets === undefined) return error;
    const url = this.url(error.url);
    const message = this.text(error.message);
    if (url === error.url && message === error.message) return error;
    const params = error.purpose === undefined ? { url, message } : { url, message, purpose: error.purpose };
    const copy = new InteractionRequired(params);
    if (error.stack !== undefined) copy.stack = this.text(error.stack);
    return copy;
  }

  /** `done` maps each object met to its copy, so an object the result holds twice is redacted both times. */
  #walk(value: unknown, key: string | undefined, done: Map<object, unknown>): unknown {
    if (typeof value === "string") {
      return (key === "data" || key === "blob") && BASE64_DATA.test(value)
        ? this.#replace(value, zeroBits)
        : this.#replace(value, REDACTED);
    }
    if (typeof value !== "object" || value === null) return value;
    if (done.has(value)) return done.get(value);
    // Until its copy is made, a cycle back to it meets the original (JSON cannot carry a cycle anyway).
    done.set(value, value);
    const copy = this.#copy(value, key, done);
    done.set(value, copy);
    return copy;
  }

  /**
   * What JSON sends of `value`, redacted: the result of its `toJSON` (a URL's href) or its own
   * enumerable properties (a class instance's as a plain object's); `value` itself when nothing
   * in it spells a secret.
   */
  #copy(value: object, key: string | undefined, done: Map<object, unknown>): unknown {
    if (value instanceof Error) return this.error(value);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") {
      const sent: unknown = toJSON.call(value, key ?? "");
      const redacted = this.#walk(sent, key, done);
      return redacted === sent ? value : redacted;
    }
    if (Array.isArray(value)) {
      const items = value.map((item) => this.#walk(item, undefined, done));
      return items.every((item, i) => item === value[i]) ? value : items;
    }
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // A name is sent as much as a value is (a map keyed by token, say).
      const name = this.#uniqueName(this.#replace(key, REDACTED), copy);
      copy[name] = this.#walk(item, key, done);
      if (name !== key || copy[name] !== item) changed = true;
    }
    return changed ? copy : value;
  }

  /** `name`, or `name (2)`, `name (3)`, ... when two names became the same, so no entry is lost. */
  #uniqueName(name: string, taken: Record<string, unknown>): string {
    if (!Object.hasOwn(taken, name)) return name;
    let n = 2;
    while (Object.hasOwn(taken, `${name} (${n})`)) n++;
    return `${name} (${n})`;
  }
}

/** A whole string of base64 or base64url, padded or not. */
const BASE64_DATA = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The match with each data character zeroed and its padding kept, so the string still decodes. */
const zeroBits = (match: string) => match.replace(/[^=]/g, "A");

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
