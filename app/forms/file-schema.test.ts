import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fileField, optionalFileField } from "./file-schema";

const MESSAGES = { several: "Please send one file", missing: "Please choose a file" };
const optional = z.object({ text: z.string(), attachment: optionalFileField(MESSAGES) });
const required = z.object({ text: z.string(), attachment: fileField(MESSAGES) });

function formWith(...files: File[]): FormData {
  const form = new FormData();
  form.set("text", "hello");
  for (const file of files) form.append("attachment", file);
  return form;
}

describe("file fields", () => {
  it("take an optional file's part left out of the body as no file", () => {
    const submission = parseWithZod(formWith(), { schema: optional });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toEqual({ text: "hello" });
  });

  it("take an empty file input (a nameless, empty file) as no file", () => {
    const submission = parseWithZod(formWith(new File([], "")), { schema: optional });
    expect(submission.status === "success" && submission.value.attachment).toBeUndefined();
  });

  it("take one file", () => {
    const submission = parseWithZod(formWith(new File(["x"], "a.pdf")), { schema: optional });
    expect(submission.status === "success" && submission.value.attachment?.name).toBe("a.pdf");
  });

  it("refuse several files with the product's message", () => {
    const submission = parseWithZod(formWith(new File(["x"], "a.pdf"), new File(["y"], "b.pdf")), { schema: optional });
    expect(submission.status === "error" && submission.error).toEqual({ attachment: [MESSAGES.several] });
  });

  it.each([
    ["left out", formWith()],
    ["empty", formWith(new File([], ""))],
  ])("refuse a needed file %s with the product's message, never the validator's", (_case, form) => {
    const submission = parseWithZod(form, { schema: required });
    expect(submission.status === "error" && submission.error).toEqual({ attachment: [MESSAGES.missing] });
  });
});
