/**
 * How a golden transcript reads: the scenario's paragraph wrapped at 100 columns, then one line per
 * JSON-RPC message (`client: …` / `server: …`). Interaction ids and `requestState` values change
 * from run to run, so each is replaced by a numbered name in order of first appearance.
 */
import type { Logged } from "./support.js";

const ID = /"([A-Za-z0-9_-]{22})"/g;
const STATE = /"requestState":"([^"]+)"/g;

/** The transcript of `log` under the paragraph `about`. */
export function renderTranscript(about: string, log: readonly Logged[]): string {
  const ids = numbered("interaction");
  const states = numbered("request-state");
  const lines = log.map(({ from, message }) => {
    const json = JSON.stringify(message)
      .replace(STATE, (_all, state: string) => `"requestState":"${states(state)}"`)
      .replace(ID, (_all, id: string) => `"${ids(id)}"`);
    return `${from}: ${json}`;
  });
  return `${wrap(about)}\n\n${lines.join("\n")}\n`;
}

function numbered(kind: string): (value: string) => string {
  const names = new Map<string, string>();
  return (value) => {
    let name = names.get(value);
    if (name === undefined) {
      name = `<${kind}-${names.size + 1}>`;
      names.set(value, name);
    }
    return name;
  };
}

function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}
