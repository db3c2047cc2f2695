import { describe, expect, it } from "vitest";
import { stopInOrder } from "./stop-in-order.server";

describe("stopInOrder", () => {
  it("stops each part after the one before and times each", async () => {
    const order: string[] = [];
    const timings = await stopInOrder([
      [
        "queue",
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          order.push("queue");
        },
      ],
      [
        "database",
        () => {
          order.push("database");
        },
      ],
    ]);
    expect(order).toEqual(["queue", "database"]);
    expect(Object.keys(timings)).toEqual(["queue", "database"]);
    expect(timings.queue).toBeGreaterThanOrEqual(25);
    expect(timings.database).toBeLessThan(25);
  });
});
