/** The scripted browser live beside the full demo, which runs them too. */
export * from "../../examples/demo/full/browser.js";
