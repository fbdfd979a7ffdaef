/**
 * A secret's name as the user reads it: the provider and the label once each, whether or not the
 * label already names the provider ("Weather API key" for provider `weather` is not "weather
 * Weather API key"), in the hand-off message and on the form.
 */
import { describe, expect, it } from "vitest";
import { CredentialBroker, createPageTheme, renderPage } from "../../src/connect/index.js";
import { InteractionRequired, type RequestContext } from "../../src/server/index.js";
import { INSECURE_PLAINTEXT_VAULT_FOR_TESTS, MemoryCredentialVault } from "../../src/stores/index.js";

const USER = { issuer: "https://login.example", subject: "alice" };
const ACCOUNT = { name: "alice@example.com", ...USER };

/** The message `ctx.credentials.require(provider)` hands the user off with. */
async function handOffMessage(provider: string, secretLabels: Record<string, string>): Promise<string> {
  const broker = new CredentialBroker({
    service: { userFor: () => USER },
    vault: new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS }),
    baseUrl: "https://mcp.example",
    providers: {},
    secretLabels,
  });
  const failure = await broker.require(provider, {}, { authInfo: undefined } as RequestContext).catch((e) => e);
  expect(failure).toBeInstanceOf(InteractionRequired);
  return (failure as InteractionRequired).message;
}

async function formText(provider: string, label: string): Promise<{ heading: string; field: string; text: string }> {
  const theme = createPageTheme({ server: { name: "weather-server" } });
  const page = renderPage({ kind: "secret", theme, account: ACCOUNT, provider, label, form: { csrf: "t" } });
  const html = await page.text();
  const heading = /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1] ?? "";
  const field = /<label for="secret">([^<]*)<\/label>/.exec(html)?.[1] ?? "";
  const body = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? html;
  return { heading, field, text: body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ") };
}

describe("secret labels", () => {
  it("a label that names its provider is not preceded by the provider's name again", async () => {
    const message = await handOffMessage("weather", { weather: "Weather API key" });
    expect(message).toBe("Enter your Weather API key to continue.");
    const { heading, field, text } = await formText("weather", "Weather API key");
    expect(heading).toBe("Save your Weather API key for alice@example.com");
    expect(field).toBe("Weather API key");
    expect(text).not.toMatch(/weather Weather/i);
  });

  it("a label that does not name its provider is said with the provider's name, once", async () => {
    expect(await handOffMessage("forecast", {})).toBe("Enter your forecast API key to continue.");
    const { heading, field, text } = await formText("forecast", "API key");
    expect(heading).toBe("Save your forecast API key for alice@example.com");
    expect(field).toBe("forecast API key");
    expect(text).not.toMatch(/forecast forecast/i);
  });

  it("tells a provider named inside a longer word from one named as a word", async () => {
    expect(await handOffMessage("git", { git: "GitHub token" })).toBe("Enter your git GitHub token to continue.");
    expect(await handOffMessage("github", { github: "GitHub token" })).toBe("Enter your GitHub token to continue.");
  });
});
