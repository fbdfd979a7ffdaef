/**
 * The page templates: what a hostile server, client or account name can do to a page (nothing:
 * every text is escaped), the CSP's style hash matching the one inline stylesheet, images only
 * as data: URIs, and the operator's branding checked when the theme is made.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPageTheme, renderPage } from "../../src/connect/index.js";
import { contrastWithWhite, NOTICES, type NoticeKind } from "../../src/connect/templates/index.js";
import { pageStates, SAMPLE_LOGO, sampleTheme } from "./page-states.js";

const HOSTILE = `<img src=x onerror=alert(1)><script>alert(2)</script>"'&`;
const ESCAPED = "&#60;img src=x onerror=alert(1)&#62;&#60;script&#62;alert(2)&#60;/script&#62;&#34;&#39;&#38;";

/** Every tag of the page, by name: what the markup is, whatever the texts were. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) => match[1] ?? "");
}

describe("pages: hostile texts", () => {
  const hostileTheme = createPageTheme({ server: { name: HOSTILE, title: HOSTILE }, branding: { name: HOSTILE } });
  const hostileFrame = {
    theme: hostileTheme,
    message: HOSTILE,
    client: HOSTILE,
    account: { name: HOSTILE, subject: HOSTILE, issuer: HOSTILE },
  };

  it("a server name, message, client name and account name cannot add markup to any page", async () => {
    const benign = {
      theme: createPageTheme({ server: { name: "forecast" } }),
      message: "m",
      client: "c",
      account: { name: "a", subject: "s", issuer: "i" },
    };
    const kinds: NoticeKind[] = Object.keys(NOTICES) as NoticeKind[];
    for (const kind of kinds) {
      const html = await renderPage({ kind, ...hostileFrame }).text();
      // The same markup as with harmless texts: only the texts differ.
      expect(tags(html), kind).toEqual(tags(await renderPage({ kind, ...benign }).text()));
      expect(html, kind).not.toContain("<script");
      expect(html, kind).not.toContain("<img src=x");
    }
    const secret = await renderPage({
      kind: "secret",
      ...hostileFrame,
      provider: HOSTILE,
      label: HOSTILE,
      form: { csrf: `"><script>` },
      decline: { csrf: "d" },
    }).text();
    expect(secret).not.toContain("<script");
    expect(secret).toContain(ESCAPED);
    expect(secret).toContain("&#34;&#62;&#60;script&#62;");
    const confirm = await renderPage({
      kind: "confirm",
      ...hostileFrame,
      provider: HOSTILE,
      form: { csrf: "c" },
    }).text();
    expect(confirm).not.toContain("<script");
    expect(confirm).toContain(`Connect ${ESCAPED}`);
  });

  it("a client name is shown as the client's own naming, never as a verified fact", async () => {
    const html = await renderPage({ kind: "done", theme: sampleTheme(), client: "Claude Desktop" }).text();
    expect(html).toContain(
      '<dt>Requested by</dt><dd>“Claude Desktop” <span class="note">(as the client names itself)</span></dd>',
    );
  });
});

describe("pages: CSP", () => {
  it("allows exactly the inline stylesheet by its hash, and nothing else loads", async () => {
    for (const [name, spec] of Object.entries(pageStates(createPageTheme({ server: { name: "forecast" } })))) {
      const response = renderPage(spec);
      const html = await response.text();
      const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      const hash = createHash("sha256").update(css).digest("base64");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, name).toContain(`default-src 'none'; style-src 'sha256-${hash}';`);
      // No logo and no icon: no image source either.
      expect(csp, name).not.toContain("img-src");
      expect(html, name).not.toContain("<script");
      expect(html, name).not.toMatch(/\b(?:src|href)="(?!data:)/);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  it("adds img-src data: only to a page that shows a data: image; a server icon elsewhere is not loaded", async () => {
    const branded = renderPage({ kind: "done", theme: sampleTheme() });
    expect(branded.headers.get("content-security-policy")).toContain("; img-src data:;");
    expect(await branded.text()).toContain(`<img src="${SAMPLE_LOGO}" alt="">`);
    const remoteIcon = createPageTheme({ server: { name: "s", icons: [{ src: "https://tracker.example/icon.png" }] } });
    const page = renderPage({
      kind: "secret",
      theme: remoteIcon,
      message: "m",
      provider: "p",
      label: "l",
      form: { csrf: "c" },
    });
    expect(page.headers.get("content-security-policy")).not.toContain("img-src");
    expect(await page.text()).not.toContain("tracker.example");
  });

  it("a custom accent colour changes the stylesheet and its hash together", async () => {
    const page = renderPage({ kind: "done", theme: createPageTheme({ branding: { accentColor: "#7C2D12" } }) });
    const html = await page.text();
    expect(html).toContain("--accent:#7c2d12");
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(page.headers.get("content-security-policy")).toContain(createHash("sha256").update(css).digest("base64"));
  });
});

describe("pages: branding is checked", () => {
  it("refuses an accent colour that is not #rgb/#rrggbb, or too light for white text; accepts a dark one", () => {
    for (const accentColor of ["red", "#12345", "#1d4ed8;}body{display:none", "url(x)", "#fff", "#ffff00", "#60a5fa"]) {
      expect(() => createPageTheme({ branding: { accentColor } }), accentColor).toThrow(RangeError);
    }
    for (const accentColor of ["#1d4ed8", "#000", "#0F766E"]) {
      expect(() => createPageTheme({ branding: { accentColor } }), accentColor).not.toThrow();
    }
    expect(contrastWithWhite("#000000")).toBeCloseTo(21, 5);
    expect(contrastWithWhite("#ffffff")).toBeCloseTo(1, 5);
  });

  it("refuses a logo that is not a base64 data: image; accepts one that is", () => {
    for (const logo of [
      "https://cdn.example/logo.png",
      "data:text/html;base64,PHNjcmlwdD4=",
      'data:image/png;base64,AAAA" onload="x',
      `data:image/png;base64,${"A".repeat(70_000)}`,
    ]) {
      expect(() => createPageTheme({ branding: { logo } }), logo.slice(0, 40)).toThrow(RangeError);
    }
    expect(createPageTheme({ branding: { logo: SAMPLE_LOGO } }).logo).toBe(SAMPLE_LOGO);
  });

  it("names the brand and the server from serverInfo, title first, without control characters", () => {
    const theme = createPageTheme({ server: { name: "forecast", title: "Fore\u202Ecast" } });
    expect(theme.serverName).toBe("Forecast");
    expect(theme.brandName).toBe("Forecast");
    expect(createPageTheme().serverName).toBe("This server");
  });
});
