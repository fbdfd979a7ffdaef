/** The four implementations, in the order each round runs them (the order rotates per round). */
import { bare } from "./bare/index.js";
import { ours } from "./ours/index.js";
import { sdkV1 } from "./sdk-v1/index.js";
import { sdkV2 } from "./sdk-v2/index.js";
import type { Implementation } from "./types.js";

export const IMPLEMENTATIONS: readonly Implementation[] = [bare, ours, sdkV1, sdkV2];
