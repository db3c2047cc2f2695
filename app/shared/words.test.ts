import { describe, expect, it } from "vitest";
import { listOfWords, ordinal } from "./words";

describe("ordinal", () => {
  it("says 1st, 2nd, 3rd, 4th, and the teens and twenties right", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });
});

describe("listOfWords", () => {
  it("joins one, two or more items as a sentence does", () => {
    expect([["2"], ["2", "3"], ["2", "3", "5"]].map(listOfWords)).toEqual(["2", "2 and 3", "2, 3 and 5"]);
  });
});
