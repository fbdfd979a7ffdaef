/**
 * The client's two era drivers, by era, and which one a connection opens with: the era the
 * pinned version belongs to, or by default the stateless one, whose `server/discover` probe falls
 * back to the stateful driver's `initialize` when the server is older.
 */
import { SdkError } from "../../jsonrpc/errors.js";
import { eraOfVersion, LATEST_STATELESS_VERSION, SUPPORTED_VERSIONS } from "../../revisions/index.js";
import type { EraDriver, EraDrivers, EraLink } from "./driver.js";
import { StatefulDriver } from "./stateful.js";
import { StatelessDriver } from "./stateless.js";

export type { EraDriver, EraDrivers, EraLink } from "./driver.js";

/** One driver per era for a client's whole life (the stateless one keeps its listen and tool headers). */
export function createDrivers(link: EraLink): EraDrivers {
  const stateful = new StatefulDriver(link);
  return { stateful, stateless: new StatelessDriver(link, stateful) };
}

/** The driver a connection opens with: the pinned version's era, else the stateless probe. */
export function firstDriver(drivers: EraDrivers, pinnedVersion: string | undefined): EraDriver {
  return drivers[eraOfVersion(pinnedVersion) ?? "stateless"];
}

/**
 * Checks a version given as `options.protocolVersion`.
 * @throws SdkError "INVALID_ARGUMENT" for a version this package does not speak.
 */
export function checkRequestedVersion(version: string | undefined): void {
  if (version !== undefined && eraOfVersion(version) === undefined) {
    throw new SdkError(
      "INVALID_ARGUMENT",
      `Protocol version ${JSON.stringify(version)} is not supported; use one of ${[LATEST_STATELESS_VERSION, ...SUPPORTED_VERSIONS].join(", ")}`,
    );
  }
}
