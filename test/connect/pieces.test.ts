/** The connect flow's small parts: sealed cookies, single-use state, purposes, escaping. */
import { describe, expect, it } from "vitest";
import { displayName } from "../../src/connect/login.js";
import { escapeHtml } from "../../src/connect/pages.js";
import { redirectUriFor } from "../../src/connect/provider-flow.js";
import { readPurpose } from "../../src/connect/purpose.js";
import { CookieSealer } from "../../src/connect/sealed-cookie.js";
import { MemoryGrantStateStore } from "../../src/connect/state-store.js";
import { createPageTheme, renderPage } from "../../src/connect/templates/index.js";

const SECRET = "a cookie secret of at least thirty-two bytes";

describe("sealed cookies", () => {
  const sealer = new CookieSealer(SECRET);

  it("open what was sealed for the same purpose before its deadline", () => {
    const sealed = sealer.seal("session", { sub: "alice" }, 1000);
    expect(sealer.open("session", sealed, 999)).toEqual({ sub: "alice" });
    expect(sealed).not.toContain("alice");
  });

  it("refuse another purpose, a passed deadline, a flipped byte, another key", () => {
    const sealed = sealer.seal("login", { state: "s" }, 1000);
    expect(sealer.open("session", sealed, 0)).toBeUndefined();
    expect(sealer.open("login", sealed, 1000)).toBeUndefined();
    const raw = Buffer.from(sealed, "base64url");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(sealer.open("login", raw.toString("base64url"), 0)).toBeUndefined();
    expect(new CookieSealer(`${SECRET}!`).open("login", sealed, 0)).toBeUndefined();
    expect(sealer.open("login", "garbage", 0)).toBeUndefined();
  });

  it("refuse a secret shorter than 32 bytes", () => {
    expect(() => new CookieSealer("short")).toThrow(RangeError);
  });

  it("tags verify only their own text", () => {
    const tag = sealer.tag("sid\nid");
    expect(sealer.verify("sid\nid", tag)).toBe(true);
    expect(sealer.verify("sid\nother", tag)).toBe(false);
    expect(sealer.verify("sid\nid", "short")).toBe(false);
  });
});

describe("grant state", () => {
  const grant = {
    interactionId: "i",
    user: { issuer: "https://as", subject: "alice" },
    provider: "github",
    scopes: ["repo"],
    verifier: "v",
    expiresAt: 100,
  };

  it("is taken once", async () => {
    const store = new MemoryGrantStateStore(() => 0);
    await store.put("s", grant);
    expect(await store.take("s")).toEqual(grant);
    expect(await store.take("s")).toBeUndefined();
  });

  it("lapses with its interaction", async () => {
    let now = 0;
    const store = new MemoryGrantStateStore(() => now);
    await store.put("s", grant);
    now = 100;
    expect(await store.take("s")).toBeUndefined();
  });
});

describe("purposes", () => {
  it("read oauth and secret purposes, nothing else", () => {
    expect(readPurpose({ kind: "oauth", provider: "github", scopes: ["repo", 3] })).toEqual({
      kind: "oauth",
      provider: "github",
      scopes: ["repo"],
    });
    expect(readPurpose({ kind: "secret", provider: "forecast" })).toEqual({
      kind: "secret",
      provider: "forecast",
      label: "secret",
    });
    expect(readPurpose({ kind: "payment", provider: "x" })).toBeUndefined();
    expect(readPurpose({ kind: "oauth" })).toBeUndefined();
    expect(readPurpose(undefined)).toBeUndefined();
  });
});

describe("pages", () => {
  it("escape every dynamic text", async () => {
    expect(escapeHtml(`<script>"'&`)).toBe("&#60;script&#62;&#34;&#39;&#38;");
    const account = { name: "<i>mallory</i>", subject: 'm"', issuer: "https://as" };
    const html = await renderPage({
      kind: "secret",
      theme: createPageTheme(),
      provider: "<b>x</b>",
      label: "key\"'",
      account,
      form: { csrf: "tok" },
      switchAccount: { csrf: "t2" },
    }).text();
    expect(html).not.toContain("<b>x</b>");
    expect(html).not.toContain("<i>");
    expect(html).toContain("&#60;b&#62;x&#60;/b&#62;");
    expect(html).toContain("&#60;i&#62;mallory&#60;/i&#62;");
  });
});

describe("redirect URIs", () => {
  it("are one per provider, under the base URL's path", () => {
    expect(redirectUriFor("https://mcp.example.com", "github")).toBe("https://mcp.example.com/connect/callback/github");
    expect(redirectUriFor("https://mcp.example.com/app/", "git-hub.v2")).toBe(
      "https://mcp.example.com/app/connect/callback/git-hub.v2",
    );
  });

  it("refuse a provider name that is not one path segment", () => {
    for (const name of ["", "..", ".hidden", "a/b", "a?b", "ä", "x".repeat(65)]) {
      expect(() => redirectUriFor("https://mcp.example.com", name), name).toThrow(RangeError);
    }
  });
});

describe("display names", () => {
  it("come from email, then preferred_username, then name, then the subject", () => {
    const all = { email: "alice@example.com", email_verified: true, preferred_username: "alice", name: "Alice A." };
    expect(displayName(all, "sub-1")).toBe("alice@example.com");
    expect(displayName({ ...all, email: undefined }, "sub-1")).toBe("alice");
    expect(displayName({ name: "Alice A.", email: 3 }, "sub-1")).toBe("Alice A.");
    expect(displayName({}, "sub-1")).toBe("sub-1");
  });

  it("show an e-mail address only when the ID token says it is verified, and its domain in ASCII", () => {
    // Mallory signs up with alice's address, unverified, or types it as her user name or full name.
    const mallory = { email: "alice@example.com", preferred_username: "mallory", name: "Mallory M." };
    expect(displayName({ ...mallory, email_verified: false }, "sub-m")).toBe("mallory");
    expect(displayName(mallory, "sub-m")).toBe("mallory");
    expect(displayName({ preferred_username: "alice@example.com", name: "Mallory M." }, "sub-m")).toBe("Mallory M.");
    expect(displayName({ name: "alice\uFF20example.com" }, "sub-m")).toBe("sub-m");
    // A verified address on a look-alike domain (Cyrillic "а") shows the domain as a browser would.
    expect(displayName({ email: "alice@ex\u0430mple.com", email_verified: true }, "s")).toBe(
      "alice@xn--exmple-4nf.com",
    );
    // Positive control: a verified address is shown as it is.
    expect(displayName({ ...mallory, email: "mallory@example.com", email_verified: true }, "s")).toBe(
      "mallory@example.com",
    );
  });

  it("drop control and format characters (bidi overrides), so a name cannot pass for another", () => {
    expect(displayName({ email: "\u202Emoc.elpmaxe@ecila\u202C", email_verified: true }, "s")).toBe(
      "moc.elpmaxe@ecila",
    );
    expect(displayName({ name: "Alice\n A.\u0007" }, "s")).toBe("Alice A.");
    expect(displayName({ email: "\u200B\u2066", email_verified: true }, "s")).toBe("s");
    expect([...displayName({ name: "x".repeat(500) }, "s")]).toHaveLength(128);
  });
});
