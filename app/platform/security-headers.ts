import { randomBytes } from "node:crypto";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * Headers sent with every response. Scripts run only from our origin or inline with this
 * request's nonce; nothing may frame us. With Stripe configured, Stripe.js, its card frames and API,
 * and the redirect to Stripe Checkout are allowed too (on every page: the seller form is often
 * reached by client-side navigation, which keeps the first page's policy).
 */
export function securityHeaders(nonce: string, https: boolean, stripe = false): Record<string, string> {
  const stripeSources = (...sources: string[]) => (stripe ? ` ${sources.join(" ")}` : "");
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${stripeSources("https://js.stripe.com")}`,
    "style-src 'self'",
    `img-src 'self' data:${stripeSources("https://*.stripe.com")}`,
    "font-src 'self'",
    `connect-src 'self'${stripeSources("https://api.stripe.com")}`,
    ...(stripe ? ["frame-src https://js.stripe.com https://hooks.stripe.com"] : []),
    `form-action 'self'${stripeSources("https://checkout.stripe.com")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  };
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}
