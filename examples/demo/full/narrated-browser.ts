/** The scripted browser of the connect tests, saying each request as it makes it (no query strings: they carry codes). */
import { Browser, type RequestInit } from "./browser.js";

/** One line per request the user's browser makes: method, which server (by label), path, status, and what the user did. */
export function hopLine(
  labels: ReadonlyMap<string, string>,
  method: string,
  url: string,
  status: number,
  doing = "",
): string {
  const at = new URL(url);
  return `browser    ${method} ${labels.get(at.host) ?? at.host} ${at.pathname} → ${status}${doing}`;
}

/** What a form submission did, as said after its request line. */
export const LOGS_IN = (login: string) => `  (logs in as ${login})`;
export const CONSENTS = "  (consents)";
export const CONFIRMS = "  (confirms it is their account)";

export class NarratedBrowser extends Browser {
  constructor(
    private readonly labels: ReadonlyMap<string, string>,
    private readonly say: (line: string) => void,
  ) {
    super();
  }

  override async request(url: string, init: RequestInit = {}) {
    const response = await super.request(url, init);
    const prompt = init.form?.prompt;
    const doing =
      prompt === "login"
        ? LOGS_IN(init.form?.login ?? "")
        : prompt === "consent"
          ? CONSENTS
          : init.form?.action === "connect"
            ? CONFIRMS
            : "";
    const method = init.method ?? (init.form ? "POST" : "GET");
    this.say(hopLine(this.labels, method, url, response.status, doing));
    return response;
  }
}
