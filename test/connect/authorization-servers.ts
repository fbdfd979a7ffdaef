/** The oidc-provider servers live beside the full demo, which runs them too. */
export * from "../../examples/demo/full/authorization-servers.js";
