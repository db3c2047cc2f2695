import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { idField, idOf, MAX_ID, parseId } from "./ids";

// What a script or a tampered page may send where an id is expected: Number() reads each of these
// as a number, and none of them is an id.
const NOT_IDS = [
  "0x10",
  "1e1",
  " 7",
  "7 ",
  "7.0",
  "0b11",
  "0o7",
  "+7",
  "-7",
  "07",
  "0",
  "",
  "2147483648",
  "99999999999",
];

describe("ids in URLs and query strings", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    [String(MAX_ID), MAX_ID],
  ])("takes %j", (raw, id) => {
    expect(parseId(raw)).toBe(id);
  });

  it.each([...NOT_IDS, undefined, null])("refuses %j", (raw) => {
    expect(parseId(raw)).toBeUndefined();
  });

  it("is PostgreSQL's integer at most", () => {
    expect(MAX_ID).toBe(2 ** 31 - 1);
  });
});

describe("id fields", () => {
  const id = idField("Please choose");

  it.each([[1], ["1"], [MAX_ID], ["42"]])("takes %j", (value) => {
    expect(id.parse(value)).toBe(Number(value));
    expect(idOf(value)).toBe(Number(value));
  });

  const notIds: unknown[] = [true, false, 1.5, 0, -1, MAX_ID + 1, [1], null, undefined, ...NOT_IDS];
  it.each(notIds.map((value) => [value]))("refuses %j with the field's message", (value) => {
    expect(id.safeParse(value).error?.issues.map((issue) => issue.message)).toEqual(["Please choose"]);
  });

  it("reads a form's text itself, not Conform's coercion of it", () => {
    const schema = z.object({ messageId: idField("Please choose a message") });
    for (const text of NOT_IDS) {
      const form = new FormData();
      form.set("messageId", text);
      const submission = parseWithZod(form, { schema });
      expect(submission.status === "error" && submission.error?.messageId).toEqual(["Please choose a message"]);
    }
    const form = new FormData();
    form.set("messageId", "16");
    const submission = parseWithZod(form, { schema });
    expect(submission.status === "success" && submission.value).toEqual({ messageId: 16 });
  });

  it("refuses a missing field with the field's message", () => {
    const submission = parseWithZod(new FormData(), { schema: z.object({ seller: idField("Choose the seller") }) });
    expect(submission.status === "error" && submission.error?.seller).toEqual(["Choose the seller"]);
  });
});
