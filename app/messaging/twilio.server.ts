import { DeliveryError } from "./delivery-error";

export type TwilioConfig = { accountSid: string; authToken: string; from: string };

/** Sends SMS through Twilio's Messages REST resource. */
export function createTwilioSender(config: TwilioConfig, fetchImpl?: typeof fetch) {
  const url = `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;
  return {
    async send(to: string, text: string) {
      let response: Response;
      try {
        response = await (fetchImpl ?? fetch)(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ To: to, From: config.from, Body: text }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        throw new DeliveryError(`Twilio unreachable: ${(error as Error).message}`);
      }
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string; code?: number };
        throw new DeliveryError(`Twilio refused the message (${response.status}): ${body.message ?? "no detail"}`);
      }
    },
  };
}
