/** What the figures depend on besides the code: the machine, its load, the runtime. */
import os from "node:os";

export interface MachineInfo {
  /** ISO 8601. */
  date: string;
  node: string;
  platform: string;
  cpu: string;
  cores: number;
  /** GiB. */
  memoryGiB: number;
  /** 1, 5 and 15 minute load averages. */
  load: [number, number, number];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    load: [one, five, fifteen],
  };
}
