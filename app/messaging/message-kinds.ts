// What a message is (the `kind` on its outbox row, shown to staff) decides how soon a failed send is
// tried again: a person waiting for a code or a link hears within seconds, a notice keeps the slow
// schedule that rides out a provider's longer outage. This is the one place that says which is which;
// a kind not named here (notifications, reminders, invoices, ...) is a notice.

export type Urgency = "awaited" | "notice";

/** The kinds of message a person waits for, as their callers queue them. */
export const AwaitedKind = {
  /** The SMS verification code of a sign-up. */
  AccessCode: "access-code",
  /** The password-reset link asked for at /forgot-password. */
  PasswordReset: "password-reset",
  /** An invited user's set-password link. */
  Invitation: "invitation",
  /** The account-setup link of an approved registration (the approval, or staff sending it again). */
  AccountSetup: "account-setup",
} as const;

const AWAITED: ReadonlySet<string> = new Set(Object.values(AwaitedKind));

/** Whether a person waits for a message of this kind (a resend keeps its original's kind, so its urgency too). */
export const urgencyOf = (kind: string): Urgency => (AWAITED.has(kind) ? "awaited" : "notice");
