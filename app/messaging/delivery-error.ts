/**
 * Thrown when a provider does not take a message. `permanent`: the provider refused this message and
 * would refuse it again (an invalid or inactive address, a bad number): retrying cannot help.
 * Otherwise the failure is transient (unreachable, a timeout, a 5xx, 429): the message is tried again later.
 */
export class DeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean }) {
    super(message);
    this.name = "DeliveryError";
    this.permanent = options.permanent;
  }
}

/** 5xx and 429 (too many requests) are worth another try; any other 4xx is the provider's final word. */
export const isTransientStatus = (status: number) => status >= 500 || status === 429 || status === 408;
