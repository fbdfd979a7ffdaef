/** Making text that came from a server safe to put on a terminal; shared with the hand-off consent screen. */
export { clip, printable, printableLine, serverLabel } from "../interaction/client/printable.js";

/** `2 s`, `0.5 s`: a duration in ms as people say it. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 3 : 1))} s`;
}
