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

/** The main text of an HTML page (its `<main>`, else its body), without its heading, tags or runs of white space. */
export function visibleText(html: string): string {
  const body = /<main>([\s\S]*)<\/main>/.exec(html)?.[1] ?? /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? html;
  return body
    .replace(/<h1>.*?<\/h1>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
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
