// The pages a first visit meets (issue 20): the public pages and every registration step, with the
// access tokens the steps need made through the registration API of a running app (its dev outbox
// gives the SMS code). Shared by bench/http.mjs (JavaScript bytes) and bench/lighthouse.mjs.

/** Pages that need no JavaScript to work: their target is 0 bytes of it. */
export const NO_JAVASCRIPT = new Set([
  "/about",
  "/privacy-policy",
  "/terms-and-conditions",
  "/signup/buyer-registration-complete",
  "/signup/seller-registration-complete",
  "/signup/consultant-registration-complete",
  "/no-such-page",
]);

export const PUBLIC_PAGES = [
  { name: "Home", path: "/" },
  { name: "About", path: "/about" },
  { name: "FAQ", path: "/faq" },
  { name: "FAQ searched (?q=)", path: "/faq?q=wcb" },
  { name: "Privacy Policy", path: "/privacy-policy" },
  { name: "Terms", path: "/terms-and-conditions" },
  { name: "Login", path: "/login" },
  { name: "Forgot password", path: "/forgot-password" },
  { name: "404", path: "/no-such-page" },
];

let applicants = 0;

/** A new applicant of a type (2 buyer, 3 seller): its access token, accepted up to `accepted`. */
async function applicant(origin, organizationType, accepted) {
  applicants += 1;
  const line = String(8000 + applicants * 10 + (process.pid % 10));
  const typed = `587-555-${line}`;
  const e164 = `+1587555${line}`;
  const post = async (path, body) => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  await post("/api/registration/request_code", {
    name: "Dana",
    organizationName: "Foothills",
    organizationType,
    mobileNumber: typed,
  });
  const outbox = await (await fetch(`${origin}/dev/outbox.json`)).json();
  const message = outbox.messages.find((entry) => entry.channel === "sms" && entry.to === e164);
  const code = /\b(\d{6})\b/.exec(message?.text ?? "")?.[1];
  if (!code) throw new Error(`no access code in the dev outbox for ${e164}`);
  const { accessToken } = await post("/api/registration/verify_code", { mobileNumber: e164, verificationCode: code });
  if (accepted.includes("privacy")) await post("/api/registration/accept_privacy_policy", { accessToken });
  if (accepted.includes("terms")) await post("/api/registration/accept_terms_and_conditions", { accessToken });
  return { accessToken, e164 };
}

/** Every registration step's page, in order (needs the app's dev outbox: DEV_OUTBOX=on). */
export async function registrationSteps(origin) {
  const fresh = await applicant(origin, 2, []);
  const accepted = await applicant(origin, 2, ["privacy"]);
  const buyer = await applicant(origin, 2, ["privacy", "terms"]);
  const seller = await applicant(origin, 3, ["privacy", "terms"]);
  return [
    { name: "1 Sign up", path: "/signup" },
    { name: "2 Access code", path: `/signup/verify-access-code/${encodeURIComponent(fresh.e164)}` },
    { name: "3 Privacy Policy", path: `/signup/accept-privacy-policy/${fresh.accessToken}` },
    { name: "4 Terms", path: `/signup/accept-terms-and-conditions/${accepted.accessToken}` },
    { name: "5 Buyer form", path: `/signup/buyer-registration/${buyer.accessToken}` },
    { name: "5 Seller form", path: `/signup/seller-registration/${seller.accessToken}` },
    { name: "6 Complete", path: "/signup/buyer-registration-complete" },
  ];
}
