/**
 * `subscriptions/listen` (revision 2026-07-28): a long-lived request on which the server sends the
 * change notifications the client opted in to, each tagged with the listen request's id
 * (spec 2026-07-28: basic/patterns/subscriptions). The request stays open until the client cancels
 * it or the connection closes.
 */
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { InboundRequest, Params, Result } from "../../jsonrpc/session.js";
import { META, type ServerCapabilities } from "../../revisions/index.js";

/** The notification types a listen request may opt in to. */
interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

type ListKind = "tools" | "resources" | "prompts";

const FLAG_OF: Record<ListKind, "toolsListChanged" | "promptsListChanged" | "resourcesListChanged"> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};

interface Listen {
  filter: Filter;
  inbound: InboundRequest;
}

export class Subscriptions {
  /** Made on the first listen: most sessions never open one. */
  #listens: Map<RequestId, Listen> | undefined;

  /**
   * Serves one `subscriptions/listen`: acknowledges the types the server can honour (those whose
   * capability it offers), then holds the request open.
   * @throws ProtocolError -32602 when `notifications` is not an object.
   */
  async listen(params: Params, inbound: InboundRequest, capabilities: ServerCapabilities): Promise<Result> {
    const asked = params.notifications;
    if (typeof asked !== "object" || asked === null || Array.isArray(asked)) {
      throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: notifications must be an object");
    }
    const wanted = asked as Filter;
    const agreed: Filter = {};
    if (wanted.toolsListChanged === true && capabilities.tools?.listChanged) agreed.toolsListChanged = true;
    if (wanted.promptsListChanged === true && capabilities.prompts?.listChanged) agreed.promptsListChanged = true;
    if (wanted.resourcesListChanged === true && capabilities.resources?.listChanged) {
      agreed.resourcesListChanged = true;
    }
    if (Array.isArray(wanted.resourceSubscriptions) && capabilities.resources?.subscribe) {
      agreed.resourceSubscriptions = wanted.resourceSubscriptions.filter((uri) => typeof uri === "string");
    }
    const tag = { [META.subscriptionId]: inbound.id };
    // The acknowledgement is the first message of the subscription; nothing is sent to it before.
    await inbound.notify("notifications/subscriptions/acknowledged", { notifications: agreed, _meta: tag });
    this.#listens ??= new Map();
    this.#listens.set(inbound.id, { filter: agreed, inbound });
    await new Promise<void>((resolve) => {
      if (inbound.signal.aborted) resolve();
      else inbound.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.#listens?.delete(inbound.id);
    return { _meta: tag };
  }

  /** Sends `notifications/<kind>/list_changed` to every listen that opted in. Never rejects. */
  async listChanged(kind: ListKind): Promise<void> {
    const flag = FLAG_OF[kind];
    await this.#each(
      (filter) => filter[flag] === true,
      (id) => ({ method: `notifications/${kind}/list_changed`, params: { _meta: { [META.subscriptionId]: id } } }),
    );
  }

  /** Sends `notifications/resources/updated` to every listen subscribed to `uri`. Never rejects. */
  async resourceUpdated(uri: string): Promise<void> {
    await this.#each(
      (filter) => filter.resourceSubscriptions?.includes(uri) === true,
      (id) => ({ method: "notifications/resources/updated", params: { uri, _meta: { [META.subscriptionId]: id } } }),
    );
  }

  clear(): void {
    this.#listens?.clear();
  }

  async #each(
    matches: (filter: Filter) => boolean,
    message: (id: RequestId) => { method: string; params: Params },
  ): Promise<void> {
    const sends = [...(this.#listens?.values() ?? [])]
      .filter((listen) => matches(listen.filter))
      .map((listen) => {
        const { method, params } = message(listen.inbound.id);
        return listen.inbound.notify(method, params).catch(() => undefined);
      });
    await Promise.all(sends);
  }
}
