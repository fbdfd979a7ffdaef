/** The text of `handoff --help`. docs/cli.md says the same at more length; a test keeps the exit codes in step. */
import { EXIT_CODE_MEANINGS } from "./exit-codes.js";

export function helpText(): string {
  const codes = Object.entries(EXIT_CODE_MEANINGS)
    .map(([code, meaning]) => `  ${code}  ${meaning}`)
    .join("\n");
  return `handoff: talk to a Model Context Protocol server from the command line

Usage:
  handoff tools      <target> [options]
  handoff resources  <target> [options]
  handoff prompts    <target> [options]
  handoff call       <target> <tool> [json-arguments] [options]
  handoff read       <target> <uri> [options]
  handoff login      <target> [--client-id ID] [--no-browser]
  handoff migrate    --database-url URL [--schema NAME] [--table-prefix PREFIX]

Target, one of:
  https://host/path             a Streamable HTTP endpoint
  --config FILE --server NAME   an entry of an "mcpServers" JSON file (--server may be
                                left out when the file has one server)
  -- <command> [args...]        a stdio server to start. It takes the rest of the line, so
                                put it last:  handoff call echo '{"text":"hi"}' -- node server.js
A URL target may come anywhere on the line; the first http(s) URL is taken.

Options:
  --json             print the raw result objects as JSON
  --no-browser       never open a browser; print the page's URL instead
  --header "K: V"    add an HTTP header (repeatable; http targets only)
  --env NAME=VALUE   set a variable for a stdio server, which otherwise gets only PATH,
  --env NAME         HOME, locale and the like; NAME alone passes yours on (repeatable;
                     stdio targets only)
  --timeout <ms>     per-request timeout in milliseconds (default 60000; call waits
                     without limit unless this is given, since a tool may be asking you;
                     for login, how long to wait for the browser, default 300000)
  --client-id ID     login: the client registered at the authorization server; without
                     it, handoff registers itself there when the server allows it
  -h, --help         show this help
  -V, --version      show the version

When the server asks for information, each field is asked at the terminal; Ctrl-C cancels.
When it asks you to open a page, you see which server asks, its message, the full URL and
its host, and no browser opens unless you say yes. Without a terminal on stdin, both are
declined.

An http server that answers 401 wants you to log in: \`handoff login <target>\` opens its
authorization server in the browser and keeps the token in your configuration folder;
every other command then sends it, renewed when it expires. Asked at a terminal, a command
that meets a 401 offers the login itself.

\`handoff migrate\` creates or updates the PostgreSQL tables of the fleet stores (needs the pg
package); each instance does the same when it starts. The URL may come from DATABASE_URL.

Exit codes:
${codes}
`;
}
