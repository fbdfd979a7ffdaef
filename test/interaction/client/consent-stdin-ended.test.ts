/**
 * The default `[y/N]` question reads stdin. Once stdin has ended (closed, `< /dev/null`, a pipe
 * whose writer left), every later question is answered "cancel" at once and nothing is opened;
 * it used to wait forever from the second question on, as readline never reports an end it
 * missed. Control: a line "y" on an open stdin is a yes.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createConsentPolicy, toUrlInteraction, type UrlInteraction } from "../../../src/interaction/client/index.js";

const original = Object.getOwnPropertyDescriptor(process, "stdin");
afterEach(() => {
  if (original !== undefined) Object.defineProperty(process, "stdin", original);
});

function useStdin(stream: PassThrough): void {
  Object.defineProperty(process, "stdin", { value: stream, configurable: true, writable: true });
}

function page(): UrlInteraction {
  const result = toUrlInteraction(
    { kind: "elicitation", id: "e-1", url: "https://mcp.example.com/connect/e-1", message: "Connect." },
    { name: "s", version: "1.0.0" },
    "request",
    "https://mcp.example.com/mcp",
  );
  if ("ok" in result) throw new Error(result.reason);
  return result;
}

const ctx = { signal: new AbortController().signal, userDone: () => {} };
/** The answer, or "no answer" when none came within 500 ms. */
const within = (answer: Promise<string>) =>
  Promise.race([answer, new Promise<string>((resolve) => setTimeout(() => resolve("no answer"), 500))]);

describe("the default question once stdin has ended", () => {
  it("attack: every question after the end is cancelled at once, opening nothing", async () => {
    const stdin = new PassThrough();
    useStdin(stdin);
    const opened: string[] = [];
    const policy = createConsentPolicy({ print: () => {}, open: async (url) => void opened.push(url) });
    stdin.end();
    expect(await within(policy(page(), ctx))).toBe("cancel");
    expect(await within(policy(page(), ctx))).toBe("cancel");
    expect(await within(policy(page(), ctx))).toBe("cancel");
    expect(opened).toEqual([]);
  });

  it("control: a line 'y' on an open stdin is a yes, and opens the page", async () => {
    const stdin = new PassThrough();
    useStdin(stdin);
    const opened: string[] = [];
    const policy = createConsentPolicy({ print: () => {}, open: async (url) => void opened.push(url) });
    const answer = policy(page(), ctx);
    stdin.write("y\n");
    expect(await within(answer)).toBe("accept");
    expect(opened).toEqual(["https://mcp.example.com/connect/e-1"]);
  });
});
