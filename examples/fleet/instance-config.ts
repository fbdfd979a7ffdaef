/** How world.ts configures each instance process (instance.ts). */

/** What world.ts gives each instance; the byte strings are hex. */
export interface InstanceConfig {
  name: string;
  port: number;
  /** The load balancer's origin: the public origin of `/mcp` and of the connect pages. */
  origin: string;
  redisUrl: string;
  keyPrefix: string;
  databaseUrl: string;
  schema: string;
  /** 32-byte keys; the first seals `requestState`, all open. */
  requestStateKeys: string[];
  vaultKey: string;
  cookieSecret: string;
  mcpIssuer: string;
  thirdParty: { issuer: string; clientId: string; clientSecret: string };
}

/** The environment variable holding the JSON `InstanceConfig`. */
export const CONFIG_VARIABLE = "FLEET_INSTANCE";
