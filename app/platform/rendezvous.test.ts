import { describe, expect, it } from "vitest";
import { ownerOf } from "./rendezvous";

const machines = ["3d8d9e1b", "148e2f6c", "9080e41a"].map((id) => ({ id }));
const keys = Array.from({ length: 3_000 }, (_, index) => `auction:${index + 1}`);

describe("the machine that takes an auction's bids", () => {
  it("is the same whatever order the machines are listed in", () => {
    const reversed = [...machines].reverse();
    for (const key of keys.slice(0, 200)) expect(ownerOf(key, reversed)).toEqual(ownerOf(key, machines));
  });

  it("spreads auctions evenly over the machines", () => {
    const counts = new Map<string, number>();
    for (const key of keys) {
      const owner = ownerOf(key, machines)?.id as string;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    for (const machine of machines) expect(counts.get(machine.id)).toBeGreaterThan(850);
  });

  it("moves only the auctions of a machine that leaves", () => {
    const [gone, ...staying] = machines;
    let moved = 0;
    for (const key of keys) {
      const before = ownerOf(key, machines);
      const after = ownerOf(key, staying);
      if (before?.id !== gone?.id) expect(after).toEqual(before);
      else moved += 1;
    }
    expect(moved).toBeGreaterThan(850);
  });

  it("is nobody when no machine is known", () => {
    expect(ownerOf("auction:1", [])).toBeUndefined();
  });
});
