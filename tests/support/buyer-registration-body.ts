// A complete buyer (or consultant) form as a browser without JavaScript sends it, for integration tests.

/** Every field of the form (all three state controls included) but the optional alternate contact, with `changes` set. */
export function buyerFormBody(changes: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    name: "Foothills Energy Ltd.",
    address: "400 4 Ave SW",
    city: "Calgary",
    country: "CA",
    stateCA: "AB",
    stateUS: "",
    stateOther: "",
    postal_zip: "T2P 1J9",
    phone: "403-555-0100",
    fax: "",
    email: "office@foothills.example",
    "primaryContact.first_name": "Dana",
    "primaryContact.last_name": "Smith",
    "primaryContact.phone": "403-555-0101",
    "primaryContact.email": "dana@foothills.example",
    "accountingContact.first_name": "Robin",
    "accountingContact.last_name": "Lee",
    "accountingContact.phone": "403-555-0102",
    "accountingContact.email": "robin@foothills.example",
    billing_preference: "Email Invoice",
    primary_industry: "1",
    ...changes,
  });
}
