/**
 * Cookie values the browser carries but cannot read or forge: JSON sealed with AES-256-GCM under a
 * key derived (HKDF-SHA-256) from the connect handler's secret, each with its own deadline and
 * purpose, so a login-in-progress value is never accepted as a session.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class CookieSealer {
  readonly #key: Buffer;
  readonly #macKey: Buffer;

  /** @param secret at least 32 bytes (or characters) of secret material. */
  constructor(secret: string | Uint8Array) {
    const material = typeof secret === "string" ? Buffer.from(secret, "utf8") : Buffer.from(secret);
    if (material.length < 32) throw new RangeError("cookieSecret must be at least 32 bytes");
    this.#key = Buffer.from(hkdfSync("sha256", material, Buffer.alloc(0), "mcp-handoff connect cookie", 32));
    this.#macKey = Buffer.from(hkdfSync("sha256", material, Buffer.alloc(0), "mcp-handoff connect csrf", 32));
  }

  /** An HMAC-SHA-256 tag of `text` (base64url), e.g. a CSRF token bound to a session. */
  tag(text: string): string {
    return createHmac("sha256", this.#macKey).update(text, "utf8").digest("base64url");
  }

  /** Whether `tag` is the tag of `text`, compared in constant time. */
  verify(text: string, tag: string): boolean {
    const expected = Buffer.from(this.tag(text));
    const given = Buffer.from(tag);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** @param expiresAt ms since the epoch. */
  seal(purpose: string, value: unknown, expiresAt: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    cipher.setAAD(Buffer.from(purpose, "utf8"));
    const body = Buffer.concat([cipher.update(JSON.stringify({ value, expiresAt }), "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The sealed value, or `undefined` when it was tampered with, sealed for another purpose, or expired. */
  open(purpose: string, sealed: string | undefined, now: number): unknown {
    if (sealed === undefined) return undefined;
    try {
      const raw = Buffer.from(sealed, "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
      const decipher = createDecipheriv("aes-256-gcm", this.#key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(purpose, "utf8"));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      const parsed = JSON.parse(text.toString("utf8")) as { value?: unknown; expiresAt?: unknown };
      return typeof parsed.expiresAt === "number" && now < parsed.expiresAt ? parsed.value : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Reads one cookie from a `Cookie` header. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (header === null) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Where the connect pages' cookies live and what their names start with, from the base URL: at an
 * https origin's root `__Host-` (Secure, `Path=/`, no `Domain`), which no sibling subdomain can set
 * (cookie tossing); under a path `__Secure-` at `<path>/connect`; plain names only on plain-http
 * loopback, for development.
 */
export interface CookieScope {
  prefix: "__Host-" | "__Secure-" | "";
  path: string;
  secure: boolean;
}

/** @throws RangeError when `baseUrl` is plain http on a host other than loopback. */
export function cookieScope(baseUrl: URL, loopback: boolean): CookieScope {
  const connectPath = `${baseUrl.pathname}connect`;
  if (baseUrl.protocol === "https:") {
    return baseUrl.pathname === "/"
      ? { prefix: "__Host-", path: "/", secure: true }
      : { prefix: "__Secure-", path: connectPath, secure: true };
  }
  if (baseUrl.protocol === "http:" && loopback) return { prefix: "", path: connectPath, secure: false };
  throw new RangeError(
    "The connect pages' baseUrl must be https (plain http only on a loopback host, for development)",
  );
}

/**
 * A `Set-Cookie` value: HttpOnly, SameSite=Lax, Secure unless served on loopback, scoped to
 * `options.path` (see `CookieScope`).
 */
export function cookieHeader(
  name: string,
  value: string,
  options: { secure: boolean; maxAgeS: number; path: string },
): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, "HttpOnly", "SameSite=Lax", `Max-Age=${options.maxAgeS}`];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
