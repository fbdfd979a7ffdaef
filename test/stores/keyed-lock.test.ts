import { MemoryKeyedLock } from "../../src/stores/index.js";
import { runKeyedLockContract } from "./keyed-lock.contract.js";

runKeyedLockContract("memory", (count) => {
  const lock = new MemoryKeyedLock();
  return Array.from({ length: count }, () => lock);
});
