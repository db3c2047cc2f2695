// A register_seller body with spec section 3's field names, for unit and integration tests.

/** Expiry dates fall in next year, so they stay valid whatever day the tests run. */
export const NEXT_YEAR = new Date().getUTCFullYear() + 1;

/** A complete body with spec section 3's field names. */
export function sellerBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reg_access_token: "token",
    name: "Roughneck Services Ltd.",
    address: "10 Industrial Way",
    city: "Nisku",
    state: "AB",
    country: "CA",
    postal_zip: "T9E 7N5",
    phone: "780-555-0100",
    fax: "",
    email: "office@roughneck.example",
    primary_industry: 1,
    serviceAreas: [1, 2],
    sa_written_safety_program: true,
    sa_conduct_hazard_assessments: "yes",
    sa_safe_work_procedures: "no",
    sa_one_man_op: false,
    sa_third_party_sub: null,
    sc_comply_works_expiry: `${NEXT_YEAR}-01-31`,
    sc_isnet_world_expiry: null,
    sc_secor_expiry: "",
    in_commercial_general: "$2,000,000 minimum",
    in_commercial_general_expiry: `${NEXT_YEAR}-06-30`,
    in_third_party_automobile: "$1,000,000 minimum",
    in_third_party_automobile_expiry: `${NEXT_YEAR}-06-30`,
    in_aircraft: "No",
    in_aircraft_expiry: "",
    in_pollution: "$500,000 - $1,000,000",
    in_pollution_expiry: `${NEXT_YEAR}-11-23`,
    in_fire: "",
    in_errors_omissions: "No",
    in_wcb_coverage_number: "WCB-123",
    in_wcb_expiry: `${NEXT_YEAR}-12-31`,
    wcbs: [
      { state: "AB", number: "1234567", expire_at: `${NEXT_YEAR}-03-01` },
      { state: "", number: "", expire_at: "" },
    ],
    services: [5, "6", 5],
    salesContact: {
      first_name: "Sam",
      last_name: "Driller",
      phone: "780-555-0101",
      email: "Sam@Roughneck.example",
      confirm_email: "sam@roughneck.example",
      experience: "20 years on rigs",
      skills: "Well control",
      workExperiences: [
        {
          company_name: "Big Rig Co",
          position: "Driller",
          start_year: 2001,
          end_year: "2010",
          responsibilities: "Drilling",
        },
        { company_name: "", position: "ignored" },
      ],
      certifications: [
        { certification_name: "H2S Alive", expires_on: `${NEXT_YEAR}-05-01` },
        { certification_name: "", expires_on: "" },
      ],
      education: [
        { program_name: "Petroleum Engineering Technology", cert_degree: "Diploma", start_year: 1995, end_year: 1997 },
      ],
    },
    operationsContact: { first_name: "", last_name: "", phone: "", email: "" },
    feedback: "Found you at a trade show",
    stripe_payment_token: "tok_visa",
    ...changes,
  };
}
