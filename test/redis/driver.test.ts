import { describe, expect, it } from "vitest";
import { loadRedisDriver } from "../../src/redis/driver.js";

describe("loading ioredis, an optional peer dependency", () => {
  it("when it is not installed, fails with DEPENDENCY_MISSING naming the package and the command", async () => {
    const absent = Object.assign(new Error("Cannot find package 'ioredis' imported from /app/dist/redis.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await loadRedisDriver(async () => {
      throw absent;
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "DEPENDENCY_MISSING",
      message: expect.stringContaining("npm install ioredis"),
    });
    expect((error as Error).cause).toBe(absent);
  });

  it("passes on a failure of ioredis' own (a module it needs is missing), and finds its Redis class where it is installed", async () => {
    const broken = Object.assign(new Error("Cannot find module 'denque'\nRequire stack:\n- ioredis/built/index.js"), {
      code: "MODULE_NOT_FOUND",
    });
    await expect(
      loadRedisDriver(async () => {
        throw broken;
      }),
    ).rejects.toBe(broken);
    const Redis = await loadRedisDriver((name) => import(name));
    expect(typeof Redis).toBe("function");
  });
});
