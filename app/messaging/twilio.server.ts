import { DeliveryError, isTransientStatus } from "./delivery-error";

export type TwilioConfig = { accountSid: string; authToken: string; from: string; apiUrl?: string };

export const TWILIO_DEFAULT_API_URL = "https://api.twilio.com";

/** Sends SMS through Twilio's Messages REST resource. */
export function createTwilioSender(config: TwilioConfig, fetchImpl?: typeof fetch) {
  const base = (config.apiUrl ?? TWILIO_DEFAULT_API_URL).replace(/\/+$/, "");
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;
  return {
    /** Answers Twilio's message sid. */
    async send(to: string, text: string): Promise<string> {
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ To: to, From: config.from, Body: text }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new DeliveryError(`Twilio unreachable: ${(error as Error).message}`, { permanent: false });
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string; code?: number; sid?: string };
      if (!response.ok) {
        const code = body.code ? `, code ${body.code}` : "";
        throw new DeliveryError(
          `Twilio refused the message (${response.status}${code}): ${body.message ?? "no detail"}`,
          {
            // A 4xx (21211 invalid number, 21610 unsubscribed recipient, ...) is Twilio's answer for this message.
            permanent: !isTransientStatus(response.status),
          },
        );
      }
      return body.sid ?? "";
    },
  };
}
