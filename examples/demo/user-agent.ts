/**
 * A scripted stand-in for the person at the browser: it opens the page the user consented to,
 * checks that it asks for the API key (by the form's field, not its wording), and submits one.
 * It talks to the server's page only, never to the MCP client.
 */
import { tagsOf } from "./full/browser.js";
import { visibleText } from "./full/user-agent.js";

export async function fillKeyPage(url: string, apiKey: string, say: (line: string) => void): Promise<void> {
  say(`browser  GET ${url}`);
  const form = await fetch(url);
  const html = await form.text();
  if (!form.ok || !tagsOf(html, "input").some((field) => field.name === "api_key")) {
    throw new Error(`The page at ${url} did not show the API key form (HTTP ${form.status})`);
  }
  say("browser  the page asks for the Forecast API key; typing it and pressing Save");
  const saved = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ api_key: apiKey }).toString(),
  });
  if (!saved.ok) throw new Error(`Saving the key failed with HTTP ${saved.status}`);
  say(`browser  the page says: ${visibleText(await saved.text())}`);
}
