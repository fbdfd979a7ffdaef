/**
 * What the client reports beside requests (a line of a stdio server's stdout that is not JSON-RPC,
 * a hook that failed), as warnings on stderr. Held while connecting, since a failed handshake
 * names the cause in its own message; told once connected.
 */
import { InvalidLineError } from "../transports/stdio/index.js";
import { describeBadLine } from "./client.js";
import { describeError } from "./exit-codes.js";

/** Lines of stdout that are not JSON-RPC told one by one; after that, once that there are more. */
const BAD_LINES_TOLD = 3;

export class Warnings {
  private held: Error[] | undefined = [];
  private badLines = 0;

  constructor(private readonly write: (text: string) => void) {}

  /** For `ClientSetup.onerror`. */
  readonly report = (error: Error): void => {
    if (this.held !== undefined) this.held.push(error);
    else this.tell(error);
  };

  /** The handshake succeeded: what was held is told, and what follows as it comes. */
  connected(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const error of held) this.tell(error);
  }

  /** The handshake failed (its message names the cause): a new attempt starts with nothing held. */
  failed(): void {
    this.held = [];
    this.badLines = 0;
  }

  private tell(error: Error): void {
    if (!(error instanceof InvalidLineError)) {
      this.write(`handoff: warning: ${describeError(error)}\n`);
      return;
    }
    this.badLines++;
    if (this.badLines <= BAD_LINES_TOLD)
      this.write(`handoff: warning: the server's ${describeBadLine(error)}; ignored\n`);
    else if (this.badLines === BAD_LINES_TOLD + 1) {
      this.write("handoff: warning: more lines of the server's stdout are not JSON-RPC; not shown\n");
    }
  }
}
