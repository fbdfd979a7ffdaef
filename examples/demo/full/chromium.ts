/**
 * Headless Chromium (Debian's `chromium`, driven by `playwright-core`) as the user's browser: it
 * opens the hand-off URL, types a login name into the MCP authorization server's login form,
 * clicks through consent there, confirms the connect page's question when it names that login,
 * consents at the third party, and lands on the page that says to return to the app. Everything goes through the real pages and a real cookie store (HttpOnly,
 * SameSite=Lax), never around them.
 */
import { accessSync, constants } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { CONFIRMS, CONSENTS, hopLine, LOGS_IN } from "./narrated-browser.js";
import { type Landing, type UserAgent, visibleText } from "./user-agent.js";

/** Where Chromium is looked for: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

/** Whether an executable is at {@link chromiumPath}. */
export function hasChromium(): boolean {
  try {
    accessSync(chromiumPath(), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Flags for a quiet, self-contained run: no sandbox (containers and CI runners often lack user
 * namespaces), no GPU, no QUIC, and no first-run, update, sync or other background traffic.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Says each request of the user's browser, as the scripted one does (labels name the servers by host). */
export interface Narration {
  labels: ReadonlyMap<string, string>;
  say(line: string): void;
}

/** One Chromium process; each `newWindow` is a fresh profile context with its own cookies. */
export class Chromium {
  private constructor(private readonly browser: Browser) {}

  /**
   * Launches headless Chromium at {@link chromiumPath}; Playwright gives it a new temporary
   * profile directory and removes it on `close`.
   * @throws Error when the executable is missing or does not start.
   */
  static async launch(): Promise<Chromium> {
    const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    return new Chromium(browser);
  }

  get version(): string {
    return this.browser.version();
  }

  /** A window of its own (no cookies shared with other windows), as another person's browser would be. */
  async newWindow(narration?: Narration): Promise<ChromiumWindow> {
    return new ChromiumWindow(await this.browser.newContext(), `headless Chromium ${this.version}`, narration);
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/** Each main-frame request a window made: method, URL and response status. */
export interface Navigation {
  method: string;
  url: string;
  status: number;
}

export class ChromiumWindow implements UserAgent {
  /** Every main-frame request and redirect, in order. */
  readonly navigations: Navigation[] = [];
  /** What the next form submission does, for the narration. */
  private doing = "";

  constructor(
    readonly context: BrowserContext,
    readonly description: string,
    private readonly narration?: Narration,
  ) {}

  /** @param options.confirm `false` stops at the connect pages' question instead of confirming it. */
  async signIn(url: string, login: string, options: { confirm?: boolean } = {}): Promise<Landing> {
    const page = await this.context.newPage();
    try {
      this.watch(page);
      const first = await page.goto(url);
      let status = first?.status() ?? 0;
      for (let step = 0; step < 10; step++) {
        // The connect pages' question, found by its form's field: confirmed only when the page
        // names the account this user signed in as, wherever on the page it says so.
        const connect = page.locator(
          'form button[name="action"][value="connect"], form input[type="submit"][name="action"][value="connect"]',
        );
        if ((await connect.count()) > 0) {
          const text = await page.locator("body").innerText();
          if (!text.includes(login) || options.confirm === false) break;
          this.doing = CONFIRMS;
          status = await this.submit(page, connect.first());
          continue;
        }
        const field = page.locator('form input[name="prompt"]');
        const prompt = (await field.count()) > 0 ? await field.first().getAttribute("value") : null;
        if (prompt !== "login" && prompt !== "consent") break;
        if (prompt === "login") {
          await page.locator('input[name="login"]').fill(login);
          await page.locator('input[name="password"]').fill("any");
        }
        this.doing = prompt === "login" ? LOGS_IN(login) : CONSENTS;
        status = await this.submit(page, page.locator('form button[type="submit"]').first());
      }
      return { url: page.url(), status, text: visibleText(await page.content()) };
    } finally {
      await page.close();
    }
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  /** Clicks `button` and waits until the page it leads to has loaded; resolves with its status. */
  private async submit(page: Page, button: Locator): Promise<number> {
    const loaded = page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() });
    const before = this.navigations.length;
    await button.click();
    await loaded;
    await page.waitForLoadState("load");
    return this.navigations.slice(before).findLast((n) => n.status < 300 || n.status >= 400)?.status ?? 0;
  }

  private watch(page: Page): void {
    page.on("response", (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      const navigation = { method: request.method(), url: request.url(), status: response.status() };
      this.navigations.push(navigation);
      const doing = navigation.method === "POST" ? this.doing : "";
      if (navigation.method === "POST") this.doing = "";
      this.narration?.say(hopLine(this.narration.labels, navigation.method, navigation.url, navigation.status, doing));
    });
  }
}
