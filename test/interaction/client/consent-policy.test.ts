import { describe, expect, it } from "vitest";
import {
  type ConsentPolicyOptions,
  createConsentPolicy,
  type InteractionContext,
  renderInteraction,
  toUrlInteraction,
  type UrlInteraction,
} from "../../../src/interaction/client/index.js";

const server = { name: "github-bridge", version: "1.0.0", title: "GitHub Bridge" };

function interaction(url: string, message = "Connect your GitHub account."): UrlInteraction {
  const result = toUrlInteraction(
    { kind: "elicitation", id: "e-1", url, message },
    server,
    "request",
    "https://mcp.example.com/mcp",
  );
  if ("ok" in result) throw new Error(result.reason);
  return result;
}

const ctx: InteractionContext = { signal: new AbortController().signal, userDone: () => {} };

/** A policy whose prompts are scripted, recording what was printed, asked and opened, in order. */
function scripted(answer: boolean | "cancel", options: Partial<ConsentPolicyOptions> = {}) {
  const events: string[] = [];
  let printed = "";
  const policy = createConsentPolicy({
    // Wide enough that no sentence wraps; wrapping has its own tests (consent-spoofing.test.ts).
    columns: 200,
    print: (text) => {
      printed += text;
      events.push("print");
    },
    confirm: async (question) => {
      events.push(`confirm: ${question}`);
      return answer;
    },
    open: async (url) => {
      events.push(`open: ${url}`);
    },
    ...options,
  });
  return { policy, events, printed: () => printed };
}

describe("the consent text", () => {
  it("shows the full URL, host and domain first, then the server, every warning and the message", () => {
    const text = renderInteraction(interaction("http://login.xn--pple-43d.com/authorize?x=1"), { columns: 200 });
    expect(text).toBe(
      [
        "An MCP server asks you to open a web page.",
        "",
        "  Host: login.xn--pple-43d.com",
        "  Domain: xn--pple-43d.com",
        "  URL:  http://login.xn--pple-43d.com/authorize?x=1",
        "  Server: GitHub Bridge (github-bridge)",
        "",
        "  Warning: The page is not encrypted (http, not https).",
        "  Warning: The host is an international name: login.xn--pple-43d.com is shown as login.аpple.com. Letters from other alphabets can imitate a familiar name.",
        '  Warning: The name "аpple" mixes Cyrillic and Latin letters, a common way to imitate a name.',
        "  Warning: The page is on xn--pple-43d.com, not on the server's own domain example.com.",
        "",
        "  The server's message:",
        "    │ Connect your GitHub account.",
        "",
      ].join("\n"),
    );
  });

  it("highlights the registrable domain in bold, never a name before it that spells a site", () => {
    const text = renderInteraction(interaction("https://example.com.evil.example.com.evil.example/x"), { bold: true });
    expect(text).toContain(
      "  \u001b[1mURL:\u001b[22m  https://example.com.evil.example.com.\u001b[1mevil.example\u001b[22m/x\n",
    );
  });

  it("escapes control characters in the server's message", () => {
    const text = renderInteraction(interaction("https://mcp.example.com/c", "Hi\u001b[2J\u202ethere"));
    expect(text).toContain("    │ Hi\\u{1b}[2J\\u{202e}there\n");
  });
});

describe("createConsentPolicy", () => {
  it("prints, asks, and only then opens the browser", async () => {
    const { policy, events, printed } = scripted(true);
    expect(await policy(interaction("https://mcp.example.com/connect/e-1"), ctx)).toBe("accept");
    expect(events).toEqual([
      "print",
      "confirm: Open the page on mcp.example.com in your browser?",
      "open: https://mcp.example.com/connect/e-1",
      "print",
    ]);
    expect(printed()).toContain("Opening the page in your browser. If nothing opens, visit the URL above.");
  });

  it("sets the domain in bold only for a terminal", async () => {
    const plain = scripted(false);
    await plain.policy(interaction("https://mcp.example.com/c"), ctx);
    expect(plain.printed()).not.toContain("\u001b");
    const tty = scripted(false, { tty: true });
    await tty.policy(interaction("https://mcp.example.com/c"), ctx);
    expect(tty.printed()).toContain("https://mcp.\u001b[1mexample.com\u001b[22m/c");
  });

  it("declines on no and cancels on a dismissed question, opening nothing", async () => {
    const no = scripted(false);
    expect(await no.policy(interaction("https://mcp.example.com/c"), ctx)).toBe("decline");
    const dismissed = scripted("cancel");
    expect(await dismissed.policy(interaction("https://mcp.example.com/c"), ctx)).toBe("cancel");
    expect([...no.events, ...dismissed.events].some((e) => e.startsWith("open"))).toBe(false);
  });

  it("prints the URL instead of opening it with noBrowser", async () => {
    const { policy, events, printed } = scripted(true, { noBrowser: true });
    expect(await policy(interaction("https://mcp.example.com/c"), ctx)).toBe("accept");
    expect(events).toEqual([
      "print",
      "confirm: Continue? You will open the page yourself (on mcp.example.com)",
      "print",
    ]);
    expect(printed()).toContain("Open this page in your browser:\n  https://mcp.example.com/c\n");
  });

  it("without an open function, prints the URL for the user to open and says so in the question", async () => {
    const { policy, events, printed } = scripted(true, { open: undefined });
    expect(await policy(interaction("https://mcp.example.com/c"), ctx)).toBe("accept");
    expect(events).toEqual([
      "print",
      "confirm: Continue? You will open the page yourself (on mcp.example.com)",
      "print",
    ]);
    expect(printed()).toContain("Open this page in your browser:\n  https://mcp.example.com/c\n");
  });

  it("prints the URL when the browser cannot be opened, and still accepts", async () => {
    const { policy, printed } = scripted(true, {
      open: async () => {
        throw new Error("no browser found");
      },
    });
    expect(await policy(interaction("https://mcp.example.com/c"), ctx)).toBe("accept");
    expect(printed()).toContain(
      "Could not open a browser (no browser found). Open this page yourself:\n  https://mcp.example.com/c\n",
    );
  });
});

