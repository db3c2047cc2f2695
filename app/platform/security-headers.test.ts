import { describe, expect, it } from "vitest";
import { createNonce, securityHeaders } from "./security-headers";

describe("securityHeaders", () => {
  it("allows inline scripts only with this response's nonce and forbids framing", () => {
    const headers = securityHeaders("abc123", false);
    const csp = headers["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });

  it("lets in Stripe.js, its card frames, its API and Checkout only when Stripe is configured", () => {
    const without = securityHeaders("n", false, false)["Content-Security-Policy"];
    expect(without).not.toContain("stripe.com");
    expect(without).toContain("form-action 'self';");
    const csp = securityHeaders("n", false, true)["Content-Security-Policy"];
    expect(csp).toContain("script-src 'self' 'nonce-n' https://js.stripe.com");
    expect(csp).toContain("frame-src https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("form-action 'self' https://checkout.stripe.com");
  });

  it("sends HSTS only over HTTPS", () => {
    expect(securityHeaders("n", false)["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders("n", true)["Strict-Transport-Security"]).toContain("max-age=31536000");
  });

  it("makes a new unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    expect(createNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
