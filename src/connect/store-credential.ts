/**
 * The one way a connect page stores what the user gave: the interaction is claimed first, the
 * vault write runs as the claim's commit, and the completion is announced only once it is stored
 * (a second callback, or an interaction that expired meanwhile, stores nothing).
 */

import type { InteractionManager } from "../interaction/server/index.js";
import type { UserRef } from "../model/identity.js";
import type { StoredCredential } from "../model/interaction.js";
import type { CredentialVault } from "../stores/types.js";
import { ATTR, STEP, Tracing } from "../tracing/index.js";

/** `stored: false` carries the vault's error; the interaction is then left as it was. */
export type StoreOutcome = { stored: true } | { stored: false; error: unknown };

/**
 * Completes interaction `id` for `user`, writing `credential` to `vault` as the completion's commit
 * (inside a `STEP.vaultWrite` span when `tracing` is on). `onStored` runs right after the vault
 * write, inside the claim (the audit record of the grant), before the completion is recorded and
 * announced; it must not throw.
 * @throws what `manager.complete` throws for any other reason than the vault: `InteractionError`
 *   "EXPIRED", "NOT_FOUND", an already completed or declined interaction, a store failure.
 */
export async function completeWithCredential(
  manager: Pick<InteractionManager, "complete">,
  vault: CredentialVault,
  id: string,
  user: UserRef,
  credential: StoredCredential,
  tracing: Tracing = Tracing.off,
  onStored?: () => Promise<void>,
): Promise<StoreOutcome> {
  let saving: unknown;
  try {
    await manager.complete(id, {
      user,
      commit: async () => {
        try {
          await tracing.step(STEP.vaultWrite, { [ATTR.provider]: credential.provider }, () =>
            vault.put(user, credential),
          );
        } catch (error) {
          saving = error ?? new Error("The vault failed");
          throw error;
        }
        await onStored?.();
      },
    });
  } catch (error) {
    if (saving !== undefined) return { stored: false, error: saving };
    throw error;
  }
  return { stored: true };
}
