/** What a Streamable HTTP server entry is asked for on its command line: `--answers json|sse`. */
import type { AnswerForm } from "./types.js";

/** The answer form this entry was started with; "default" when `--answers` is not given. */
export function answerForm(argv: readonly string[] = process.argv.slice(2)): AnswerForm {
  const at = argv.indexOf("--answers");
  const value = at === -1 ? "default" : argv[at + 1];
  if (value !== "default" && value !== "json" && value !== "sse")
    throw new Error(`--answers takes json or sse, got ${value}`);
  return value;
}
