import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validatedBy } from "./browser-validation";

const schema = z.object({ name: z.string({ error: "Please enter a name" }).max(5, "At most 5 characters") });

const form = (entries: Record<string, string>) => {
  const formData = new FormData();
  for (const [name, value] of Object.entries(entries)) formData.set(name, value);
  return formData;
};

const validate = (options: Parameters<typeof validatedBy>[1], formData: FormData) => {
  const { onValidate } = validatedBy(schema, options);
  if (!onValidate) throw new Error("no check in the browser");
  return onValidate({ formData });
};

describe("validatedBy, the browser side of a form", () => {
  it("checks on submit, again as a field is corrected, with the schema's constraints and messages", () => {
    const wiring = validatedBy(schema);
    expect(wiring.shouldValidate).toBe("onSubmit");
    expect(wiring.shouldRevalidate).toBe("onInput");
    expect(wiring.constraint).toEqual(getZodConstraint(schema));
    expect(wiring.constraint).toHaveProperty("name.required", true);
    const submission = validate({}, form({}));
    expect(submission.status).toBe("error");
    expect(submission.status === "error" && submission.error).toEqual({ name: ["Please enter a name"] });
    expect(validate({}, form({ name: "Ann" })).status).toBe("success");
  });

  it("leaves the fields without attributes, or with the form's own, when told", () => {
    expect(validatedBy(schema, { constraint: false }).constraint).toBeUndefined();
    expect(validatedBy(schema, { constraint: { name: { required: false } } }).constraint).toEqual({
      name: { required: false },
    });
  });

  it("reads the data as the server does and rewrites a refusal's errors as the server does", () => {
    const cut = (formData: FormData) => {
      formData.set("name", String(formData.get("name")).slice(0, 5));
      return formData;
    };
    expect(validate({ prepare: cut }, form({ name: "Annabel" })).status).toBe("success");
    const submission = validate(
      {
        adjustErrors: (error, formData) => {
          for (const name of Object.keys(error)) delete error[name];
          error[""] = [`Refused: ${formData.get("name")}`];
        },
      },
      form({ name: "Annabel" }),
    );
    expect(submission.status === "error" && submission.error).toEqual({ "": ["Refused: Annabel"] });
  });

  it("leaves the check to the server when the browser must not check", () => {
    const wiring = validatedBy(schema, { checkInBrowser: false, shouldRevalidate: "onSubmit" });
    expect(wiring.onValidate).toBeUndefined();
    expect(wiring.shouldRevalidate).toBe("onSubmit");
  });
});
