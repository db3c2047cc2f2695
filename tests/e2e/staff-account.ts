/** The staff user the e2e server creates at start (SEED_STAFF_EMAIL / SEED_STAFF_PASSWORD, interfaces.md). */
export const STAFF = { email: "staff@upstream.example", password: "staff-password-1" };
