/**
 * The demo's authorization servers run oidc-provider in its development mode on purpose (in-memory
 * adapter, generated keys, built-in login pages), and it says so loudly on every start. Those
 * notices are about the demo's own servers, not about the reader's setup, so they are held back.
 * Imported first by main.ts, before oidc-provider loads.
 */
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes("oidc-provider WARNING")) return;
  warn(...args);
};
