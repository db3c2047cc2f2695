/** Thrown when a provider refuses a message or cannot be reached; callers turn it into a user-facing message. */
export class DeliveryError extends Error {}
