/**
 * A connect page that fails is never silent: without a `logger` option the failure goes to
 * `console.error`, and the page says only that something went wrong.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createConnectHandler } from "../../src/connect/index.js";
import { InteractionManager } from "../../src/interaction/server/index.js";
import {
  INSECURE_PLAINTEXT_VAULT_FOR_TESTS,
  InProcessMessageBus,
  MemoryCredentialVault,
  MemoryInteractionStore,
} from "../../src/stores/index.js";

/** Connect pages whose authorization server cannot be reached (nothing listens on port 9). */
function pagesWithUnreachableLogin(logger?: Parameters<typeof createConnectHandler>[0]["logger"]) {
  return createConnectHandler({
    manager: new InteractionManager({ store: new MemoryInteractionStore(), bus: new InProcessMessageBus() }),
    vault: new MemoryCredentialVault({ encryption: INSECURE_PLAINTEXT_VAULT_FOR_TESTS }),
    baseUrl: "http://127.0.0.1:8080",
    login: {
      issuer: "http://127.0.0.1:9",
      clientId: "c",
      clientSecret: "login-secret-x",
      redirectPath: "/connect/login",
    },
    providers: {},
    cookieSecret: "a cookie secret of at least thirty-two bytes",
    ...(logger === undefined ? {} : { logger }),
  });
}

const PAGE = "http://127.0.0.1:8080/connect/abcdefghijklmnopqrstuv";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("connect pages: the default logger", () => {
  it("reports a failed page to console.error, and the page says nothing specific", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await pagesWithUnreachableLogin()(new Request(PAGE));
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("Something went wrong");
    expect(error).toHaveBeenCalledWith("A connect page failed", { err: expect.any(Error) });
    expect(JSON.stringify(error.mock.calls)).not.toContain("login-secret-x");
  });

  it("sends nothing to console when a logger is given", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const told: string[] = [];
    const logger = {
      error: (_: object, message?: string) => void told.push(message ?? ""),
      warn() {},
      info() {},
      debug() {},
    };
    const response = await pagesWithUnreachableLogin(logger)(new Request(PAGE));
    expect(response.status).toBe(500);
    expect(told).toEqual(["A connect page failed"]);
    expect(error).not.toHaveBeenCalled();
  });
});
