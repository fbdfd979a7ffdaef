import { describe, expect, it } from "vitest";
import { inspectUrl, type UrlWarningCode } from "../../src/interaction/url-safety.js";

const SERVER = "https://mcp.example.com/mcp";
const long = `https://example.com/?q=${"a".repeat(2100)}`;

/** [url, warnings expected when the server is SERVER, registrable domain] */
const accepted: [string, UrlWarningCode[], string][] = [
  ["https://mcp.example.com/connect/7f3a", [], "example.com"],
  ["https://auth.example.com/login?next=%2F", [], "example.com"],
  ["https://EXAMPLE.com./x", [], "example.com"],
  ["https://github.com/login/oauth/authorize?client_id=x", ["other-domain"], "github.com"],
  ["https://alice.github.io/page", ["other-domain"], "alice.github.io"],
  ["https://a.b.example.co.uk/", ["other-domain"], "example.co.uk"],
  ["https://xn--pple-43d.com/", ["punycode", "mixed-script", "other-domain"], "xn--pple-43d.com"],
  ["https://аpple.com/login", ["punycode", "mixed-script", "other-domain"], "xn--pple-43d.com"],
  ["https://раypal.com/", ["punycode", "mixed-script", "other-domain"], "xn--ypal-43d9g.com"],
  ["https://login.αpple.com/", ["punycode", "mixed-script", "other-domain"], "xn--pple-zld.com"],
  ["https://xn--80ak6aa92e.com/", ["punycode", "other-domain"], "xn--80ak6aa92e.com"],
  ["https://münchen.de/", ["punycode", "other-domain"], "xn--mnchen-3ya.de"],
  ["https://例え.jp/", ["punycode", "other-domain"], "xn--r8jz45g.jp"],
  ["https://sonyソニー.jp/", ["punycode", "other-domain"], "xn--sony-jo4c6cxq.jp"],
  ["https://한국abc.kr/", ["punycode", "other-domain"], "xn--abc-lt8lk11n.kr"],
  ["https://ｅｘａｍｐｌｅ.com/", [], "example.com"],
  ["http://example.com/", ["not-https"], "example.com"],
  ["http://localhost:3000/callback", ["other-domain"], "localhost"],
  ["http://app.localhost/", ["other-domain"], "app.localhost"],
  ["http://127.0.0.1:8080/connect", ["ip-address", "other-domain"], "127.0.0.1"],
  ["http://127.9.9.9/", ["ip-address", "other-domain"], "127.9.9.9"],
  ["http://[::1]:8080/", ["ip-address", "other-domain"], "[::1]"],
  ["http://2130706433/", ["ip-address", "other-domain"], "127.0.0.1"],
  ["http://0x7f000001/", ["ip-address", "other-domain"], "127.0.0.1"],
  ["http://0177.0.0.1/", ["ip-address", "other-domain"], "127.0.0.1"],
  ["http://192.168.1.20/admin", ["not-https", "ip-address", "other-domain"], "192.168.1.20"],
  ["https://3232235796/", ["ip-address", "other-domain"], "192.168.1.20"],
  ["http://[2001:db8::1]/", ["not-https", "ip-address", "other-domain"], "[2001:db8::1]"],
  ["https://[::ffff:127.0.0.1]/", ["ip-address", "other-domain"], "[::ffff:7f00:1]"],
  [long, ["long-url"], "example.com"],
  ["http://xn--pple-43d.com/", ["not-https", "punycode", "mixed-script", "other-domain"], "xn--pple-43d.com"],
];

const refused: string[] = [
  "javascript:alert(1)",
  "JavaScript:alert(document.cookie)",
  "  javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "file:///etc/passwd",
  "ftp://example.com/file",
  "mailto:someone@example.com",
  "ws://example.com/socket",
  "blob:https://example.com/uuid",
  "not a url",
  "https://ex ample.com/",
  "/relative/path",
  "https://mcp.example.com@evil.example/",
  "https://github.com@evil.example/login",
  "https://mcp.example.com:pw@evil.example/",
  "https://:pw@mcp.example.com/",
  "https://user@mcp.example.com/",
  "http://user@xn--pple-43d.com/",
  "https://mcp.example.com%40evil.example@evil.example/",
];

describe("inspectUrl", () => {
  it.each(accepted)("%s warns %j", (url, codes, registrableDomain) => {
    const info = inspectUrl(url, { serverUrl: SERVER });
    if (!info.ok) throw new Error(`refused: ${info.reason}`);
    expect(info.warnings.map((w) => w.code)).toEqual(codes);
    expect(info.registrableDomain).toBe(registrableDomain);
  });

  it.each(refused)("refuses %j with a reason", (url) => {
    const info = inspectUrl(url, { serverUrl: SERVER });
    expect(info).toMatchObject({ ok: false, url });
    if (!info.ok) expect(info.reason).not.toBe("");
  });

  it("gives the normalized URL, its origin and host, and the Unicode form of an international host", () => {
    expect(inspectUrl("https://аpple.com:8443/a b")).toEqual({
      ok: true,
      url: "https://xn--pple-43d.com:8443/a%20b",
      origin: "https://xn--pple-43d.com:8443",
      host: "xn--pple-43d.com:8443",
      unicodeHost: "аpple.com",
      registrableDomain: "xn--pple-43d.com",
      warnings: [
        {
          code: "punycode",
          message:
            "The host is an international name: xn--pple-43d.com is shown as аpple.com. Letters from other alphabets can imitate a familiar name.",
        },
        {
          code: "mixed-script",
          message: 'The name "аpple" mixes Cyrillic and Latin letters, a common way to imitate a name.',
        },
      ],
    });
  });

  it("refuses a URL with a user name or password, naming the real site; the same URL without it is offered", () => {
    expect(inspectUrl("https://mcp.example.com@evil.example/connect", { serverUrl: SERVER })).toEqual({
      ok: false,
      url: "https://mcp.example.com@evil.example/connect",
      reason:
        'The URL has a user name or password before "@", which can make it read as another site; the site is evil.example.',
    });
    expect(inspectUrl("https://evil.example/connect", { serverUrl: SERVER })).toMatchObject({
      ok: true,
      url: "https://evil.example/connect",
      host: "evil.example",
    });
    expect(inspectUrl("https://mcp.example.com/connect", { serverUrl: SERVER })).toMatchObject({
      ok: true,
      warnings: [],
    });
  });

  it("names the address behind a decimal IP, and the other domain", () => {
    const messages = (url: string) => {
      const info = inspectUrl(url, { serverUrl: SERVER });
      return info.ok ? info.warnings.map((w) => w.message) : [];
    };
    expect(messages("https://github.com/")).toEqual([
      "The page is on github.com, not on the server's own domain example.com.",
    ]);
    expect(messages("https://3232235796/")[0]).toBe("The host is the IP address 192.168.1.20, not a domain name.");
    expect(messages(long)).toEqual([`The URL is unusually long (${long.length} characters); check all of it.`]);
  });

  it("drops tabs and newlines the way a browser would, so what is shown is what opens", () => {
    const info = inspectUrl("https://exa\tmple.com/\npath");
    expect(info).toMatchObject({ ok: true, url: "https://example.com/path", warnings: [] });
  });

  it("does not compare domains when the server's URL is unknown", () => {
    const info = inspectUrl("https://github.com/login");
    expect(info).toMatchObject({ ok: true, warnings: [] });
  });
});
