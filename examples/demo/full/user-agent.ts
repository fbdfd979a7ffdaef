/**
 * What the full demo and the browser tests need of the user's browser, whichever does the work:
 * headless Chromium (chromium.ts) or the scripted HTTP user agent (browser.ts).
 */
import type { Browser } from "./browser.js";

/** The page a sign-in ended on. */
export interface Landing {
  url: string;
  /** HTTP status of the page. */
  status: number;
  /** The page's text, without its heading. */
  text: string;
}

export interface UserAgent {
  /** "headless Chromium 156…" or "scripted HTTP user agent", for the story's setup line. */
  readonly description: string;
  /**
   * Opens `url`, logs in as `login` on every oidc-provider development login page, consents on
   * every consent page, confirms the connect pages' question when it names `login`, and resolves
   * with the first other page.
   */
  signIn(url: string, login: string): Promise<Landing>;
  close(): Promise<void>;
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = /<(head|title|style|script|template|noscript|svg)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Inline elements: their tags join the text around them, without a break. */
const INLINE =
  /^<\/?(a|abbr|b|bdi|bdo|cite|code|data|dfn|em|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var)\b/i;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/**
 * The text of an HTML page as a reader sees it (its `<main>`, else its body), without its first heading: markup, styles and
 * scripts dropped, a space where one block ends and the next begins (none around inline
 * elements), character references decoded, runs of white space made one space.
 */
export function visibleText(html: string): string {
  const body =
    /<main\b[^>]*>([\s\S]*)<\/main\s*>/i.exec(html)?.[1] ??
    /<body\b[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ??
    html;
  return body
    .replace(HIDDEN, " ")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<h1\b[^>]*>[\s\S]*?<\/h1\s*>/i, " ")
    .replace(/<[^>]*>/g, (tag) => (INLINE.test(tag) ? "" : " "))
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith("#x") || name.startsWith("#X"))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, " ")
    .replace(/ ([.,;:!?])/g, "$1")
    .trim();
}

/** The scripted user agent behind the same interface. */
export function scriptedUserAgent(browser: Browser): UserAgent {
  return {
    description: "scripted HTTP user agent",
    async signIn(url, login) {
      const page = await browser.goSigningIn(url, login);
      return { url: page.url, status: page.response.status, text: visibleText(page.text) };
    },
    close: async () => {},
  };
}
