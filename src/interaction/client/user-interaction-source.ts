/**
 * The user-interaction proposal as a hand-off source: `interaction/create` (type `ua`) during a
 * request, error -32003 `interaction_required`, and completion learnt by following the interaction
 * with `interaction/track` (progress equal to total). The wire forms are read by the revision
 * codecs; this only maps them onto `ReceivedHandoff`.
 */
import type { McpClient } from "../../client/index.js";
import { ProtocolError } from "../../jsonrpc/errors.js";
import { isInteractionTrackComplete, readInteractionRequired, type UaInteraction } from "../../revisions/index.js";
import type { ReceivedHandoff } from "./interaction.js";
import type { HandoffHost, HandoffSource } from "./sources.js";

function received(interaction: UaInteraction): ReceivedHandoff {
  return { kind: "interaction", id: interaction.id, url: interaction.url, message: interaction.message ?? "" };
}

export class UserInteractionSource implements HandoffSource {
  private client: McpClient | undefined;

  /** Declares `userInteraction: { types: ["ua"] }` and answers `interaction/create` through the host. */
  install(client: McpClient, host: HandoffHost): void {
    this.client = client;
    client.setUserInteractionHandler((interaction, ctx) => host.present(received(interaction), ctx.signal));
  }

  required(error: unknown): ReceivedHandoff[] | undefined {
    if (!(error instanceof ProtocolError)) return undefined;
    const interaction = readInteractionRequired(error);
    return interaction ? [received(interaction)] : undefined;
  }

  /**
   * Sends `interaction/track` and reports completion when progress reaches its total. The request
   * stays open until the server answers or `signal` aborts (which cancels it). A server that
   * refuses to track leaves the wait to the user's "done" or the timeout; its refusal goes to the
   * client's `onerror`.
   */
  follow(handoff: ReceivedHandoff, host: HandoffHost, signal: AbortSignal): void {
    const client = this.client;
    if (!client?.isConnected) return;
    void client
      .trackInteraction(
        { id: handoff.id },
        {
          signal,
          timeoutMs: Number.POSITIVE_INFINITY,
          onprogress: (progress) => {
            if (isInteractionTrackComplete(progress)) host.complete(handoff.id);
          },
        },
      )
      .catch((error: unknown) => {
        if (!signal.aborted) client.onerror?.(error instanceof Error ? error : new Error(String(error)));
      });
  }
}
