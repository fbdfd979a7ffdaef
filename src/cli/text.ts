/** Making text that came from a server safe to put on a terminal; shared with the hand-off consent screen. */
export { printable, printableLine, serverLabel } from "../interaction/client/printable.js";
