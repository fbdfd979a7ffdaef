#!/usr/bin/env node
/** The `handoff` executable: real terminal, real browser, real process exit. */
import { clackPrompter } from "./prompter.js";
import { run } from "./run.js";

const interrupt = new AbortController();
// The first Ctrl-C cancels the request in flight (the server is told); a second one quits at once.
process.on("SIGINT", () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

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
});

// Exit once what was written has been flushed; idle keep-alive sockets must not hold the process.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
