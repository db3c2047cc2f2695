import { describe, expect, it } from "vitest";
import { zodErrors } from "~/api/api-responses.server";
import { NEXT_YEAR, sellerBody } from "../../../tests/support/seller-registration-body";
import {
  createSellerRegistrationSchema,
  EMAILS_DONT_MATCH,
  earliestToday,
  NO_SERVICE_CHOSEN,
  sellerKeyPeople,
  sellerProfileValues,
  sellerWcbs,
} from "./seller-registration-schema";

const schema = createSellerRegistrationSchema({ today: "2026-11-23", currentYear: 2026 });

const errorsOf = (body: Record<string, unknown>) => {
  const result = schema.safeParse(body);
  return result.success ? {} : zodErrors(result.error);
};

describe("seller registration schema and payload builder", () => {
  it("maps spec section 3's body to the seller model", () => {
    const data = schema.parse(sellerBody());
    expect(data.services).toEqual([5, 6]);
    expect(data.operationsContact).toBeUndefined();
    expect(sellerProfileValues(data)).toEqual({
      saWrittenSafetyProgram: true,
      saConductHazardAssessments: true,
      saSafeWorkProcedures: false,
      saOneManOp: false,
      saThirdPartySub: null,
      scComplyWorksExpiry: `${NEXT_YEAR}-01-31`,
      scIsnetWorldExpiry: null,
      scSecorExpiry: null,
      inCommercialGeneral: "$2,000,000 minimum",
      inCommercialGeneralExpiry: `${NEXT_YEAR}-06-30`,
      inThirdPartyAutomobile: "$1,000,000 minimum",
      inThirdPartyAutomobileExpiry: `${NEXT_YEAR}-06-30`,
      inAircraft: "No",
      inAircraftExpiry: null,
      inPollution: "$500,000 - $1,000,000",
      inPollutionExpiry: `${NEXT_YEAR}-11-23`,
      inFire: "No",
      inFireExpiry: null,
      inErrorsOmissions: "No",
      inErrorsOmissionsExpiry: null,
      inWcbCoverageNumber: "WCB-123",
      inWcbExpiry: `${NEXT_YEAR}-12-31`,
      feedback: "Found you at a trade show",
    });
    expect(sellerWcbs(data)).toEqual([
      { sortOrder: 0, state: "AB", number: "1234567", expiresOn: `${NEXT_YEAR}-03-01` },
    ]);
    expect(sellerKeyPeople(data)).toEqual([
      {
        contact: {
          role: "sales",
          firstName: "Sam",
          lastName: "Driller",
          phone: "780-555-0101",
          email: "sam@roughneck.example",
          experience: "20 years on rigs",
          skills: "Well control",
        },
        workExperiences: [
          {
            sortOrder: 0,
            companyName: "Big Rig Co",
            position: "Driller",
            startYear: 2001,
            endYear: 2010,
            responsibilities: "Drilling",
          },
        ],
        certifications: [{ sortOrder: 0, certificationName: "H2S Alive", expiresOn: `${NEXT_YEAR}-05-01` }],
        education: [
          {
            sortOrder: 0,
            programName: "Petroleum Engineering Technology",
            certDegree: "Diploma",
            startYear: 1995,
            endYear: 1997,
          },
        ],
      },
    ]);
  });

  it("keeps an operations contact once a first name is given, with optional summaries", () => {
    const data = schema.parse(
      sellerBody({
        operationsContact: {
          first_name: "Ola",
          last_name: "Ops",
          phone: "780-555-0102",
          email: "ola@roughneck.example",
        },
      }),
    );
    const [, operations] = sellerKeyPeople(data);
    expect(operations?.contact).toMatchObject({ role: "operations", firstName: "Ola", experience: null, skills: null });
    expect(operations?.workExperiences).toEqual([]);
  });

  it("requires at least one service category", () => {
    expect(errorsOf(sellerBody({ services: [] }))).toEqual({ services: NO_SERVICE_CHOSEN });
    expect(errorsOf(sellerBody({ services: undefined }))).toEqual({ services: NO_SERVICE_CHOSEN });
  });

  it("requires the sales contact's fields and a matching confirm email", () => {
    expect(
      errorsOf(
        sellerBody({
          salesContact: {
            first_name: "",
            last_name: "D",
            phone: "780-555-0101",
            email: "a@b.example",
            confirm_email: "x@b.example",
          },
        }),
      ),
    ).toEqual({
      "salesContact.first_name": "Please enter a first name",
      "salesContact.experience": "Please enter an experience summary",
      "salesContact.skills": "Please enter a skills summary",
      "salesContact.confirm_email": EMAILS_DONT_MATCH,
    });
    expect(errorsOf(sellerBody({ salesContact: undefined }))).toEqual({
      salesContact: "Please enter the sales contact's details",
    });
  });

  it("applies the insurance rules", () => {
    expect(
      errorsOf(
        sellerBody({
          in_commercial_general: "",
          in_third_party_automobile_expiry: "",
          in_aircraft: "$5,000,000 minimum",
          in_fire: "lots",
        }),
      ),
    ).toEqual({
      in_commercial_general: "Please select the commercial general liability coverage",
      in_third_party_automobile_expiry: "Please enter the third party automobile liability expiry date",
      in_fire: "Please select a coverage level",
      in_aircraft_expiry: "Please enter the aircraft liability expiry date",
    });
  });

  it("requires a certification's expiry when it is ticked, and drops it when unticked", () => {
    expect(errorsOf(sellerBody({ sc_secor: "on", sc_secor_expiry: "" }))).toEqual({
      sc_secor_expiry: "Please enter the SECOR expiry date",
    });
    const data = schema.parse(sellerBody({ sc_comply_works: false }));
    expect(sellerProfileValues(data).scComplyWorksExpiry).toBeNull();
  });

  it("requires a number and an expiry for a WCB entry with a state, and keeps only complete ones", () => {
    expect(errorsOf(sellerBody({ wcbs: [{ state: "BC", number: "", expire_at: "" }] }))).toEqual({
      "wcbs.0.number": "Please enter the WCB number",
      "wcbs.0.expire_at": "Please enter the WCB expiry date",
    });
    expect(
      schema.parse(sellerBody({ wcbs: [{ state: "", number: "99", expire_at: `${NEXT_YEAR}-01-01` }] })).wcbs,
    ).toEqual([]);
  });

  it("refuses dates before today, impossible dates and years outside 1950 to this year", () => {
    expect(
      errorsOf(
        sellerBody({
          in_commercial_general_expiry: "2026-11-22",
          in_wcb_expiry: "2027-02-30",
          salesContact: {
            ...(sellerBody().salesContact as object),
            workExperiences: [{ company_name: "Old Co", start_year: 1949, end_year: 2027 }],
            certifications: [{ certification_name: "WHMIS", expires_on: "2020-01-01" }],
            education: [{ program_name: "Welding", start_year: 2010, end_year: 2005 }],
          },
        }),
      ),
    ).toEqual({
      in_commercial_general_expiry: "Please choose a date from today onward",
      in_wcb_expiry: "Please enter a valid date",
      "salesContact.workExperiences.0.start_year": "Please choose a year between 1950 and 2026",
      "salesContact.workExperiences.0.end_year": "Please choose a year between 1950 and 2026",
      "salesContact.certifications.0.expires_on": "Please choose a date from today onward",
      "salesContact.education.0.end_year": "The end year cannot be before the start year",
    });
  });

  it("accepts only the 8 certification options", () => {
    expect(
      errorsOf(
        sellerBody({
          salesContact: {
            ...(sellerBody().salesContact as object),
            certifications: [{ certification_name: "Bartending" }],
          },
        }),
      ),
    ).toEqual({ "salesContact.certifications.0.certification_name": "Please choose a certification from the list" });
  });

  it("takes today as the earliest calendar date on Earth", () => {
    expect(earliestToday(new Date("2026-11-23T11:59:00Z"))).toBe("2026-11-22");
    expect(earliestToday(new Date("2026-11-23T12:00:00Z"))).toBe("2026-11-23");
  });
});
