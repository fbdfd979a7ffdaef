/**
 * A scripted stand-in for the person at the browser: it opens the page the user consented to (a
 * browser with its own cookies, as the local key page binds the link to the first browser that
 * opens it), checks that it asks for the API key (by the form's password field, not its wording),
 * and submits one. It talks to the server's page only, never to the MCP client.
 */
import { Browser, tagsOf } from "./full/browser.js";
import { visibleText } from "./full/user-agent.js";

export async function fillKeyPage(url: string, apiKey: string, say: (line: string) => void): Promise<void> {
  say(`browser  GET ${url}`);
  const browser = new Browser();
  const form = await browser.go(url);
  const fields = tagsOf(form.text, "input");
  const csrf = fields.find((field) => field.name === "csrf")?.value;
  if (!form.response.ok || csrf === undefined || !fields.some((f) => f.name === "secret" && f.type === "password")) {
    throw new Error(`The page at ${url} did not show the API key form (HTTP ${form.response.status})`);
  }
  say("browser  the page asks for the Forecast API key; typing it and pressing Save");
  const saved = await browser.go(form.url, { form: { csrf, secret: apiKey } });
  if (!saved.response.ok) throw new Error(`Saving the key failed with HTTP ${saved.response.status}`);
  say(`browser  the page says: ${outcome(visibleText(saved.text))}`);
}

/** The page's first two sentences: what happened and what to do now, without what it names beside. */
function outcome(text: string): string {
  return /^(?:[^.!?]*[.!?](?:\s|$)){1,2}/.exec(text)?.[0].trim() ?? text;
}
