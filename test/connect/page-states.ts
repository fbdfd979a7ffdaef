/**
 * Every state a connect page can be in, rendered with `renderPage` from one branded theme and
 * realistic texts: what the Chromium accessibility test checks and the screenshot script shows.
 */
import { createPageTheme, type PageSpec, type PageTheme } from "../../src/connect/index.js";
import { NOTICES, type NoticeKind } from "../../src/connect/templates/index.js";

const svg = (body: string) =>
  `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${body}</svg>`).toString("base64")}`;

/** A cloud in the operator's colour, and a sun for the MCP server's own icon. */
export const SAMPLE_LOGO = svg(
  '<rect width="32" height="32" rx="8" fill="#0f766e"/><path d="M9 21h14a4 4 0 0 0 0-8 6 6 0 0 0-11-1 4.5 4.5 0 0 0-3 9z" fill="#fff"/>',
);
export const SAMPLE_ICON = svg(
  '<circle cx="16" cy="16" r="7" fill="#b45309"/><g stroke="#b45309" stroke-width="2.5"><path d="M16 2v5M16 25v5M2 16h5M25 16h5"/></g>',
);

export function sampleTheme(): PageTheme {
  return createPageTheme({
    server: { name: "forecast", title: "Forecast", icons: [{ src: SAMPLE_ICON, mimeType: "image/svg+xml" }] },
    branding: { name: "Acme Weather", logo: SAMPLE_LOGO, accentColor: "#0f766e" },
  });
}

const account = { name: "alice@example.com", subject: "alice", issuer: "https://login.example.com" };
const switchAccount = { csrf: "switch-token" };
const decline = { csrf: "decline-token" };

/** The pages, by a file-friendly name, in the order the README shows them. */
export function pageStates(theme: PageTheme = sampleTheme()): Record<string, PageSpec> {
  const frame = {
    theme,
    account,
    client: "Claude Desktop",
    message: "Enter your forecast API key to continue.",
  };
  const states: Record<string, PageSpec> = {
    "key-form": {
      kind: "secret",
      ...frame,
      switchAccount,
      provider: "forecast",
      label: "API key",
      form: { csrf: "t" },
      decline,
    },
    confirm: {
      kind: "confirm",
      ...frame,
      switchAccount,
      message: "Connect your GitHub account to continue.",
      provider: "GitHub",
      form: { csrf: "t" },
      decline,
    },
    // `/connect/connections`: an outcome, one connection with its Disconnect, and recent activity.
    connections: {
      kind: "entries",
      theme,
      account,
      switchAccount,
      title: "Your connections",
      lead: ["Disconnected Linear: Linear revoked the access, and this server deleted its copy."],
      sections: [
        {
          heading: "Connected accounts",
          empty: "You have no connections.",
          entries: [
            {
              heading: "GitHub",
              facts: [
                ["Account", "alice-gh"],
                ["Scopes", "repo read:user"],
                ["Connected", "2026-12-01 09:15 UTC"],
                ["Last used", "2026-12-03 08:40 UTC"],
              ],
              button: {
                label: "Disconnect GitHub",
                form: { csrf: "t" },
                fields: { action: "disconnect", provider: "github" },
              },
            },
          ],
        },
        {
          heading: "Recent activity",
          empty: "No activity recorded yet.",
          table: {
            columns: ["Time", "Event", "Provider", "Outcome", "Client"],
            rows: [["2026-12-03 08:41 UTC", "grant.revoked", "linear", "ok", "Claude Desktop"]],
          },
        },
      ],
    },
  };
  const signedOut = new Set<NoticeKind>([
    "cross-site",
    "sign-in-again",
    "answer-refused",
    "sign-in-failed",
    "nothing-here",
    "error",
  ]);
  for (const kind of Object.keys(NOTICES) as NoticeKind[]) {
    states[kind] = signedOut.has(kind)
      ? { kind, theme }
      : kind === "not-found"
        ? { kind, theme, account: { ...account, name: "bob@example.com", subject: "bob" }, switchAccount }
        : // As the handler sends them: a form that no longer holds offers to sign in as someone else.
          { kind, ...frame, ...(kind === "form-expired" || kind === "nothing-entered" ? { switchAccount } : {}) };
  }
  // A server on the user's own machine (the local connect pages): no account, this computer's server.
  const local = {
    theme,
    local: true,
    client: "Claude Desktop",
    message: "Enter your Weather API key to continue.",
  };
  states["local-key-form"] = {
    kind: "secret",
    ...local,
    provider: "weather",
    label: "Weather API key",
    form: { csrf: "t" },
    decline,
  };
  for (const kind of ["done", "declined", "expired", "used", "form-expired", "not-saved", "too-large"] as const) {
    states[`local-${kind}`] = { kind, ...local };
  }
  // Refusals that name no link: they tell nothing of the interaction they were asked about.
  for (const kind of ["wrong-host", "other-browser", "not-found", "cross-site", "error"] as const) {
    states[`local-${kind}`] = { kind, theme, local: true };
  }
  return states;
}

/** The states the screenshots show: the questions, the outcomes, and one of each refusal. */
export const SCREENSHOT_STATES = [
  "key-form",
  "confirm",
  "done",
  "declined",
  "expired",
  "used",
  "not-found",
  "cross-site",
  "error",
  "local-key-form",
  "local-other-browser",
];