describe("createConsentPolicy with otherDomain", () => {
  /** The interaction for `url` as HandoffClient builds it for a server at `serverUrl` (none: stdio). */
  function at(url: string, serverUrl: string | undefined): UrlInteraction {
    const result = toUrlInteraction(
      { kind: "elicitation", id: "e-1", url, message: "Sign in." },
      server,
      "request",
      serverUrl,
    );
    if ("ok" in result) throw new Error(result.reason);
    return result;
  }

  const cases: [string, string | undefined, string, "shown" | "refused"][] = [
    ["the server's own host", "https://mcp.example.com/mcp", "https://mcp.example.com/connect", "shown"],
    ["another host of the same domain", "https://mcp.example.com/mcp", "https://auth.example.com/login", "shown"],
    ["another domain", "https://mcp.example.com/mcp", "https://evil.example/login", "refused"],
    ["a look-alike subdomain", "https://mcp.example.com/mcp", "https://example.com.evil.example/", "refused"],
    ["another site on a shared host", "https://good.github.io/mcp", "https://evil.github.io/login", "refused"],
    ["the same IP address, another port", "http://127.0.0.1:8080/mcp", "http://127.0.0.1:9090/connect", "shown"],
    ["another IP address", "http://10.0.0.1/mcp", "http://10.0.0.2/connect", "refused"],
    ["localhost for a server at 127.0.0.1", "http://127.0.0.1:8080/mcp", "http://localhost:8080/connect", "refused"],
    ["localhost for a server on localhost", "http://localhost:3000/mcp", "http://localhost:4000/connect", "shown"],
    ["no server URL (stdio)", undefined, "https://mcp.example.com/connect", "refused"],
  ];

  it.each(cases)("refuse: a page on %s (server %s, page %s) is %s", async (_what, serverUrl, url, expected) => {
    const { policy, events, printed } = scripted(true, { otherDomain: "refuse" });
    const answer = await policy(at(url, serverUrl), ctx);
    if (expected === "shown") {
      expect(answer).toBe("accept");
      expect(events).toEqual([
        "print",
        `confirm: Open the page on ${new URL(url).host} in your browser?`,
        `open: ${url}`,
        "print",
      ]);
      return;
    }
    expect(answer).toBe("decline");
    expect(events).toEqual(["print"]);
    expect(printed()).toContain("It will not be opened.");
    expect(printed()).not.toContain("in your browser?");
  });

  it("says which domains differ, or that the server's is unknown", async () => {
    const other = scripted(true, { otherDomain: "refuse" });
    await other.policy(at("https://evil.example/login", "https://mcp.example.com/mcp"), ctx);
    expect(other.printed()).toContain(
      "  The page is on evil.example, not on the server's own domain example.com, and this client opens only pages on the server's domain. It will not be opened.\n",
    );
    const stdio = scripted(true, { otherDomain: "refuse" });
    await stdio.policy(at("https://mcp.example.com/connect", undefined), ctx);
    expect(stdio.printed()).toContain(
      "  The server's own domain is not known (it is not reached over HTTP), so the page's domain cannot be compared with it. It will not be opened.\n",
    );
  });

  it("warn (the default) shows a page on another domain with its warning and asks", async () => {
    for (const options of [{}, { otherDomain: "warn" as const }]) {
      const { policy, events, printed } = scripted(true, options);
      expect(await policy(at("https://evil.example/login", "https://mcp.example.com/mcp"), ctx)).toBe("accept");
      expect(events).toContain("confirm: Open the page on evil.example in your browser?");
      expect(printed()).toContain("Warning: The page is on evil.example, not on the server's own domain example.com.");
    }
  });
});
