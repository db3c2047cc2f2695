import { describe, expect, it } from "vitest";
import { describeProfile, diffProfiles } from "./profile-changes";

const asIs = (_field: string, value: string | string[]) => (Array.isArray(value) ? value.join("; ") : value);

describe("the profile changes staff read", () => {
  it("labels nested fields and blocks in words, skipping the form's own switches", () => {
    const described = describeProfile(
      {
        name: "Roughneck",
        stateCA: "AB",
        sc_comply_works: "yes",
        sc_comply_works_expiry: "2031-01-31",
        in_pollution_expiry: "2031-02-01",
        operations_contact_added: "yes",
        wcbs: [{ state: "AB", number: "1", expire_at: "2031-03-01" }, {}],
        salesContact: {
          first_name: "Sam",
          confirm_email: "sam@example.com",
          workExperiences: [{ company_name: "Big Rig Co", start_year: "" }],
        },
      },
      asIs,
    );
    expect([...described]).toEqual([
      ["Organization name", "Roughneck"],
      ["Province / state", "AB"],
      ["ComplyWorks expiry", "2031-01-31"],
      ["Pollution Liability expiry", "2031-02-01"],
      ["WCB 1, Province / state", "AB"],
      ["WCB 1, Number", "1"],
      ["WCB 1, Expiry date", "2031-03-01"],
      ["Sales contact, First name", "Sam"],
      ["Sales contact, work experience 1, Company name", "Big Rig Co"],
    ]);
  });

  it("lists each field whose text differs, with empty for a field added or removed", () => {
    const before = new Map([
      ["Phone", "1"],
      ["Fax", "2"],
    ]);
    const after = new Map([
      ["Phone", "1"],
      ["Email", "a@b.c"],
    ]);
    expect(diffProfiles(before, after)).toEqual([
      { field: "Fax", before: "2", after: "" },
      { field: "Email", before: "", after: "a@b.c" },
    ]);
    expect(diffProfiles(before, new Map(before))).toEqual([]);
  });
});
