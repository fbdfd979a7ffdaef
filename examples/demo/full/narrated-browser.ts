/** The scripted browser of the connect tests, saying each request as it makes it (no query strings: they carry codes). */
import { Browser } from "./browser.js";

export class NarratedBrowser extends Browser {
  constructor(
    private readonly labels: ReadonlyMap<string, string>,
    private readonly say: (line: string) => void,
  ) {
    super();
  }

  override async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const response = await super.request(url, init);
    const at = new URL(url);
    const doing =
      { login: `  (logs in as ${init.form?.login})`, consent: "  (consents)" }[init.form?.prompt ?? ""] ?? "";
    const method = init.method ?? (init.form ? "POST" : "GET");
    this.say(`browser    ${method} ${this.labels.get(at.host) ?? at.host} ${at.pathname} → ${response.status}${doing}`);
    return response;
  }
}
