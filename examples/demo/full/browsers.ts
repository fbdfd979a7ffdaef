/**
 * Which browser plays the user in the full demo: headless Chromium where one is installed, else
 * the scripted HTTP user agent, said in one line so nobody mistakes one for the other.
 */
import { Browser } from "./browser.js";
import { Chromium, chromiumPath, hasChromium } from "./chromium.js";
import { NarratedBrowser } from "./narrated-browser.js";
import { scriptedUserAgent, type UserAgent } from "./user-agent.js";

/** `auto` (default): Chromium if present, else scripted with a note; the others insist. */
export type BrowserChoice = "auto" | "chromium" | "scripted";

export interface Browsers {
  /** The user's browser, which opens the hand-off page; each request is narrated. */
  user: UserAgent;
  /** A separate window (no shared cookies) where the client signs the user in, not narrated. */
  signIn: UserAgent;
  close(): Promise<void>;
}

/**
 * @throws Error with `choice: "chromium"` when Chromium is missing or does not start.
 */
export async function openBrowsers(
  choice: BrowserChoice,
  labels: ReadonlyMap<string, string>,
  say: (line: string) => void,
): Promise<Browsers> {
  let fallback = "";
  if (choice !== "scripted") {
    if (choice === "chromium" || hasChromium()) {
      try {
        const chromium = await Chromium.launch();
        const user = await chromium.newWindow({ labels, say });
        const signIn = await chromium.newWindow();
        say(`setup    the browser steps run in ${user.description}`);
        return { user, signIn, close: () => chromium.close() };
      } catch (error) {
        if (choice === "chromium") throw error;
        fallback = `Chromium at ${chromiumPath()} did not start`;
      }
    } else fallback = `no Chromium at ${chromiumPath()}`;
  }
  const user = scriptedUserAgent(new NarratedBrowser(labels, say));
  say(
    fallback === ""
      ? `setup    the browser steps run in the ${user.description}`
      : `note     ${fallback}: the browser steps run in the ${user.description} instead (install chromium or set CHROMIUM_PATH)`,
  );
  return { user, signIn: scriptedUserAgent(new Browser()), close: async () => {} };
}
