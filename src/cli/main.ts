#!/usr/bin/env node
/** The `handoff` executable: real terminal, real browser, real process exit. */
import { clackPrompter } from "./prompter.js";
import { run } from "./run.js";
import { StartedServers } from "./shutdown.js";

const interrupt = new AbortController();
const servers = new StartedServers();
let quitting = false;
/** Ends the process now, with the servers it started: a second Ctrl-C, SIGTERM, SIGHUP. */
const quit = (code: number) => {
  if (quitting) return;
  quitting = true;
  void servers.stopNow().finally(() => process.exit(code));
};
// The first Ctrl-C cancels the request in flight (the server is told); a second one quits at once.
process.on("SIGINT", () => {
  if (interrupt.signal.aborted) quit(130);
  else interrupt.abort();
});
process.on("SIGTERM", () => quit(143));
process.on("SIGHUP", () => quit(129));

const code = await run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  prompter: clackPrompter(process.stdin, process.stderr),
  open: async (url) => {
    const { default: open } = await import("open");
    await open(url);
  },
  interactive: process.stdin.isTTY === true,
  tty: process.stderr.isTTY === true,
  ...(process.stderr.isTTY ? { terminal: process.stderr } : {}),
  columns: () => process.stderr.columns,
  signal: interrupt.signal,
  started: servers.add,
});

// Exit once what was written has been flushed; idle keep-alive sockets must not hold the process.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
