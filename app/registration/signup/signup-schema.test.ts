import { describe, expect, it } from "vitest";
import { DISALLOWED_CHARACTERS } from "~/forms/text-schema";
import { organizationTypeField, requestCodePayload } from "./signup-schema";

describe("the registration request's payload", () => {
  it.each([[2], ["3"], [" 4 "]])("takes the organization type %j", (value) => {
    expect(organizationTypeField.safeParse(value).success).toBe(true);
  });

  it.each([[true], ["0x3"], ["3e0"], [3.5], ["3.0"], [null]])("refuses the organization type %j", (value) => {
    expect(organizationTypeField.safeParse(value).success).toBe(false);
  });

  it("refuses NUL in a name with the field message", () => {
    const parsed = requestCodePayload.safeParse({
      name: "Dana\u0000",
      organizationName: "Foothills",
      organizationType: 2,
      mobileNumber: "403-555-0100",
    });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", DISALLOWED_CHARACTERS],
    ]);
  });
});
