/**
 * `ctx.credentials.require("weather", { kind: "secret", label: "Weather API key" })` asks the same
 * on a local server (`LocalCredentials`) and a hosted one (`CredentialBroker`): a hand-off to a
 * secret form labelled "Weather API key", with a message that names the label once; and once the
 * key is stored, both return it without a hand-off.
 */
import { describe, expect, it } from "vitest";
import { CredentialBroker, LocalCredentials } from "../../src/connect/index.js";
import { InteractionRequired } from "../../src/interaction/server/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import type { UserRef } from "../../src/model/identity.js";
import type { CredentialSource, RequestContext } from "../../src/server/index.js";
import { INSECURE_PLAINTEXT_VAULT_FOR_TESTS, MemoryCredentialVault } from "../../src/stores/index.js";

const USER: UserRef = { issuer: "local", subject: "ada" };
const ctx = { authInfo: undefined } as RequestContext;
const REQUEST = { kind: "secret", label: "Weather API key" } as const;

function sources(): { name: string; source: CredentialSource; vault: MemoryCredentialVault; page: RegExp }[] {
  const service = { userFor: () => ({ ...USER }) };
  const localVault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  const hostedVault = new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS });
  // The hosted server also has an authorization server named "weather": `kind: "secret"` still asks for a key.
  const weather = { issuer: "https://weather.example", clientId: "mcp" };
  return [
    {
      name: "local",
      source: new LocalCredentials({ service, vault: localVault, origin: "http://127.0.0.1:40000" }),
      vault: localVault,
      page: /^http:\/\/127\.0\.0\.1:40000\/connect\/\{interactionId\}\?token=[A-Za-z0-9_-]{43}$/,
    },
    {
      name: "hosted",
      source: new CredentialBroker({
        service,
        vault: hostedVault,
        baseUrl: "https://mcp.example.com",
        providers: { weather },
      }),
      vault: hostedVault,
      page: /^https:\/\/mcp\.example\.com\/connect\/\{interactionId\}$/,
    },
  ];
}

describe.each(sources())("ctx.credentials.require on a $name server", ({ source, vault, page }) => {
  it("hands off to a secret form labelled as asked, the label named once in the message", async () => {
    const thrown = await source.require("weather", REQUEST, ctx).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(InteractionRequired);
    const handoff = thrown as InteractionRequired;
    expect(handoff.url).toMatch(page);
    expect(handoff.purpose).toEqual({ kind: "secret", provider: "weather", label: "Weather API key" });
    expect(handoff.message).toMatch(/^Enter your Weather API key to continue\./);
  });

  it("returns the stored key without a hand-off", async () => {
    await vault.put(USER, { provider: "weather", secret: "wk-123456789", updatedAt: 1 });
    expect((await source.require("weather", REQUEST, ctx)).secret).toBe("wk-123456789");
  });
});

describe("what only one side can do", () => {
  it("a local server refuses kind: oauth, saying it asks only for secrets", async () => {
    const [local] = sources();
    const error = await local?.source.require("github", { kind: "oauth" }, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe("INVALID_ARGUMENT");
  });

  it("a hosted server refuses kind: oauth for a provider without an authorization server, and hands off for one with", async () => {
    const [, hosted] = sources();
    const error = await hosted?.source.require("github", { kind: "oauth" }, ctx).catch((e: unknown) => e);
    expect((error as SdkError).code).toBe("INVALID_ARGUMENT");
    const handoff = await hosted?.source.require("weather", { kind: "oauth" }, ctx).catch((e: unknown) => e);
    expect((handoff as InteractionRequired).purpose).toMatchObject({ kind: "oauth", provider: "weather" });
  });
});
